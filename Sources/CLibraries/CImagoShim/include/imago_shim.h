#ifndef IMAGO_SHIM_H
#define IMAGO_SHIM_H
#include <stddef.h>
#include <stdint.h>

// Every libpng/libjpeg call that may longjmp happens in these C functions (each has its own setjmp), so no Swift
// frame is ever jumped over. Functions return 0 on success and non-zero on failure, with the library's reason in
// the decoder's message (or in the caller's `message` buffer for the encoders).

/// The library versions the codecs were built against, for `imago --version` and diagnostics.
const char *imago_shim_png_version(void);
int imago_shim_jpeg_version(void);

/// Frees a buffer returned by an encoder.
void imago_shim_free(void *pointer);

/// Looks at RGBA pixels: whether every alpha is 255 and whether every pixel is grey (r == g == b).
void imago_shim_rgba_analyze(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                             int *is_opaque, int *is_gray);

#include "imago_png.h"
#include "imago_jpeg.h"

#endif
