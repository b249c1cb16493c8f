#include "imago_png.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <zlib.h>

struct imago_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int header_read;
    int trailer_broken;
    jmp_buf jump;
    char message[256];
    // Warnings (see "Warnings and ICC profiles" below).
    int strict;
    int warning_count;
    char warnings[IMAGO_PNG_MAX_WARNINGS][160];
};

static void decoder_error(png_structp png, png_const_charp text) {
    struct imago_png_decoder *decoder = png_get_error_ptr(png);
    snprintf(decoder->message, sizeof decoder->message, "%s", text ? text : "unknown libpng error");
    longjmp(decoder->jump, 1);
}

// Warnings (bad ancillary CRCs, an ICC profile libpng refuses, ...) leave the pixels intact: libpng goes on, and
// the decoder keeps them for the caller; strict mode makes them errors.
static void decoder_warning(png_structp png, png_const_charp text) {
    struct imago_png_decoder *decoder = png_get_error_ptr(png);
    if (!decoder || !text) return;
    if (decoder->strict) png_error(png, text);
    for (int i = 0; i < decoder->warning_count && i < IMAGO_PNG_MAX_WARNINGS; i++) {
        if (strcmp(decoder->warnings[i], text) == 0) return;
    }
    if (decoder->warning_count < IMAGO_PNG_MAX_WARNINGS) {
        snprintf(decoder->warnings[decoder->warning_count], sizeof decoder->warnings[0], "%s", text);
        decoder->warning_count++;
    }
}

static void encoder_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void decoder_read(png_structp png, png_bytep target, size_t length) {
    struct imago_png_decoder *decoder = png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) png_error(png, "unexpected end of data (truncated file)");
    memcpy(target, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

imago_png_decoder *imago_png_decoder_create(const uint8_t *data, size_t size) {
    struct imago_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, decoder_error, decoder_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        imago_png_decoder_destroy(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, decoder_read);
    // Ancillary chunks (text, ICC profiles) are capped, compressed or not; the image data is limited by the caller.
    png_set_chunk_malloc_max(decoder->png, 8 * 1024 * 1024);
    return decoder;
}

static uint32_t read_be32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/// Walks the chunk lengths before libpng sees them: libpng allocates a chunk's declared length before reading
/// it, so a 2 GB length in a 400-byte file would cost 2 GB. Every chunk up to the first IDAT must fit in the
/// data; a broken chunk after the image data only means the trailer is skipped.
static int check_chunk_lengths(struct imago_png_decoder *decoder) {
    size_t offset = 8;
    int seen_idat = 0;
    while (offset + 8 <= decoder->size) {
        uint32_t length = read_be32(decoder->data + offset);
        const uint8_t *type = decoder->data + offset + 4;
        if ((size_t)length > decoder->size - offset - 8 || decoder->size - offset - 8 - length < 4) {
            if (seen_idat) {
                decoder->trailer_broken = 1;
                return 0;
            }
            snprintf(decoder->message, sizeof decoder->message,
                     "truncated: a %.4s chunk declares %u bytes, %zu remain", (const char *)type, length,
                     decoder->size - offset - 8);
            return 1;
        }
        if (memcmp(type, "IDAT", 4) == 0) seen_idat = 1;
        if (memcmp(type, "IEND", 4) == 0) return 0;
        offset += (size_t)length + 12;
    }
    if (seen_idat) decoder->trailer_broken = 1;
    return 0;  // libpng reports the missing data itself
}

int imago_png_decoder_read_header(imago_png_decoder *decoder, imago_png_header *header) {
    if (decoder->size < 8 || png_sig_cmp(decoder->data, 0, 8) != 0) {
        snprintf(decoder->message, sizeof decoder->message, "not a PNG signature");
        return 1;
    }
    if (check_chunk_lengths(decoder) != 0) return 1;
    if (setjmp(decoder->jump)) return 1;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    png_read_info(png, info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    header->exif = NULL;
    header->exif_size = 0;
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_valid(png, info, PNG_INFO_eXIf) && png_get_eXIf_1(png, info, &exif_size, &exif) && exif) {
        header->exif = exif;
        header->exif_size = exif_size;
    }
    decoder->header_read = 1;
    return 0;
}

int imago_png_decoder_read_rgba(imago_png_decoder *decoder, uint8_t *pixels, size_t bytes_per_row) {
    if (!decoder->header_read) {
        snprintf(decoder->message, sizeof decoder->message, "header not read");
        return 1;
    }
    if (setjmp(decoder->jump)) return 1;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    png_uint_32 width = png_get_image_width(png, info);

    // High byte of 16-bit samples, as Pillow does (documented choice: v >> 8, not rounding).
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after RGBA transforms");

    // Row by row straight into the caller's buffer; each interlace pass fills in only its own pixels.
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, pixels + (size_t)y * bytes_per_row, NULL);
    }
    // What follows the image data (text, IEND) cannot change the pixels: a problem there is not a failure.
    if (decoder->trailer_broken || setjmp(decoder->jump)) return 0;
    png_read_end(png, NULL);
    return 0;
}

const char *imago_png_decoder_message(const imago_png_decoder *decoder) { return decoder->message; }

// MARK: Warnings and ICC profiles

void imago_png_decoder_set_strict(imago_png_decoder *decoder, int strict) { decoder->strict = strict; }

const char *imago_png_decoder_warning(const imago_png_decoder *decoder, int index) {
    if (index < 0 || index >= decoder->warning_count) return NULL;
    return decoder->warnings[index];
}

void imago_png_decoder_icc_profile(imago_png_decoder *decoder, const uint8_t **profile, size_t *size) {
    *profile = NULL;
    *size = 0;
    if (!decoder->header_read || !png_get_valid(decoder->png, decoder->info, PNG_INFO_iCCP)) return;
    png_charp name = NULL;
    int compression = 0;
    png_bytep data = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(decoder->png, decoder->info, &name, &compression, &data, &length) && data) {
        *profile = data;
        *size = length;
    }
}

void imago_png_decoder_destroy(imago_png_decoder *decoder) {
    if (!decoder) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder);
}

// MARK: Encoding

struct png_encoder {
    jmp_buf jump;
    char message[256];
    uint8_t *buffer;
    size_t size;
    size_t capacity;
    uint8_t *row;
};

static void encoder_error(png_structp png, png_const_charp text) {
    struct png_encoder *encoder = png_get_error_ptr(png);
    snprintf(encoder->message, sizeof encoder->message, "%s", text ? text : "unknown libpng error");
    longjmp(encoder->jump, 1);
}

static void encoder_write(png_structp png, png_bytep data, size_t length) {
    struct png_encoder *encoder = png_get_io_ptr(png);
    if (length > encoder->capacity - encoder->size) {
        size_t capacity = encoder->capacity ? encoder->capacity : 4096;
        while (length > capacity - encoder->size) capacity *= 2;
        uint8_t *grown = realloc(encoder->buffer, capacity);
        if (!grown) png_error(png, "out of memory");
        encoder->buffer = grown;
        encoder->capacity = capacity;
    }
    memcpy(encoder->buffer + encoder->size, data, length);
    encoder->size += length;
}

static void encoder_flush(png_structp png) { (void)png; }

int imago_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                     imago_png_layout layout, int compression_level, uint8_t **output, size_t *output_size,
                     char *message, size_t message_size) {
    return imago_png_encode_icc(pixels, width, height, bytes_per_row, layout, compression_level, 0, NULL, 0, output,
                                output_size, message, message_size);
}

int imago_png_encode_icc(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                         imago_png_layout layout, int compression_level, int run_length, const uint8_t *icc,
                         size_t icc_size, uint8_t **output, size_t *output_size, char *message, size_t message_size) {
    struct png_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) {
        snprintf(message, message_size, "out of memory");
        return 1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, encoder, encoder_error, encoder_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(encoder->jump)) {
        snprintf(message, message_size, "%s", png && info ? encoder->message : "out of memory");
        if (png) png_destroy_write_struct(&png, info ? &info : NULL);
        free(encoder->buffer);
        free(encoder->row);
        free(encoder);
        return 1;
    }
    png_set_write_fn(png, encoder, encoder_write, encoder_flush);
    static const int color_types[] = {PNG_COLOR_TYPE_RGBA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_GRAY,
                                      PNG_COLOR_TYPE_GRAY_ALPHA};
    png_set_IHDR(png, info, width, height, 8, color_types[layout], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, compression_level);
    if (run_length && compression_level > 0) {
        // Runs of repeated bytes only, after choosing each row's filter: on 512 px photos 4-5x less CPU than
        // level 6's string matching for 3-4 % more bytes (measured in Docs/Server.md).
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
        png_set_compression_strategy(png, Z_RLE);
    }
    if (icc && icc_size > 0) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_size);
    png_write_info(png, info);
    // RGB drops the filler (alpha) byte in libpng itself; grey rows are packed here from the red channel.
    if (layout == IMAGO_PNG_RGB) png_set_filler(png, 0, PNG_FILLER_AFTER);
    if (layout == IMAGO_PNG_GRAY || layout == IMAGO_PNG_GRAY_ALPHA) {
        encoder->row = malloc((size_t)width * 2);
        if (!encoder->row) png_error(png, "out of memory");
    }
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = pixels + (size_t)y * bytes_per_row;
        if (layout == IMAGO_PNG_GRAY) {
            for (uint32_t x = 0; x < width; x++) encoder->row[x] = source[x * 4];
            png_write_row(png, encoder->row);
        } else if (layout == IMAGO_PNG_GRAY_ALPHA) {
            for (uint32_t x = 0; x < width; x++) {
                encoder->row[x * 2] = source[x * 4];
                encoder->row[x * 2 + 1] = source[x * 4 + 3];
            }
            png_write_row(png, encoder->row);
        } else {
            png_write_row(png, (png_const_bytep)source);
        }
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *output = encoder->buffer;
    *output_size = encoder->size;
    free(encoder->row);
    free(encoder);
    return 0;
}
