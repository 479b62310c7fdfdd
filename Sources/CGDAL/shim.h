// GDAL's raster API (opening a raster, its geotransform, reading windows of a band), its error handling,
// and its spatial references (OSR), whose coordinate transformations PROJ carries out.
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <ogr_srs_api.h>
