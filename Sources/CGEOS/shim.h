// GEOS through its C API, reentrant functions only: one context handle per thread.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
