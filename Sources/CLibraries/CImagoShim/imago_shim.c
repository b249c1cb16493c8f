#include "imago_shim.h"
#include <stdio.h>
#include <png.h>
#include <jpeglib.h>

const char *imago_shim_png_version(void) { return PNG_LIBPNG_VER_STRING; }
int imago_shim_jpeg_version(void) { return JPEG_LIB_VERSION; }
