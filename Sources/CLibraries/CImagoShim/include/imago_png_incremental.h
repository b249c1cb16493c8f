#ifndef IMAGO_PNG_INCREMENTAL_H
#define IMAGO_PNG_INCREMENTAL_H
#include <stddef.h>
#include <stdint.h>
#include "imago_png.h"

/// A PNG decoded as its bytes arrive, with libpng's progressive reader (`png_process_data`). The decoder holds
/// one RGBA image buffer into which every interlace pass is combined "blocky" (libpng widens each pass's pixels
/// over the ones later passes refine, as browsers draw interlaced PNGs), so a preview is a copy of it.
typedef struct imago_png_incremental imago_png_incremental;

/// Where the decode stands.
typedef struct imago_png_incremental_state {
    /// IHDR and the chunks before the image data have been read (`imago_png_incremental_header` may be called).
    int header_ready;
    /// The image is interlaced (Adam7): only then are previews offered.
    int interlaced;
    /// Interlace passes received in full (1 for a complete non-interlaced image).
    int completed_passes;
    /// Every row of every pass has arrived.
    int image_complete;
    /// The header gave more than the allowed pixels (the failure is a limit, not bad data).
    int limit_exceeded;
    /// libpng warned inside the image data (a bad zlib stream after the last row): the image is refused.
    int damaged;
    /// Warnings libpng gave so far (the one-shot decoder keeps their texts on the image).
    int warnings;
} imago_png_incremental_state;

/// A decoder that refuses images of more than `max_pixels`; `keep_plain` 0 stops after the header of a
/// non-interlaced image (no previews to give: the caller decodes it in one shot). NULL when out of memory.
imago_png_incremental *imago_png_incremental_create(uint64_t max_pixels, int keep_plain);
/// Takes `size` more bytes and decodes as far as they allow. Returns non-zero on failure.
int imago_png_incremental_append(imago_png_incremental *decoder, const uint8_t *data, size_t size);
void imago_png_incremental_get_state(const imago_png_incremental *decoder, imago_png_incremental_state *state);
/// What the header says (valid once `header_ready`); the EXIF pointer is owned by the decoder.
int imago_png_incremental_header(const imago_png_incremental *decoder, imago_png_header *header);
/// The `iCCP` profile (owned by the decoder), NULL with size 0 when there is none.
void imago_png_incremental_icc_profile(const imago_png_incremental *decoder, const uint8_t **profile, size_t *size);
/// Copies the image so far (a preview after a pass, the final image once `image_complete`) as RGBA8 rows
/// `bytes_per_row` apart.
int imago_png_incremental_render(const imago_png_incremental *decoder, uint8_t *pixels, size_t bytes_per_row);
/// The library's reason for the last failure.
const char *imago_png_incremental_message(const imago_png_incremental *decoder);
void imago_png_incremental_destroy(imago_png_incremental *decoder);
/// Decoders alive in this process (for tests: cancellation must free them).
int imago_png_incremental_live_count(void);

#endif
