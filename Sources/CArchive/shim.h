// libarchive: reading ZIP (and the other formats and filters it knows) from a file or from memory, and
// writing a ZIP of one file (a KMZ).
#include <archive.h>
#include <archive_entry.h>

// AE_IFREG is a cast macro, which Swift does not import: a regular file (not a folder, link or device).
static inline int routekit_archive_entry_is_regular_file(struct archive_entry *entry) {
    return archive_entry_filetype(entry) == AE_IFREG && archive_entry_hardlink(entry) == NULL;
}

// The same macro, for an entry being written: a regular file readable by all.
static inline void routekit_archive_entry_set_regular_file(struct archive_entry *entry) {
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
}
