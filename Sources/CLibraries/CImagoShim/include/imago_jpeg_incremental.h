#ifndef IMAGO_JPEG_INCREMENTAL_H
#define IMAGO_JPEG_INCREMENTAL_H
#include <stddef.h>
#include <stdint.h>
#include "imago_jpeg.h"

/// A JPEG decoded as its bytes arrive: libjpeg's buffered-image mode over a suspending source. The decoder
/// keeps one coefficient buffer (libjpeg's) and the bytes not consumed yet; each entropy-coded byte is decoded
/// once, and a preview is an output pass over the coefficients received so far. Every libjpeg warning is a
/// failure (files it warns about are for the one-shot decoder, which keeps the warnings).
typedef struct imago_jpeg_incremental imago_jpeg_incremental;

/// Where the decode stands.
typedef struct imago_jpeg_incremental_state {
    /// The markers up to the first scan have been read (`imago_jpeg_incremental_header` may be called).
    int header_ready;
    /// Decoding has started (`imago_jpeg_incremental_start` succeeded).
    int started;
    /// Scans received in full.
    int completed_scans;
    /// The end-of-image marker has been read.
    int input_complete;
} imago_jpeg_incremental_state;

/// A decoder; NULL when out of memory.
imago_jpeg_incremental *imago_jpeg_incremental_create(void);
/// Takes `size` more bytes (copied) and decodes as far as they allow; `end_of_data` says no more will come
/// (missing bytes then are a truncation error). Returns non-zero on failure, with the reason in the message.
int imago_jpeg_incremental_append(imago_jpeg_incremental *decoder, const uint8_t *data, size_t size,
                                  int end_of_data);
void imago_jpeg_incremental_get_state(const imago_jpeg_incremental *decoder, imago_jpeg_incremental_state *state);
/// What the header says (valid once `header_ready`); the EXIF pointer is owned by the decoder.
int imago_jpeg_incremental_header(imago_jpeg_incremental *decoder, imago_jpeg_header *header);
/// The embedded ICC profile (malloc'ed: free with `imago_shim_free`), NULL with size 0 when there is none; a
/// warning about inconsistent chunks is a failure.
int imago_jpeg_incremental_icc_profile(imago_jpeg_incremental *decoder, uint8_t **profile, unsigned int *size);
/// Starts buffered-image decoding at DCT scale `scale_eighths`/8 (with `fast`, the fast integer IDCT and plain
/// upsampling, as the one-shot decoder's thumbnail mode) with RGBA output and gives the output size; progressive
/// YCbCr/RGB/grey files only (the caller decodes others in one shot).
int imago_jpeg_incremental_start(imago_jpeg_incremental *decoder, unsigned scale_eighths, int fast,
                                 uint32_t *output_width, uint32_t *output_height);
/// An output pass as RGBA8 into rows `bytes_per_row` apart. A preview (`final` 0) shows every complete scan
/// (and whatever part of the next one has arrived) with the fast integer IDCT; the final pass (`final` 1, once
/// the input is complete) uses the parameters of a one-shot decode, so its pixels are identical to it.
int imago_jpeg_incremental_render(imago_jpeg_incremental *decoder, uint8_t *pixels, size_t bytes_per_row,
                                  int final);
/// The library's reason for the last failure.
const char *imago_jpeg_incremental_message(const imago_jpeg_incremental *decoder);
/// Frees the decoder, its coefficient buffer and its bytes.
void imago_jpeg_incremental_destroy(imago_jpeg_incremental *decoder);
/// Decoders alive in this process (for tests: cancellation must free them).
int imago_jpeg_incremental_live_count(void);

#endif
