#ifndef IMAGO_FACES_H
#define IMAGO_FACES_H

#include <stddef.h>
#include <stdint.h>

// OpenCV's cascade classifier behind a C interface that names no OpenCV type, so Swift never sees OpenCV's C++
// headers. The shim compiles without them (then every call reports so), and loads OpenCV with dlopen on first use,
// so a program that never detects faces does not load OpenCV's twenty-odd shared objects.

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the shim was compiled with OpenCV's headers (else every other call fails, saying so).
int imago_faces_compiled(void);

/// Loads OpenCV's libraries if they are not loaded yet (once): NULL when they are, else why they cannot be.
const char *imago_faces_load(void);

/// A cascade classifier loaded from an XML file; one caller at a time (OpenCV's keeps state while it detects).
typedef struct imago_faces_cascade imago_faces_cascade;

/// Opens the cascade in `path`; NULL with a reason in `error` when it cannot.
imago_faces_cascade *imago_faces_cascade_open(const char *path, char *error, size_t error_size);

void imago_faces_cascade_close(imago_faces_cascade *cascade);

/// Shrinks the RGBA image (rows `stride` bytes apart) to `grey_width` x `grey_height` (area averaging), converts it
/// to grey and equalises its histogram, into `grey` (`grey_width` bytes a row). 0, or -1 with a reason in `error`.
int imago_faces_prepare(const uint8_t *rgba, int width, int height, size_t stride, uint8_t *grey, int grey_width,
                        int grey_height, char *error, size_t error_size);

/// One detection: a rectangle of the grey image and how many neighbouring detections merged into it.
typedef struct imago_faces_rect {
    int x, y, width, height;
    int neighbours;
} imago_faces_rect;

/// Runs the cascade over the grey image (`width` bytes a row): windows from `min_size` pixels up, scaled by
/// `scale_factor` each step, kept when `min_neighbours` agree. Writes at most `capacity` rectangles and returns how
/// many it found (possibly more than `capacity`), or -1 with a reason in `error`.
int imago_faces_detect(imago_faces_cascade *cascade, const uint8_t *grey, int width, int height, double scale_factor,
                       int min_neighbours, int min_size, imago_faces_rect *rects, int capacity, char *error,
                       size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
