#include "imago_shim.h"
#include <stdio.h>
#include <stdlib.h>
#include <png.h>
#include <jpeglib.h>

const char *imago_shim_png_version(void) { return PNG_LIBPNG_VER_STRING; }
int imago_shim_jpeg_version(void) { return JPEG_LIB_VERSION; }

void imago_shim_free(void *pointer) { free(pointer); }

void imago_shim_rgba_analyze(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                             int *is_opaque, int *is_gray) {
    int opaque = 1, gray = 1;
    for (uint32_t y = 0; y < height && (opaque || gray); y++) {
        const uint8_t *p = pixels + (size_t)y * bytes_per_row;
        for (uint32_t x = 0; x < width; x++, p += 4) {
            opaque &= p[3] == 255;
            gray &= p[0] == p[1] && p[1] == p[2];
        }
    }
    *is_opaque = opaque;
    *is_gray = gray;
}
