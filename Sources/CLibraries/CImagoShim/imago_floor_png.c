// The serve floor's PNG path: libpng called directly (see include/imago_floor.h).
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "imago_floor_internal.h"

// MARK: PNG

static void png_fail(png_structp png, png_const_charp message) {
    (void)message;
    longjmp(((imago_floor *)png_get_error_ptr(png))->jump, 1);
}

static void png_write_data(png_structp png, png_bytep data, png_size_t length) {
    imago_floor *floor = png_get_io_ptr(png);
    size_t needed = floor->encoded_size + length;
    if (needed > floor->encoded_capacity) {
        size_t capacity = needed * 2;
        uint8_t *grown = realloc(floor->encoded, capacity);
        if (!grown) png_error(png, "out of memory");
        floor->encoded = grown;
        floor->encoded_capacity = capacity;
    }
    memcpy(floor->encoded + floor->encoded_size, data, length);
    floor->encoded_size = needed;
}

static void png_flush_data(png_structp png) { (void)png; }

size_t imago_floor_png_encode(imago_floor *floor, uint32_t width, uint32_t height, int compression_level, int filters) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, floor, png_fail, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(floor->jump)) {
        if (png) png_destroy_write_struct(&png, info ? &info : NULL);
        return 0;
    }
    floor->encoded_size = 0;
    png_set_write_fn(png, floor, png_write_data, png_flush_data);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, compression_level);
    if (filters) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, floor->output + (size_t)y * width * 4);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return floor->encoded_size;
}

size_t imago_floor_png(imago_floor *floor, const uint8_t *data, size_t size, uint32_t output_width,
                       uint32_t output_height, int compression_level) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return 0;
    image.format = PNG_FORMAT_RGBA;
    size_t stride = (size_t)image.width * 4;
    if (imago_floor_reserve(&floor->decoded, &floor->decoded_capacity, stride * image.height) ||
        !png_image_finish_read(&image, NULL, floor->decoded, (png_int_32)stride, NULL)) {
        png_image_free(&image);
        return 0;
    }
    if (imago_floor_resize(floor, floor->decoded, image.width, image.height, stride, output_width, output_height))
        return 0;
    return imago_floor_png_encode(floor, output_width, output_height, compression_level, 0);
}
