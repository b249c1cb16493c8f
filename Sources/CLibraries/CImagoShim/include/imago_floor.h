#ifndef IMAGO_FLOOR_H
#define IMAGO_FLOOR_H
#include <stddef.h>
#include <stdint.h>

// The serve path's floor for imago-bench (issue 28): the C libraries called directly with nothing around them,
// buffers reused across calls. Not used by the library itself.

/// Reusable buffers of one floor run (not thread-safe: one per thread).
typedef struct imago_floor imago_floor;

imago_floor *imago_floor_create(void);
void imago_floor_destroy(imago_floor *floor);

/// Resizes RGBA rows to `output_width` x `output_height` with a Catmull-Rom filter widened by the scale (separable,
/// one SSE2 float vector a pixel: each source row converted once, resampled horizontally into a ring of rows, then
/// summed vertically); the result stays in the floor's buffer (see imago_floor_pixels). Returns 0 on success.
int imago_floor_resize(imago_floor *floor, const uint8_t *pixels, uint32_t width, uint32_t height,
                       size_t bytes_per_row, uint32_t output_width, uint32_t output_height);
/// The last resize's output: `output_width` * 4 bytes a row.
const uint8_t *imago_floor_pixels(const imago_floor *floor);

/// libjpeg-turbo: decodes at `scale_eighths`/8 (with the fast IDCT and plain upsampling when `fast`), resizes to
/// `output_width` x `output_height`, encodes a baseline JPEG of `quality`. Returns the JPEG's size (0: failure).
size_t imago_floor_jpeg(imago_floor *floor, const uint8_t *data, size_t size, unsigned scale_eighths, int fast,
                        uint32_t output_width, uint32_t output_height, int quality);

/// The three steps of imago_floor_jpeg, for timing them apart: the decode (into the floor's buffer, its size in
/// `width` x `height`), the resize of that buffer, the encode of the resize's output. 0 / a size on success.
int imago_floor_jpeg_decode(imago_floor *floor, const uint8_t *data, size_t size, unsigned scale_eighths, int fast,
                            uint32_t *width, uint32_t *height);
int imago_floor_resize_decoded(imago_floor *floor, uint32_t width, uint32_t height, uint32_t output_width,
                               uint32_t output_height);
size_t imago_floor_jpeg_encode(imago_floor *floor, uint32_t width, uint32_t height, int quality);

/// libpng: decodes to RGBA (simplified API), resizes, encodes an 8-bit RGB PNG at zlib `compression_level` with
/// libpng's default filters. Returns the PNG's size (0: failure).
size_t imago_floor_png(imago_floor *floor, const uint8_t *data, size_t size, uint32_t output_width,
                       uint32_t output_height, int compression_level);

/// Encodes the last resize's output as an RGB PNG at `compression_level`, with `filters` (PNG_FILTER_* flags; 0
/// keeps libpng's default). Returns the size (0: failure).
size_t imago_floor_png_encode(imago_floor *floor, uint32_t width, uint32_t height, int compression_level, int filters);

#endif
