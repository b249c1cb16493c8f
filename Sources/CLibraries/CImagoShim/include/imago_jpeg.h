#ifndef IMAGO_JPEG_H
#define IMAGO_JPEG_H
#include <stddef.h>
#include <stdint.h>

/// The color model of the stored JPEG.
typedef enum imago_jpeg_color {
    IMAGO_JPEG_GRAY = 0,
    IMAGO_JPEG_RGB = 1,
    IMAGO_JPEG_CMYK = 2,
    IMAGO_JPEG_OTHER = 3,
} imago_jpeg_color;

/// What the JPEG header (the markers up to the first SOS) says.
typedef struct imago_jpeg_header {
    uint32_t width;
    uint32_t height;
    int components;
    imago_jpeg_color color;
    int progressive;
    /// The payload of the first APP1 "Exif\0\0" segment (after those six bytes), owned by the decoder; NULL if none.
    const uint8_t *exif;
    size_t exif_size;
} imago_jpeg_header;

typedef struct imago_jpeg_decoder imago_jpeg_decoder;

/// A decoder over `size` bytes at `data` (not copied: they must outlive the decoder); NULL when out of memory.
imago_jpeg_decoder *imago_jpeg_decoder_create(const uint8_t *data, size_t size);
/// Reads the markers up to the first scan.
int imago_jpeg_decoder_read_header(imago_jpeg_decoder *decoder, imago_jpeg_header *header);
/// Chooses DCT scaling 1/`scale_denominator` (1, 2, 4 or 8) and gives the output size.
int imago_jpeg_decoder_prepare(imago_jpeg_decoder *decoder, int scale_denominator, uint32_t *output_width,
                               uint32_t *output_height);
/// For an image that will be shrunk further (a thumbnail): decode at `scale_eighths`/8 (1-8; 0 keeps the
/// denominator given to prepare) and, when `fast`, with the fast integer IDCT and without fancy upsampling, as
/// Pillow's draft mode does. Call before `imago_jpeg_decoder_prepare`.
void imago_jpeg_decoder_set_thumbnail_mode(imago_jpeg_decoder *decoder, unsigned scale_eighths, int fast);
/// Decodes as RGBA8 into rows `bytes_per_row` apart. Library warnings about corrupt or truncated data are
/// failures (see imago_jpeg.c for the few harmless ones that are not).
int imago_jpeg_decoder_read_rgba(imago_jpeg_decoder *decoder, uint8_t *pixels, size_t bytes_per_row);
/// The library's reason for the last failure.
const char *imago_jpeg_decoder_message(const imago_jpeg_decoder *decoder);
void imago_jpeg_decoder_destroy(imago_jpeg_decoder *decoder);

/// Encodes RGBA8 rows (alpha ignored) as a baseline YCbCr JPEG of `quality` (0-100); on success `*output`
/// (free with `imago_shim_free`) holds `*output_size` bytes.
int imago_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int quality,
                      uint8_t **output, size_t *output_size, char *message, size_t message_size);

#endif
