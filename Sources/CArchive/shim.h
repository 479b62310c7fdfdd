// libarchive: reading ZIP (and the other formats and filters it knows) from a file or from memory, and
// writing a ZIP of one file (a KMZ). Only the declarations: the library is loaded at run time, not linked.
#include <archive.h>
#include <archive_entry.h>

// AE_IFREG is a cast macro, which Swift does not import: the file type of a regular file.
static const unsigned int routekit_AE_IFREG = AE_IFREG;
