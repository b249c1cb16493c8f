#include "imago_jpeg_incremental.h"
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

/// The bytes received and not yet consumed by libjpeg. libjpeg backs up to the start of an unfinished MCU or
/// marker when it suspends, so what it has not consumed must be kept for the next call.
struct suspending_source {
    struct jpeg_source_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    /// Bytes libjpeg asked to skip beyond what had arrived (a marker longer than the data so far).
    size_t pending_skip;
    int end_of_data;
};

struct imago_jpeg_incremental {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error;
    struct jpeg_progress_mgr progress;
    struct suspending_source source;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 32];
    int created;
    int failed;
    int signature_checked;
    int header_ready;
    int started;
    int input_complete;
    int completed_scans;
    J_DCT_METHOD one_shot_dct;
};

static atomic_int live_decoders;

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean source_fill(j_decompress_ptr cinfo) {
    struct suspending_source *source = (struct suspending_source *)cinfo->src;
    if (!source->end_of_data) return FALSE;  // suspend: more bytes will come
    // The bytes ended inside the image: the same warning (a failure under the codec's policy) as jpeg_mem_src.
    WARNMS(cinfo, JWRN_JPEG_EOF);
    source->pub.next_input_byte = fake_eoi;
    source->pub.bytes_in_buffer = 2;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
    struct suspending_source *source = (struct suspending_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= source->pub.bytes_in_buffer) {
        source->pub.next_input_byte += count;
        source->pub.bytes_in_buffer -= (size_t)count;
    } else {
        source->pending_skip += (size_t)count - source->pub.bytes_in_buffer;
        source->pub.next_input_byte += source->pub.bytes_in_buffer;
        source->pub.bytes_in_buffer = 0;
    }
}

/// Keeps the unconsumed bytes, drops any pending skip from the new ones, and appends the rest.
static int source_append(struct suspending_source *source, const uint8_t *data, size_t size) {
    if (source->pending_skip > 0) {
        size_t skipped = size < source->pending_skip ? size : source->pending_skip;
        source->pending_skip -= skipped;
        data += skipped;
        size -= skipped;
    }
    size_t kept = source->pub.bytes_in_buffer;
    if (source->pub.next_input_byte == fake_eoi) kept = 0;
    if (kept + size > source->capacity) {
        size_t capacity = source->capacity ? source->capacity : 64 * 1024;
        while (capacity < kept + size) capacity *= 2;
        uint8_t *grown = malloc(capacity);
        if (!grown) return 1;
        if (kept) memcpy(grown, source->pub.next_input_byte, kept);
        free(source->buffer);
        source->buffer = grown;
        source->capacity = capacity;
    } else if (kept && source->pub.next_input_byte != source->buffer) {
        memmove(source->buffer, source->pub.next_input_byte, kept);
    }
    if (size) memcpy(source->buffer + kept, data, size);
    source->pub.next_input_byte = source->buffer;
    source->pub.bytes_in_buffer = kept + size;
    return 0;
}

static void fail(j_common_ptr cinfo) {
    struct imago_jpeg_incremental *decoder = cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, decoder->message);
    longjmp(decoder->jump, 1);
}

// Every warning is a failure here (the one-shot decoder's strict mode): a file libjpeg warns about is decoded
// in one shot by the loader, which keeps the warnings and has the final word on such files.
static void emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    fail(cinfo);
}

static void output_message(j_common_ptr cinfo) { (void)cinfo; }

/// As in the one-shot decoder: each scan costs a pass over every coefficient, so thousands of tiny scans would
/// burn CPU for minutes.
enum { MAX_SCANS = 1000 };

static void progress_monitor(j_common_ptr common) {
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    if (cinfo->input_scan_number > MAX_SCANS) {
        struct imago_jpeg_incremental *decoder = common->client_data;
        snprintf(decoder->message, sizeof decoder->message, "more than %d scans", MAX_SCANS);
        longjmp(decoder->jump, 1);
    }
}

imago_jpeg_incremental *imago_jpeg_incremental_create(void) {
    struct imago_jpeg_incremental *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    atomic_fetch_add(&live_decoders, 1);
    decoder->cinfo.err = jpeg_std_error(&decoder->error);
    decoder->error.error_exit = fail;
    decoder->error.emit_message = emit_message;
    decoder->error.output_message = output_message;
    decoder->cinfo.client_data = decoder;
    if (setjmp(decoder->jump)) {
        imago_jpeg_incremental_destroy(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = progress_monitor;
    decoder->cinfo.progress = &decoder->progress;
    struct suspending_source *source = &decoder->source;
    source->pub.init_source = source_init;
    source->pub.fill_input_buffer = source_fill;
    source->pub.skip_input_data = source_skip;
    source->pub.resync_to_restart = jpeg_resync_to_restart;
    source->pub.term_source = source_term;
    decoder->cinfo.src = &source->pub;
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);  // ICC_PROFILE chunks
    return decoder;
}

/// Consumes what has arrived: scans are counted as they complete.
static void consume(struct imago_jpeg_incremental *decoder) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    while (!decoder->input_complete) {
        int result = jpeg_consume_input(cinfo);
        if (result == JPEG_SUSPENDED) return;
        if (result == JPEG_REACHED_EOI) {
            decoder->input_complete = 1;
            decoder->completed_scans = cinfo->input_scan_number;
        } else if (result == JPEG_REACHED_SOS) {
            // The start of scan N means scan N - 1 is complete.
            decoder->completed_scans = cinfo->input_scan_number - 1;
        }
    }
}

int imago_jpeg_incremental_append(imago_jpeg_incremental *decoder, const uint8_t *data, size_t size,
                                  int end_of_data) {
    if (decoder->failed) return 1;
    if (source_append(&decoder->source, data, size) != 0) {
        snprintf(decoder->message, sizeof decoder->message, "out of memory");
        return 1;
    }
    if (end_of_data) decoder->source.end_of_data = 1;
    if (setjmp(decoder->jump)) {
        decoder->failed = 1;  // libjpeg's state is not usable after an error
        return 1;
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (!decoder->header_ready) {
        if (!decoder->signature_checked && (decoder->source.pub.bytes_in_buffer >= 3 || end_of_data)) {
            const uint8_t *bytes = decoder->source.pub.next_input_byte;
            size_t count = decoder->source.pub.bytes_in_buffer;
            if (count < 3 || bytes[0] != 0xFF || bytes[1] != 0xD8 || bytes[2] != 0xFF) {
                snprintf(decoder->message, sizeof decoder->message, "not a JPEG signature");
                return 1;
            }
            decoder->signature_checked = 1;
        }
        if (!decoder->signature_checked) return 0;
        if (jpeg_read_header(cinfo, TRUE) == JPEG_SUSPENDED) return 0;
        decoder->header_ready = 1;
        decoder->one_shot_dct = cinfo->dct_method;
        return 0;
    }
    if (decoder->started) consume(decoder);
    return 0;
}

void imago_jpeg_incremental_get_state(const imago_jpeg_incremental *decoder, imago_jpeg_incremental_state *state) {
    state->header_ready = decoder->header_ready;
    state->started = decoder->started;
    state->completed_scans = decoder->completed_scans;
    state->input_complete = decoder->input_complete;
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

int imago_jpeg_incremental_header(imago_jpeg_incremental *decoder, imago_jpeg_header *header) {
    if (!decoder->header_ready) {
        snprintf(decoder->message, sizeof decoder->message, "header not read");
        return 1;
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
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
    return 0;
}

int imago_jpeg_incremental_icc_profile(imago_jpeg_incremental *decoder, uint8_t **profile, unsigned int *size) {
    *profile = NULL;
    *size = 0;
    if (!decoder->header_ready || decoder->failed) return 1;
    if (setjmp(decoder->jump)) {
        decoder->failed = 1;
        return 1;
    }
    JOCTET *data = NULL;
    unsigned int length = 0;
    if (jpeg_read_icc_profile(&decoder->cinfo, &data, &length)) {
        *profile = data;
        *size = length;
    }
    return 0;
}

int imago_jpeg_incremental_start(imago_jpeg_incremental *decoder, unsigned scale_eighths, int fast,
                                 uint32_t *output_width, uint32_t *output_height) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (!decoder->header_ready || decoder->started) {
        snprintf(decoder->message, sizeof decoder->message, "decoder not ready to start");
        return 1;
    }
    imago_jpeg_color color = color_of(cinfo->jpeg_color_space);
    if (!cinfo->progressive_mode || color == IMAGO_JPEG_CMYK || color == IMAGO_JPEG_OTHER) {
        snprintf(decoder->message, sizeof decoder->message, "only progressive grey and colour JPEGs");
        return 1;
    }
    if (setjmp(decoder->jump)) {
        decoder->failed = 1;
        return 1;
    }
    cinfo->buffered_image = TRUE;
    // The one-shot decoder's parameters (imago_jpeg_decoder_prepare with thumbnail mode), so the final pass gives
    // the same pixels: the same M/8 scale, and in fast mode its IDCT and plain upsampling.
    cinfo->scale_num = scale_eighths >= 1 && scale_eighths <= 8 ? scale_eighths : 8;
    cinfo->scale_denom = 8;
    if (fast) {
        cinfo->dct_method = JDCT_IFAST;
        cinfo->do_fancy_upsampling = FALSE;
        decoder->one_shot_dct = JDCT_IFAST;
    }
    cinfo->out_color_space = JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(cinfo);
    if (cinfo->output_components != 4) {
        snprintf(decoder->message, sizeof decoder->message, "unexpected %d output components",
                 cinfo->output_components);
        return 1;
    }
    // In buffered-image mode this allocates the coefficient buffer and reads no input.
    jpeg_start_decompress(cinfo);
    *output_width = cinfo->output_width;
    *output_height = cinfo->output_height;
    decoder->started = 1;
    consume(decoder);
    return 0;
}

int imago_jpeg_incremental_render(imago_jpeg_incremental *decoder, uint8_t *pixels, size_t bytes_per_row,
                                  int final) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (decoder->failed || !decoder->started || (final && !decoder->input_complete) ||
        (!final && decoder->completed_scans < 1)) {
        snprintf(decoder->message, sizeof decoder->message, "nothing to render yet");
        return 1;
    }
    if (setjmp(decoder->jump)) {
        decoder->failed = 1;
        return 1;
    }
    // A scan number below the one being read turns off the input/output interlock: the pass shows what the
    // buffer holds and never waits for (or reads) input.
    int scan = decoder->input_complete ? cinfo->input_scan_number : decoder->completed_scans;
    cinfo->dct_method = final ? decoder->one_shot_dct : JDCT_IFAST;
    jpeg_start_output(cinfo, scan);
    JSAMPROW rows[16];
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * bytes_per_row;
        if (jpeg_read_scanlines(cinfo, rows, count) == 0) {
            snprintf(decoder->message, sizeof decoder->message, "output pass stalled");
            return 1;
        }
    }
    if (!jpeg_finish_output(cinfo)) {
        snprintf(decoder->message, sizeof decoder->message, "output pass stalled");
        return 1;
    }
    if (final) jpeg_finish_decompress(cinfo);
    return 0;
}

const char *imago_jpeg_incremental_message(const imago_jpeg_incremental *decoder) { return decoder->message; }

void imago_jpeg_incremental_destroy(imago_jpeg_incremental *decoder) {
    if (!decoder) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->source.buffer);
    free(decoder);
    atomic_fetch_sub(&live_decoders, 1);
}

int imago_jpeg_incremental_live_count(void) { return atomic_load(&live_decoders); }
