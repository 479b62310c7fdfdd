// PROJ: coordinate operations (proj.h) and Karney's geodesic algorithms (geodesic.h). Only the declarations:
// the library is loaded at run time, not linked.
#include <proj.h>
#include <geodesic.h>
