#ifndef IMAGO_PNG_H
#define IMAGO_PNG_H
#include <stddef.h>
#include <stdint.h>

/// What the PNG header (IHDR and the chunks before IDAT) says.
typedef struct imago_png_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    /// The color type has an alpha channel, or a tRNS chunk makes some color transparent.
    int has_alpha;
    /// The eXIf chunk's TIFF data when it comes before the image data, owned by the decoder; NULL if none.
    const uint8_t *exif;
    size_t exif_size;
} imago_png_header;

typedef struct imago_png_decoder imago_png_decoder;

/// A decoder over `size` bytes at `data` (not copied: they must outlive the decoder); NULL when out of memory.
imago_png_decoder *imago_png_decoder_create(const uint8_t *data, size_t size);
/// Reads the signature and the chunks up to the first IDAT.
int imago_png_decoder_read_header(imago_png_decoder *decoder, imago_png_header *header);
/// Decodes the image as RGBA8 (16-bit reduced to the high byte) into `height` rows `bytes_per_row` apart.
int imago_png_decoder_read_rgba(imago_png_decoder *decoder, uint8_t *pixels, size_t bytes_per_row);
/// The library's reason for the last failure.
const char *imago_png_decoder_message(const imago_png_decoder *decoder);
void imago_png_decoder_destroy(imago_png_decoder *decoder);

// MARK: Warnings and ICC profiles

/// How many distinct warning texts a decoder keeps.
#define IMAGO_PNG_MAX_WARNINGS 8
/// Makes every libpng warning a failure (before imago_png_decoder_read_header).
void imago_png_decoder_set_strict(imago_png_decoder *decoder, int strict);
/// The text of kept warning `index`, in order, or NULL.
const char *imago_png_decoder_warning(const imago_png_decoder *decoder, int index);
/// After the header: the iCCP profile (decompressed, owned by the decoder); NULL with size 0 when there is none
/// (libpng drops a profile whose header or tag table is invalid, with a warning).
void imago_png_decoder_icc_profile(imago_png_decoder *decoder, const uint8_t **profile, size_t *size);

/// How `imago_png_encode` writes RGBA input.
typedef enum imago_png_layout {
    IMAGO_PNG_RGBA = 0,
    IMAGO_PNG_RGB = 1,
    IMAGO_PNG_GRAY = 2,
    IMAGO_PNG_GRAY_ALPHA = 3,
} imago_png_layout;

/// Encodes RGBA8 rows as an 8-bit PNG of `layout`; on success `*output` (free with `imago_shim_free`) holds
/// `*output_size` bytes.
int imago_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                     imago_png_layout layout, int compression_level, uint8_t **output, size_t *output_size,
                     char *message, size_t message_size);

/// The same, embedding the ICC profile of `icc_size` bytes at `icc` (none when NULL) as iCCP; an RGB profile
/// needs an RGB or RGBA layout. `run_length` (1) compresses with zlib's Z_RLE strategy after libpng's adaptive row
/// filters; 0 uses zlib's default matching at `compression_level`.
int imago_png_encode_icc(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                         imago_png_layout layout, int compression_level, int run_length, const uint8_t *icc,
                         size_t icc_size, uint8_t **output, size_t *output_size, char *message, size_t message_size);

#endif
