// GDAL's raster API (opening a raster, its geotransform, reading windows of a band), its error handling,
// and its spatial references (OSR), whose coordinate transformations PROJ carries out.
// Only the declarations: the library is loaded at run time, not linked. Debian keeps the headers in
// /usr/include/gdal (the headers they include are found beside them).
#include <gdal/gdal.h>
#include <gdal/cpl_conv.h>
#include <gdal/cpl_error.h>
#include <gdal/ogr_srs_api.h>
