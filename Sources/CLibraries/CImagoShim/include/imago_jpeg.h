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
/// Decodes as RGBA8 into rows `bytes_per_row` apart. Library warnings about corrupt data are kept (see
/// imago_jpeg_decoder_warning); data that ends before the last row is a failure, and so is any warning in strict mode.
int imago_jpeg_decoder_read_rgba(imago_jpeg_decoder *decoder, uint8_t *pixels, size_t bytes_per_row);
/// The library's reason for the last failure.
const char *imago_jpeg_decoder_message(const imago_jpeg_decoder *decoder);
void imago_jpeg_decoder_destroy(imago_jpeg_decoder *decoder);

// MARK: Warnings and ICC profiles

/// How many distinct warning texts a decoder keeps (the count goes on).
#define IMAGO_JPEG_MAX_WARNINGS 8
/// Makes every library warning a failure (before imago_jpeg_decoder_read_header).
void imago_jpeg_decoder_set_strict(imago_jpeg_decoder *decoder, int strict);
/// How many warnings the library gave so far.
int imago_jpeg_decoder_warning_count(const imago_jpeg_decoder *decoder);
/// The text of kept warning `index` (distinct texts, in order), or NULL.
const char *imago_jpeg_decoder_warning(const imago_jpeg_decoder *decoder, int index);
/// After the header: the embedded ICC profile, reassembled from its APP2 chunks (free with `imago_shim_free`);
/// NULL with size 0 when there is none or its chunks are inconsistent (a warning is then kept).
int imago_jpeg_decoder_icc_profile(imago_jpeg_decoder *decoder, uint8_t **profile, unsigned int *size);
/// Whether CMYK samples are stored inverted (Adobe APP14), as a colour engine must be told.
int imago_jpeg_decoder_cmyk_inverted(const imago_jpeg_decoder *decoder);
/// With `keep` set, CMYK images are returned as C, M, Y, K bytes (as stored) instead of RGBA.
void imago_jpeg_decoder_keep_cmyk(imago_jpeg_decoder *decoder, int keep);

/// Encodes RGBA8 rows (alpha ignored) as a baseline YCbCr JPEG of `quality` (0-100); on success `*output`
/// (free with `imago_shim_free`) holds `*output_size` bytes.
int imago_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int quality,
                      uint8_t **output, size_t *output_size, char *message, size_t message_size);

/// The same, embedding the ICC profile of `icc_size` bytes at `icc` (none when NULL) in APP2 chunks; with
/// `grayscale` set, a one-component JPEG of the pixels' luma (exactly r when r == g == b).
int imago_jpeg_encode_icc(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int quality,
                          int grayscale, const uint8_t *icc, size_t icc_size, uint8_t **output, size_t *output_size,
                          char *message, size_t message_size);

#endif
