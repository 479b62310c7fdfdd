// libxml2 for Swift. Debian builds libxml2 with ICU; letting its ICU declarations into a module that also
// sees Foundation breaks clean builds ("'UErrorCode' has different definitions in different modules").
// RouteKit never uses libxml2's ICU encoding handlers, so the configuration macro is switched off before
// the parser headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
