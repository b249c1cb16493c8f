#ifndef IMAGO_VIDEO_H
#define IMAGO_VIDEO_H

#include <stddef.h>
#include <stdint.h>

// A video read from memory through FFmpeg (libavformat, libavcodec, libswscale), behind an interface that names no
// FFmpeg type: the shim compiles without FFmpeg's headers (then every call reports so) and opens FFmpeg's libraries
// with dlopen on first use, so a program that never reads a video does not load them.

/// Whether the shim was compiled with FFmpeg's headers.
int imago_video_compiled(void);

/// Loads FFmpeg's libraries if they are not loaded yet (once): NULL when they are, else why they cannot be.
const char *imago_video_load(void);

/// Failures: malformed input, a limit exceeded, FFmpeg missing.
enum {
    IMAGO_VIDEO_OK = 0,
    IMAGO_VIDEO_END = 1,
    IMAGO_VIDEO_INVALID = -1,
    IMAGO_VIDEO_LIMIT = -2,
    IMAGO_VIDEO_UNAVAILABLE = -3,
};

/// An open video: a demuxer over the caller's bytes (which must outlive it) and a decoder of its video stream.
typedef struct imago_video imago_video;

/// What the container and the stream's header say, before any frame is decoded.
typedef struct imago_video_info {
    /// The stored frame size.
    int width, height;
    /// The size shown, after the sample aspect ratio (before rotation).
    int display_width, display_height;
    /// Degrees clockwise the frames are turned to show them upright: 0, 90, 180 or 270.
    int rotation;
    /// Seconds; 0 when unknown.
    double duration;
    /// Frames per second (average); 0 when unknown.
    double frame_rate;
    /// Frames the container declares, or duration × frame rate; 0 when unknown.
    int64_t frame_count;
    /// The demuxer's name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm") and the codec's ("h264").
    char container[64];
    char codec[32];
} imago_video_info;

/// Where the video's bytes come from: `read` copies up to `count` bytes at `offset` into `buffer` and returns how
/// many it copied (0 at the end), called with `context`; `size` is the whole length. The caller keeps `context`
/// alive as long as the video is open.
typedef struct imago_video_input {
    void *context;
    int (*read)(void *context, int64_t offset, uint8_t *buffer, int count);
    int64_t size;
} imago_video_input;

/// Opens `input` (only the container formats `formats` lists, comma-separated, FFmpeg's names), checks the video
/// stream's size against `max_pixels` and the duration against `max_duration` seconds before any frame is decoded,
/// and opens a decoder of at most `threads` threads. No protocol, file or URL is ever opened.
int imago_video_open(imago_video_input input, const char *formats, int64_t max_pixels, double max_duration,
                     int threads, imago_video **video, char *error, size_t error_size);

void imago_video_close(imago_video *video);

void imago_video_get_info(const imago_video *video, imago_video_info *info);

/// Seeks to the keyframe at or before `seconds`; the next frames decoded start there.
int imago_video_seek(imago_video *video, double seconds, char *error, size_t error_size);

/// Whether frames no other frame refers to may be skipped (while looking for a time, not while playing).
void imago_video_skip_nonreference(imago_video *video, int skip);

/// Decodes the next frame: IMAGO_VIDEO_OK with its time in `seconds`, IMAGO_VIDEO_END after the last one.
int imago_video_next_frame(imago_video *video, double *seconds, char *error, size_t error_size);

/// The current frame's brightness: the mean and standard deviation of a sample of its luma, 0…255.
void imago_video_frame_luma(const imago_video *video, double *mean, double *deviation);

/// Scales and converts the current frame to RGBA `width` × `height` into `rgba` (rows `stride` bytes apart).
int imago_video_frame_rgba(imago_video *video, uint8_t *rgba, int width, int height, size_t stride, char *error,
                           size_t error_size);

#endif
