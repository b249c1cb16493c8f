#include "imago_png_incremental.h"
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

enum { PASSES = 7 };

struct imago_png_incremental {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    char message[256];
    uint64_t max_pixels;
    int keep_plain;
    int header_ready;
    int interlaced;
    int stopped;
    int failed;
    int limit_exceeded;
    uint32_t width;
    uint32_t height;
    int has_alpha;
    int bit_depth;
    int color_type;
    const uint8_t *exif;
    size_t exif_size;
    /// The image, every pass combined into it (calloc'ed: pixels no pass has given yet are zero).
    uint8_t *pixels;
    /// Row callbacks per pass: with libpng's interlace handling every pass it enters calls back once per image
    /// row (NULL for rows without data of that pass), so a pass is complete after `height` of them.
    uint32_t rows_seen[PASSES];
    /// Passes libpng skips for narrow images (no column of them exists).
    int pass_empty[PASSES];
    int ended;
    int image_data_warning;
    int warnings;
    const uint8_t *icc;
    size_t icc_size;
};

static atomic_int live_decoders;

static void on_error(png_structp png, png_const_charp text) {
    struct imago_png_incremental *decoder = png_get_error_ptr(png);
    snprintf(decoder->message, sizeof decoder->message, "%s", text ? text : "unknown libpng error");
    longjmp(decoder->jump, 1);
}

enum { IDAT = 0x49444154 };

// Warnings (bad ancillary CRCs, known-incorrect sRGB profiles, ...) leave the pixels intact, as in imago_png.c.
// But the progressive reader only warns about a bad zlib stream after the last row ("Truncated compressed data
// in IDAT"), where the one-shot reader fails: a warning inside the image data refuses the image (the loader
// then decodes it in one shot, which has the final word).
static void on_warning(png_structp png, png_const_charp text) {
    (void)text;
    struct imago_png_incremental *decoder = png_get_error_ptr(png);
    decoder->warnings++;
    if (png_get_io_chunk_type(png) == IDAT) decoder->image_data_warning = 1;
}

/// Stops processing for good without an error (a non-interlaced image when the caller wants previews only).
static void stop(struct imago_png_incremental *decoder) {
    decoder->stopped = 1;
    longjmp(decoder->jump, 2);
}

/// At the first IDAT: the same transforms as the one-shot decoder (imago_png.c), so the pixels are the same.
static void on_info(png_structp png, png_infop info) {
    struct imago_png_incremental *decoder = png_get_progressive_ptr(png);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    decoder->width = width;
    decoder->height = height;
    decoder->bit_depth = bit_depth;
    decoder->color_type = color_type;
    decoder->interlaced = interlace != PNG_INTERLACE_NONE;
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    decoder->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_valid(png, info, PNG_INFO_eXIf) && png_get_eXIf_1(png, info, &exif_size, &exif) && exif) {
        decoder->exif = exif;
        decoder->exif_size = exif_size;
    }
    png_charp icc_name = NULL;
    int icc_compression = 0;
    png_bytep icc = NULL;
    png_uint_32 icc_size = 0;
    if (png_get_valid(png, info, PNG_INFO_iCCP) &&
        png_get_iCCP(png, info, &icc_name, &icc_compression, &icc, &icc_size) && icc) {
        decoder->icc = icc;
        decoder->icc_size = icc_size;
    }
    decoder->header_ready = 1;
    if ((uint64_t)width * height > decoder->max_pixels) {
        decoder->limit_exceeded = 1;
        png_error(png, "image too large");
    }
    if (!decoder->interlaced && !decoder->keep_plain) stop(decoder);

    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after RGBA transforms");

    for (int pass = 0; pass < PASSES; pass++) {
        decoder->pass_empty[pass] = decoder->interlaced ? PNG_PASS_COLS(width, pass) == 0 : pass > 0;
    }
    decoder->pixels = calloc((size_t)height, (size_t)width * 4);
    if (!decoder->pixels) png_error(png, "out of memory");
}

static void on_row(png_structp png, png_bytep row, png_uint_32 row_number, int pass) {
    struct imago_png_incremental *decoder = png_get_progressive_ptr(png);
    if (row_number >= decoder->height || pass < 0 || pass >= PASSES) return;
    decoder->rows_seen[pass]++;
    // With interlace handling libpng widens each pass's pixels into blocks, and combining them "blocky" fills
    // the pixels later passes will refine: the buffer is a complete picture after the first pass.
    if (row) png_progressive_combine_row(png, decoder->pixels + (size_t)row_number * decoder->width * 4, row);
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    struct imago_png_incremental *decoder = png_get_progressive_ptr(png);
    decoder->ended = 1;
}

imago_png_incremental *imago_png_incremental_create(uint64_t max_pixels, int keep_plain) {
    struct imago_png_incremental *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    atomic_fetch_add(&live_decoders, 1);
    decoder->max_pixels = max_pixels;
    decoder->keep_plain = keep_plain;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, on_error, on_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        imago_png_incremental_destroy(decoder);
        return NULL;
    }
    // Ancillary chunks are capped as in the one-shot decoder.
    png_set_chunk_malloc_max(decoder->png, 8 * 1024 * 1024);
    png_set_progressive_read_fn(decoder->png, decoder, on_info, on_row, on_end);
    return decoder;
}

static int completed_passes(const struct imago_png_incremental *decoder) {
    if (!decoder->pixels) return 0;
    int passes = 0;
    while (passes < PASSES && (decoder->pass_empty[passes] || decoder->rows_seen[passes] >= decoder->height)) passes++;
    return passes;
}

static int rows_complete(const struct imago_png_incremental *decoder) { return completed_passes(decoder) == PASSES; }

int imago_png_incremental_append(imago_png_incremental *decoder, const uint8_t *data, size_t size) {
    if (decoder->failed) return 1;
    if (decoder->stopped || decoder->ended) return 0;
    int jumped = setjmp(decoder->jump);
    if (jumped == 2) return 0;
    if (jumped) {
        // What follows the image data (text, IEND) cannot change the pixels: as in the one-shot decoder, an
        // error there is not a failure. An error inside IDAT (a bad zlib checksum, missing data) is.
        if (rows_complete(decoder) && png_get_io_chunk_type(decoder->png) != IDAT) {
            decoder->ended = 1;
            return 0;
        }
        decoder->failed = 1;  // libpng's state is not usable after an error
        return 1;
    }
    png_process_data(decoder->png, decoder->info, (png_bytep)data, size);
    return 0;
}

void imago_png_incremental_get_state(const imago_png_incremental *decoder, imago_png_incremental_state *state) {
    state->header_ready = decoder->header_ready;
    state->interlaced = decoder->interlaced;
    int passes = completed_passes(decoder);
    // Complete once the image data has ended (IEND, or a chunk after it): every row alone is not enough, since
    // the zlib checksum that follows the last row may still fail.
    state->image_complete = passes == PASSES && decoder->ended && !decoder->image_data_warning;
    state->completed_passes = decoder->interlaced ? passes : passes == PASSES;
    state->limit_exceeded = decoder->limit_exceeded;
    state->damaged = decoder->image_data_warning;
    state->warnings = decoder->warnings;
}

int imago_png_incremental_header(const imago_png_incremental *decoder, imago_png_header *header) {
    memset(header, 0, sizeof *header);
    if (!decoder->header_ready) return 1;
    header->width = decoder->width;
    header->height = decoder->height;
    header->bit_depth = decoder->bit_depth;
    header->color_type = decoder->color_type;
    header->interlaced = decoder->interlaced;
    header->has_alpha = decoder->has_alpha;
    header->exif = decoder->exif;
    header->exif_size = decoder->exif_size;
    return 0;
}

void imago_png_incremental_icc_profile(const imago_png_incremental *decoder, const uint8_t **profile, size_t *size) {
    *profile = decoder->icc;
    *size = decoder->icc_size;
}

int imago_png_incremental_render(const imago_png_incremental *decoder, uint8_t *pixels, size_t bytes_per_row) {
    if (completed_passes(decoder) == 0) return 1;
    size_t source_row = (size_t)decoder->width * 4;
    for (uint32_t y = 0; y < decoder->height; y++)
        memcpy(pixels + y * bytes_per_row, decoder->pixels + y * source_row, source_row);
    return 0;
}

const char *imago_png_incremental_message(const imago_png_incremental *decoder) { return decoder->message; }

void imago_png_incremental_destroy(imago_png_incremental *decoder) {
    if (!decoder) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder->pixels);
    free(decoder);
    atomic_fetch_sub(&live_decoders, 1);
}

int imago_png_incremental_live_count(void) { return atomic_load(&live_decoders); }
