// Internal to the serve floor (imago_floor.c, imago_floor_png.c): the reusable buffers and their growth.
#ifndef IMAGO_FLOOR_INTERNAL_H
#define IMAGO_FLOOR_INTERNAL_H
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#include "imago_floor.h"

struct imago_floor {
    uint8_t *decoded;
    size_t decoded_capacity;
    uint8_t *output;
    size_t output_capacity;
    uint8_t *encoded;
    size_t encoded_size;
    size_t encoded_capacity;
    jmp_buf jump;
};

static inline int imago_floor_reserve(uint8_t **buffer, size_t *capacity, size_t size) {
    if (*capacity >= size) return 0;
    free(*buffer);
    *buffer = malloc(size);
    *capacity = *buffer ? size : 0;
    return *buffer ? 0 : 1;
}

#endif
