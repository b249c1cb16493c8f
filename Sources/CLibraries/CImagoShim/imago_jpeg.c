#include "imago_jpeg.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct imago_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 32];
    const uint8_t *data;
    size_t size;
    int created;
    int header_read;
    int prepared;
    int cmyk;
    int adobe_inverted;
    unsigned scale_eighths;  // 1...8 from imago_jpeg_decoder_set_thumbnail_mode; 0 = the denominator given to prepare
    int fast;                // fast integer IDCT, plain upsampling
    // Leniency and colour (see "Warnings and ICC profiles" below).
    int strict;
    int finishing;
    int raw_cmyk;
    int warning_count;
    int stored_warnings;
    char warnings[IMAGO_JPEG_MAX_WARNINGS][JMSG_LENGTH_MAX];
};

static void decoder_error_exit(j_common_ptr cinfo) {
    struct imago_jpeg_decoder *decoder = cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, decoder->message);
    longjmp(decoder->jump, 1);
}

// Policy (as Pillow): libjpeg's warnings about corrupt entropy data (bad Huffman codes, a marker inside a data
// segment, lost restart markers, stray bytes) leave the picture as libjpeg reconstructs it, and are kept for the
// caller; data that runs out before the last row ("Premature end of JPEG file") is an error, since libjpeg would
// pad the rest with grey. Running out once every row is out (in jpeg_finish_decompress, looking for EOI) is a
// warning, as in Pillow; libjpeg reads ahead, so a file that lacks only its EOI marker usually runs out before
// the last row and fails, in Pillow too. Strict mode makes every warning an error.
static void record_warning(struct imago_jpeg_decoder *decoder, j_common_ptr cinfo) {
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    decoder->warning_count++;
    for (int i = 0; i < decoder->stored_warnings; i++) {
        if (strcmp(decoder->warnings[i], text) == 0) return;  // the same warning again: counted, not repeated
    }
    if (decoder->stored_warnings < IMAGO_JPEG_MAX_WARNINGS) {
        memcpy(decoder->warnings[decoder->stored_warnings++], text, sizeof text);
    }
}

static void decoder_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    struct imago_jpeg_decoder *decoder = cinfo->client_data;
    if (decoder->strict || (cinfo->err->msg_code == JWRN_JPEG_EOF && !decoder->finishing)) {
        decoder_error_exit(cinfo);
    }
    cinfo->err->num_warnings++;
    record_warning(decoder, cinfo);
}

static void decoder_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// Most scans a progressive file may have: each costs a pass over every coefficient, so thousands of tiny scans
/// in a small file would burn CPU for minutes (libjpeg-turbo 3 added the same guard to TurboJPEG).
enum { MAX_SCANS = 1000 };

static void decoder_progress(j_common_ptr common) {
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    if (cinfo->is_decompressor && cinfo->input_scan_number > MAX_SCANS) {
        struct imago_jpeg_decoder *decoder = common->client_data;
        snprintf(decoder->message, sizeof decoder->message, "more than %d scans", MAX_SCANS);
        longjmp(decoder->jump, 1);
    }
}

imago_jpeg_decoder *imago_jpeg_decoder_create(const uint8_t *data, size_t size) {
    struct imago_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->cinfo.err = jpeg_std_error(&decoder->error);
    decoder->error.error_exit = decoder_error_exit;
    decoder->error.emit_message = decoder_emit_message;
    decoder->error.output_message = decoder_output_message;
    decoder->cinfo.client_data = decoder;
    if (setjmp(decoder->jump)) {
        imago_jpeg_decoder_destroy(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = decoder_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

static imago_jpeg_color color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return IMAGO_JPEG_GRAY;
    case JCS_RGB:
    case JCS_YCbCr: return IMAGO_JPEG_RGB;
    case JCS_CMYK:
    case JCS_YCCK: return IMAGO_JPEG_CMYK;
    default: return IMAGO_JPEG_OTHER;
    }
}

int imago_jpeg_decoder_read_header(imago_jpeg_decoder *decoder, imago_jpeg_header *header) {
    if (decoder->size < 3 || decoder->data[0] != 0xFF || decoder->data[1] != 0xD8 || decoder->data[2] != 0xFF) {
        snprintf(decoder->message, sizeof decoder->message, "not a JPEG signature");
        return 1;
    }
    if (setjmp(decoder->jump)) return 1;
    j_decompress_ptr cinfo = &decoder->cinfo;
    jpeg_mem_src(cinfo, decoder->data, (unsigned long)decoder->size);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);  // ICC_PROFILE chunks, for imago_jpeg_decoder_icc_profile
    jpeg_read_header(cinfo, TRUE);
    memset(header, 0, sizeof *header);
    header->width = cinfo->image_width;
    header->height = cinfo->image_height;
    header->components = cinfo->num_components;
    header->color = color_of(cinfo->jpeg_color_space);
    header->progressive = cinfo->progressive_mode;
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            header->exif = marker->data + 6;
            header->exif_size = marker->data_length - 6;
            break;
        }
    }
    decoder->cmyk = header->color == IMAGO_JPEG_CMYK;
    // Photoshop (Adobe APP14) writes CMYK inverted; Pillow and browsers read it so.
    decoder->adobe_inverted = decoder->cmyk && cinfo->saw_Adobe_marker;
    decoder->header_read = 1;
    return 0;
}

int imago_jpeg_decoder_prepare(imago_jpeg_decoder *decoder, int scale_denominator, uint32_t *output_width,
                               uint32_t *output_height) {
    if (!decoder->header_read) {
        snprintf(decoder->message, sizeof decoder->message, "header not read");
        return 1;
    }
    if (setjmp(decoder->jump)) return 1;
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (cinfo->jpeg_color_space == JCS_UNKNOWN || color_of(cinfo->jpeg_color_space) == IMAGO_JPEG_OTHER) {
        snprintf(decoder->message, sizeof decoder->message, "unsupported JPEG color space (%d components)",
                 cinfo->num_components);
        return 1;
    }
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)(scale_denominator > 0 ? scale_denominator : 1);
    if (decoder->scale_eighths) {
        cinfo->scale_num = decoder->scale_eighths;
        cinfo->scale_denom = 8;
    }
    if (decoder->fast) {
        // What Pillow's draft mode does: the output is shrunk further, which hides both differences.
        cinfo->dct_method = JDCT_IFAST;
        cinfo->do_fancy_upsampling = FALSE;
    }
    // libjpeg-turbo writes RGBA itself (grey and YCbCr alike); CMYK comes out as 4 bytes a pixel, converted below.
    cinfo->out_color_space = decoder->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(cinfo);
    *output_width = cinfo->output_width;
    *output_height = cinfo->output_height;
    decoder->prepared = 1;
    return 0;
}

/// (a * b) / 255, rounded as Pillow's MULDIV255 does.
static inline int muldiv255(int a, int b) {
    int t = a * b + 128;
    return ((t >> 8) + t) >> 8;
}

/// CMYK (inverted when `inverted`) to RGBA in place, with Pillow's formula.
static void cmyk_to_rgba(uint8_t *row, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++, row += 4) {
        int c = inverted ? 255 - row[0] : row[0];
        int m = inverted ? 255 - row[1] : row[1];
        int y = inverted ? 255 - row[2] : row[2];
        int k = inverted ? 255 - row[3] : row[3];
        int nk = 255 - k;
        int r = nk - muldiv255(c, nk), g = nk - muldiv255(m, nk), b = nk - muldiv255(y, nk);
        row[0] = (uint8_t)(r < 0 ? 0 : r);
        row[1] = (uint8_t)(g < 0 ? 0 : g);
        row[2] = (uint8_t)(b < 0 ? 0 : b);
        row[3] = 255;
    }
}

int imago_jpeg_decoder_read_rgba(imago_jpeg_decoder *decoder, uint8_t *pixels, size_t bytes_per_row) {
    if (!decoder->prepared) {
        snprintf(decoder->message, sizeof decoder->message, "decoder not prepared");
        return 1;
    }
    if (setjmp(decoder->jump)) return 1;
    j_decompress_ptr cinfo = &decoder->cinfo;
    jpeg_start_decompress(cinfo);
    if (cinfo->output_components != 4) {
        snprintf(decoder->message, sizeof decoder->message, "unexpected %d output components", cinfo->output_components);
        return 1;
    }
    // Scanlines land in the caller's buffer directly; a few rows at a time lets libjpeg skip its own copies.
    JSAMPROW rows[16];
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * bytes_per_row;
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, count);
        if (read == 0) {
            snprintf(decoder->message, sizeof decoder->message, "no scanlines decoded");
            return 1;
        }
        if (decoder->cmyk && !decoder->raw_cmyk) {
            for (JDIMENSION i = 0; i < read; i++) cmyk_to_rgba(rows[i], cinfo->output_width, decoder->adobe_inverted);
        }
    }
    decoder->finishing = 1;
    jpeg_finish_decompress(cinfo);
    return 0;
}

void imago_jpeg_decoder_set_thumbnail_mode(imago_jpeg_decoder *decoder, unsigned scale_eighths, int fast) {
    decoder->scale_eighths = scale_eighths > 8 ? 8 : scale_eighths;
    decoder->fast = fast;
}

const char *imago_jpeg_decoder_message(const imago_jpeg_decoder *decoder) { return decoder->message; }

void imago_jpeg_decoder_destroy(imago_jpeg_decoder *decoder) {
    if (!decoder) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

// MARK: Warnings and ICC profiles

void imago_jpeg_decoder_set_strict(imago_jpeg_decoder *decoder, int strict) { decoder->strict = strict; }

int imago_jpeg_decoder_warning_count(const imago_jpeg_decoder *decoder) { return decoder->warning_count; }

const char *imago_jpeg_decoder_warning(const imago_jpeg_decoder *decoder, int index) {
    if (index < 0 || index >= decoder->stored_warnings) return NULL;
    return decoder->warnings[index];
}

int imago_jpeg_decoder_icc_profile(imago_jpeg_decoder *decoder, uint8_t **profile, unsigned int *size) {
    *profile = NULL;
    *size = 0;
    if (!decoder->header_read) return 0;
    if (setjmp(decoder->jump)) return 1;
    // libjpeg-turbo reassembles the APP2 chunks by their sequence numbers and checks that none is missing.
    JOCTET *data = NULL;
    unsigned int length = 0;
    if (jpeg_read_icc_profile(&decoder->cinfo, &data, &length)) {
        *profile = data;
        *size = length;
    }
    return 0;
}

int imago_jpeg_decoder_cmyk_inverted(const imago_jpeg_decoder *decoder) { return decoder->adobe_inverted; }

void imago_jpeg_decoder_keep_cmyk(imago_jpeg_decoder *decoder, int keep) { decoder->raw_cmyk = keep; }

// MARK: Encoding

struct jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr error;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 32];
    unsigned char *buffer;
    unsigned long size;
};

static void encoder_error_exit(j_common_ptr cinfo) {
    struct jpeg_encoder *encoder = cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, encoder->message);
    longjmp(encoder->jump, 1);
}

int imago_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int quality,
                      uint8_t **output, size_t *output_size, char *message, size_t message_size) {
    return imago_jpeg_encode_icc(pixels, width, height, bytes_per_row, quality, 0, NULL, 0, output, output_size,
                                 message, message_size);
}

int imago_jpeg_encode_icc(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int quality,
                          int grayscale, const uint8_t *icc, size_t icc_size, uint8_t **output, size_t *output_size,
                          char *message, size_t message_size) {
    struct jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) {
        snprintf(message, message_size, "out of memory");
        return 1;
    }
    encoder->cinfo.err = jpeg_std_error(&encoder->error);
    encoder->error.error_exit = encoder_error_exit;
    encoder->error.output_message = decoder_output_message;
    encoder->cinfo.client_data = encoder;
    if (setjmp(encoder->jump)) {
        snprintf(message, message_size, "%s", encoder->message);
        jpeg_destroy_compress(&encoder->cinfo);
        free(encoder->buffer);
        free(encoder);
        return 1;
    }
    jpeg_create_compress(&encoder->cinfo);
    j_compress_ptr cinfo = &encoder->cinfo;
    jpeg_mem_dest(cinfo, &encoder->buffer, &encoder->size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(cinfo);
    // libjpeg-turbo converts RGBA input to luma itself; its weights sum to exactly 1, so grey stays exact.
    if (grayscale) jpeg_set_colorspace(cinfo, JCS_GRAYSCALE);
    jpeg_set_quality(cinfo, quality, TRUE);
    // Huffman tables fitted to the image (one more pass over the coefficients): 3-4 % smaller at 512 px for a few
    // percent of the encode, as imgproxy writes.
    cinfo->optimize_coding = TRUE;
    jpeg_start_compress(cinfo, TRUE);
    // libjpeg-turbo splits the profile into numbered APP2 ICC_PROFILE chunks.
    if (icc && icc_size > 0) jpeg_write_icc_profile(cinfo, icc, (unsigned int)icc_size);
    JSAMPROW rows[16];
    while (cinfo->next_scanline < height) {
        JDIMENSION first = cinfo->next_scanline;
        JDIMENSION count = height - first;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = (JSAMPROW)(pixels + (size_t)(first + i) * bytes_per_row);
        jpeg_write_scanlines(cinfo, rows, count);
    }
    jpeg_finish_compress(cinfo);
    *output = encoder->buffer;
    *output_size = encoder->size;
    jpeg_destroy_compress(cinfo);
    free(encoder);
    return 0;
}
