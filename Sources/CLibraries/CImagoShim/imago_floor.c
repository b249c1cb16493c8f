// The serve path's floor for imago-bench (issue 28): libjpeg-turbo called directly (libpng: imago_floor_png.c), with
// a minimal SSE2 Catmull-Rom resize between decode and encode. See include/imago_floor.h.
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emmintrin.h>
#include <jpeglib.h>

#include "imago_floor_internal.h"

imago_floor *imago_floor_create(void) { return calloc(1, sizeof(imago_floor)); }

void imago_floor_destroy(imago_floor *floor) {
    if (!floor) return;
    free(floor->decoded);
    free(floor->output);
    free(floor->encoded);
    free(floor);
}

const uint8_t *imago_floor_pixels(const imago_floor *floor) { return floor->output; }

// MARK: Resize (separable Catmull-Rom widened by the scale, as Pillow's bicubic; one 4-float vector a pixel)

static double cubic(double x) {
    x = fabs(x);
    if (x < 1) return (1.5 * x - 2.5) * x * x + 1;
    if (x < 2) return ((-0.5 * x + 2.5) * x - 4) * x + 2;
    return 0;
}

/// Weights of one axis: output i reads `taps` source pixels from `starts[i]` (runs padded with zero weights, kept
/// inside the source). Returns NULL when out of memory.
static float *weights(uint32_t in_size, uint32_t out_size, int **starts_out, int *taps_out) {
    double scale = (double)in_size / out_size;
    double filter_scale = scale < 1 ? 1 : scale;
    double support = 2 * filter_scale;
    int taps = (int)ceil(support) * 2 + 1;
    if (taps > (int)in_size) taps = (int)in_size;
    float *k = calloc((size_t)out_size * taps, sizeof(float));
    int *starts = malloc((size_t)out_size * sizeof(int));
    if (!k || !starts) {
        free(k);
        free(starts);
        return NULL;
    }
    for (uint32_t i = 0; i < out_size; i++) {
        double center = (i + 0.5) * scale;
        int first = (int)(center - support + 0.5);
        if (first < 0) first = 0;
        int last = (int)(center + support + 0.5);
        if (last > (int)in_size) last = (int)in_size;
        if (last - first > taps) last = first + taps;
        int start = first + taps > (int)in_size ? (int)in_size - taps : first;
        double total = 0;
        for (int j = first; j < last; j++) total += cubic((j - center + 0.5) / filter_scale);
        for (int j = first; j < last; j++)
            k[(size_t)i * taps + (j - start)] = (float)(cubic((j - center + 0.5) / filter_scale) / total);
        starts[i] = start;
    }
    *starts_out = starts;
    *taps_out = taps;
    return k;
}

static inline __m128 load_pixel(const uint8_t *p) {
    uint32_t word;
    memcpy(&word, p, 4);
    __m128i zero = _mm_setzero_si128();
    __m128i lanes = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)word), zero), zero);
    return _mm_cvtepi32_ps(lanes);
}

/// Rounds to nearest and saturates to 0...255.
static inline void store_pixel(__m128 v, uint8_t *p) {
    __m128i lanes = _mm_cvtps_epi32(v);
    lanes = _mm_packus_epi16(_mm_packs_epi32(lanes, lanes), lanes);
    uint32_t word = (uint32_t)_mm_cvtsi128_si32(lanes);
    memcpy(p, &word, 4);
}

int imago_floor_resize(imago_floor *floor, const uint8_t *pixels, uint32_t width, uint32_t height,
                       size_t bytes_per_row, uint32_t output_width, uint32_t output_height) {
    (void)height;
    int *xs = NULL, *ys = NULL;
    int xtaps = 0, ytaps = 0;
    float *xk = weights(width, output_width, &xs, &xtaps);
    float *yk = weights(height, output_height, &ys, &ytaps);
    size_t row_bytes = (size_t)output_width * 4;
    // Horizontally resampled source rows, as floats, in a ring of `ytaps` rows (row r in slot r % ytaps).
    __m128 *ring = malloc((size_t)ytaps * output_width * sizeof(__m128));
    int *holds = malloc((size_t)ytaps * sizeof(int));
    // One source row as floats, converted once; the horizontal weights broadcast to four lanes.
    __m128 *source = malloc((size_t)(width > output_width ? width : output_width) * sizeof(__m128));
    __m128 *lanes = xk ? malloc((size_t)output_width * xtaps * sizeof(__m128)) : NULL;
    if (!xk || !yk || !ring || !holds || !source || !lanes ||
        imago_floor_reserve(&floor->output, &floor->output_capacity, row_bytes * output_height)) {
        free(xk), free(yk), free(xs), free(ys), free(ring), free(holds), free(source), free(lanes);
        return 1;
    }
    for (size_t i = 0; i < (size_t)output_width * xtaps; i++) lanes[i] = _mm_set1_ps(xk[i]);
    for (int i = 0; i < ytaps; i++) holds[i] = -1;
    for (uint32_t y = 0; y < output_height; y++) {
        for (int j = 0; j < ytaps; j++) {
            int row = ys[y] + j, slot = row % ytaps;
            if (holds[slot] == row) continue;
            holds[slot] = row;
            const uint8_t *in = pixels + (size_t)row * bytes_per_row;
            for (uint32_t x = 0; x < width; x++) source[x] = load_pixel(in + (size_t)x * 4);
            __m128 *line = ring + (size_t)slot * output_width;
            for (uint32_t x = 0; x < output_width; x++) {
                const __m128 *k = lanes + (size_t)x * xtaps;
                const __m128 *p = source + xs[x];
                __m128 even = _mm_setzero_ps(), odd = _mm_setzero_ps();
                int t = 0;
                for (; t + 2 <= xtaps; t += 2) {
                    even = _mm_add_ps(even, _mm_mul_ps(p[t], k[t]));
                    odd = _mm_add_ps(odd, _mm_mul_ps(p[t + 1], k[t + 1]));
                }
                if (t < xtaps) even = _mm_add_ps(even, _mm_mul_ps(p[t], k[t]));
                line[x] = _mm_add_ps(even, odd);
            }
        }
        const float *k = yk + (size_t)y * ytaps;
        uint8_t *out = floor->output + (size_t)y * row_bytes;
        // Row by row into the accumulator (in `source`, free by now), two rows at a time.
        __m128 *sum = source;
        for (uint32_t x = 0; x < output_width; x++) sum[x] = _mm_setzero_ps();
        int j = 0;
        for (; j + 2 <= ytaps; j += 2) {
            const __m128 *a = ring + (size_t)((ys[y] + j) % ytaps) * output_width;
            const __m128 *b = ring + (size_t)((ys[y] + j + 1) % ytaps) * output_width;
            __m128 wa = _mm_set1_ps(k[j]), wb = _mm_set1_ps(k[j + 1]);
            for (uint32_t x = 0; x < output_width; x++)
                sum[x] = _mm_add_ps(sum[x], _mm_add_ps(_mm_mul_ps(a[x], wa), _mm_mul_ps(b[x], wb)));
        }
        for (; j < ytaps; j++) {
            const __m128 *a = ring + (size_t)((ys[y] + j) % ytaps) * output_width;
            __m128 wa = _mm_set1_ps(k[j]);
            for (uint32_t x = 0; x < output_width; x++) sum[x] = _mm_add_ps(sum[x], _mm_mul_ps(a[x], wa));
        }
        for (uint32_t x = 0; x < output_width; x++) store_pixel(sum[x], out + x * 4);
    }
    free(xk), free(yk), free(xs), free(ys), free(ring), free(holds), free(source), free(lanes);
    return 0;
}

// MARK: JPEG

static void jpeg_fail(j_common_ptr cinfo) { longjmp(((imago_floor *)cinfo->client_data)->jump, 1); }

int imago_floor_jpeg_decode(imago_floor *floor, const uint8_t *data, size_t size, unsigned scale_eighths, int fast,
                            uint32_t *width, uint32_t *height) {
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr error;
    memset(&d, 0, sizeof d);
    d.err = jpeg_std_error(&error);
    error.error_exit = jpeg_fail;
    d.client_data = floor;
    if (setjmp(floor->jump)) {
        jpeg_destroy_decompress(&d);
        return 1;
    }
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, data, (unsigned long)size);
    jpeg_read_header(&d, TRUE);
    d.scale_num = scale_eighths;
    d.scale_denom = 8;
    if (fast) {
        d.dct_method = JDCT_IFAST;
        d.do_fancy_upsampling = FALSE;
    }
    d.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&d);
    size_t stride = (size_t)d.output_width * 4;
    if (imago_floor_reserve(&floor->decoded, &floor->decoded_capacity, stride * d.output_height)) longjmp(floor->jump, 1);
    while (d.output_scanline < d.output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = d.output_height - d.output_scanline;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = floor->decoded + (d.output_scanline + i) * stride;
        jpeg_read_scanlines(&d, rows, count);
    }
    *width = d.output_width;
    *height = d.output_height;
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    return 0;
}

int imago_floor_resize_decoded(imago_floor *floor, uint32_t width, uint32_t height, uint32_t output_width,
                               uint32_t output_height) {
    return imago_floor_resize(floor, floor->decoded, width, height, (size_t)width * 4, output_width, output_height);
}

size_t imago_floor_jpeg_encode(imago_floor *floor, uint32_t width, uint32_t height, int quality) {
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr error;
    memset(&c, 0, sizeof c);
    c.err = jpeg_std_error(&error);
    error.error_exit = jpeg_fail;
    c.client_data = floor;
    unsigned long encoded_size = 0;
    unsigned char *encoded = NULL;
    if (setjmp(floor->jump)) {
        jpeg_destroy_compress(&c);
        free(encoded);
        return 0;
    }
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, &encoded, &encoded_size);
    c.image_width = width;
    c.image_height = height;
    c.input_components = 4;
    c.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, TRUE);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < height) {
        JSAMPROW rows[16];
        JDIMENSION count = height - c.next_scanline;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = floor->output + (size_t)(c.next_scanline + i) * width * 4;
        jpeg_write_scanlines(&c, rows, count);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    free(encoded);
    return encoded_size;
}

size_t imago_floor_jpeg(imago_floor *floor, const uint8_t *data, size_t size, unsigned scale_eighths, int fast,
                        uint32_t output_width, uint32_t output_height, int quality) {
    uint32_t width = 0, height = 0;
    if (imago_floor_jpeg_decode(floor, data, size, scale_eighths, fast, &width, &height) ||
        imago_floor_resize_decoded(floor, width, height, output_width, output_height))
        return 0;
    return imago_floor_jpeg_encode(floor, output_width, output_height, quality);
}
