// PROJ: coordinate operations (proj.h) and Karney's geodesic algorithms (geodesic.h).
#include <proj.h>
#include <geodesic.h>
