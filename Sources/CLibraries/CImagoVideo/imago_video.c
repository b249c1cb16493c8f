#include "imago_video.h"

#include <stdio.h>
#include <string.h>

// FFmpeg's headers live in Debian's default include path (/usr/include/x86_64-linux-gnu); where they are not
// installed this test fails and the shim compiles to functions that report it.
#if __has_include(<libavformat/avformat.h>) && __has_include(<libavcodec/avcodec.h>) && \
    __has_include(<libswscale/swscale.h>)
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>

// Every FFmpeg function the shim calls, with the library it comes from. They are called through pointers dlsym
// gives (typed by the headers' own declarations), so nothing links FFmpeg.
#define IMAGO_FFMPEG_FUNCTIONS(X)                                                                                   \
    X(avformat, avformat_alloc_context)                                                                             \
    X(avformat, avformat_open_input)                                                                                \
    X(avformat, avformat_find_stream_info)                                                                          \
    X(avformat, av_find_best_stream)                                                                                \
    X(avformat, avformat_close_input)                                                                               \
    X(avformat, av_read_frame)                                                                                      \
    X(avformat, av_seek_frame)                                                                                      \
    X(avformat, avio_alloc_context)                                                                                 \
    X(avformat, avio_context_free)                                                                                  \
    X(avformat, av_stream_get_side_data)                                                                            \
    X(avcodec, avcodec_find_decoder)                                                                                \
    X(avcodec, avcodec_alloc_context3)                                                                              \
    X(avcodec, avcodec_parameters_to_context)                                                                       \
    X(avcodec, avcodec_open2)                                                                                       \
    X(avcodec, avcodec_send_packet)                                                                                 \
    X(avcodec, avcodec_receive_frame)                                                                               \
    X(avcodec, avcodec_free_context)                                                                                \
    X(avcodec, avcodec_flush_buffers)                                                                               \
    X(avcodec, av_packet_alloc)                                                                                     \
    X(avcodec, av_packet_free)                                                                                      \
    X(avcodec, av_packet_unref)                                                                                     \
    X(avcodec, avcodec_get_name)                                                                                    \
    X(avutil, av_malloc)                                                                                            \
    X(avutil, av_free)                                                                                              \
    X(avutil, av_frame_alloc)                                                                                       \
    X(avutil, av_frame_free)                                                                                        \
    X(avutil, av_dict_set)                                                                                          \
    X(avutil, av_dict_free)                                                                                         \
    X(avutil, av_display_rotation_get)                                                                              \
    X(avutil, av_strerror)                                                                                          \
    X(avutil, av_log_set_level)                                                                                     \
    X(swscale, sws_getContext)                                                                                      \
    X(swscale, sws_scale)                                                                                           \
    X(swscale, sws_freeContext)                                                                                     \
    X(swscale, sws_setColorspaceDetails)                                                                            \
    X(swscale, sws_getCoefficients)

static struct {
#define IMAGO_SLOT(library, name) __typeof__(&name) name;
    IMAGO_FFMPEG_FUNCTIONS(IMAGO_SLOT)
} ff;

#define IMAGO_STRING2(x) #x
#define IMAGO_STRING(x) IMAGO_STRING2(x)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure = "not loaded";
static char load_message[512];

static void load(void) {
    // The sonames the headers were written for (Debian 12: FFmpeg 5.1, libavformat.so.59).
    struct {
        const char *soname;
        void *handle;
    } libraries[] = {
        {"libavutil.so." IMAGO_STRING(LIBAVUTIL_VERSION_MAJOR), NULL},
        {"libswscale.so." IMAGO_STRING(LIBSWSCALE_VERSION_MAJOR), NULL},
        {"libavcodec.so." IMAGO_STRING(LIBAVCODEC_VERSION_MAJOR), NULL},
        {"libavformat.so." IMAGO_STRING(LIBAVFORMAT_VERSION_MAJOR), NULL},
    };
    for (size_t index = 0; index < sizeof libraries / sizeof libraries[0]; index++) {
        libraries[index].handle = dlopen(libraries[index].soname, RTLD_NOW | RTLD_LOCAL);
        if (!libraries[index].handle) {
            const char *why = dlerror();
            snprintf(load_message, sizeof load_message, "FFmpeg (%s) could not be loaded: %s",
                     libraries[index].soname, why ? why : "unknown error");
            load_failure = load_message;
            return;
        }
    }
    void *avutil = libraries[0].handle, *swscale = libraries[1].handle, *avcodec = libraries[2].handle,
         *avformat = libraries[3].handle;
#define IMAGO_LOOKUP(library, name)                                                                                 \
    *(void **)&ff.name = dlsym(library, #name);                                                                     \
    if (!ff.name) {                                                                                                 \
        snprintf(load_message, sizeof load_message, "FFmpeg's %s has no function %s", #library, #name);            \
        load_failure = load_message;                                                                                \
        return;                                                                                                     \
    }
    IMAGO_FFMPEG_FUNCTIONS(IMAGO_LOOKUP)
    // FFmpeg writes nothing to the program's standard error; failures come back as errors.
    ff.av_log_set_level(AV_LOG_QUIET);
    load_failure = NULL;
}

int imago_video_compiled(void) { return 1; }

const char *imago_video_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

struct imago_video {
    imago_video_input input;
    int64_t position;
    AVIOContext *io;
    AVFormatContext *format;
    AVCodecContext *codec;
    AVFrame *frame;
    AVPacket *packet;
    int stream;
    AVRational time_base;
    int input_ended, flushed, has_frame;
    struct SwsContext *scaler;
    int scaler_key[5];
    imago_video_info info;
};

static void describe(int code, const char *what, char *error, size_t error_size) {
    char reason[128] = "unknown error";
    ff.av_strerror(code, reason, sizeof reason);
    if (error && error_size) snprintf(error, error_size, "%s: %s", what, reason);
}

static void say(const char *what, char *error, size_t error_size) {
    if (error && error_size) snprintf(error, error_size, "%s", what);
}

// The caller's bytes as FFmpeg's input: reads and seeks within them, nothing else.
static int read_bytes(void *opaque, uint8_t *buffer, int size) {
    imago_video *video = opaque;
    int64_t left = video->input.size - video->position;
    if (left <= 0) return AVERROR_EOF;
    int count = video->input.read(video->input.context, video->position, buffer, (int)(left < size ? left : size));
    if (count <= 0) return AVERROR_EOF;
    video->position += count;
    return count;
}

static int64_t seek_bytes(void *opaque, int64_t offset, int whence) {
    imago_video *video = opaque;
    int64_t target;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return video->input.size;
    case SEEK_SET: target = offset; break;
    case SEEK_CUR: target = video->position + offset; break;
    case SEEK_END: target = video->input.size + offset; break;
    default: return AVERROR(EINVAL);
    }
    if (target < 0 || target > video->input.size) return AVERROR(EINVAL);
    video->position = target;
    return target;
}

// A demuxer may ask to open another resource (a MOV data reference, a playlist entry): never.
static int refuse_to_open(struct AVFormatContext *format, AVIOContext **io, const char *url, int flags,
                          AVDictionary **options) {
    (void)format, (void)io, (void)url, (void)flags, (void)options;
    return AVERROR(EPERM);
}

// The decoders a video may use; anything else is refused before a packet is read.
static const char *const decoders =
    "h264,hevc,vp8,vp9,libvpx,libvpx-vp9,av1,libdav1d,libaom-av1,mpeg4,mpeg1video,mpeg2video,mjpeg,theora,prores,"
    "h263,gif,apng,png,webp";

void imago_video_close(imago_video *video) {
    if (!video) return;
    if (video->scaler) ff.sws_freeContext(video->scaler);
    if (video->frame) ff.av_frame_free(&video->frame);
    if (video->packet) ff.av_packet_free(&video->packet);
    if (video->codec) ff.avcodec_free_context(&video->codec);
    if (video->format) ff.avformat_close_input(&video->format);
    if (video->io) {
        ff.av_free(video->io->buffer);
        ff.avio_context_free(&video->io);
    }
    ff.av_free(video);
}

static int fail(imago_video *video, int status) {
    imago_video_close(video);
    return status;
}

int imago_video_open(imago_video_input input, const char *formats, int64_t max_pixels, double max_duration,
                     int threads, imago_video **out, char *error, size_t error_size) {
    *out = NULL;
    if (imago_video_load()) {
        say(imago_video_load(), error, error_size);
        return IMAGO_VIDEO_UNAVAILABLE;
    }
    imago_video *video = ff.av_malloc(sizeof *video);
    if (!video) return IMAGO_VIDEO_LIMIT;
    memset(video, 0, sizeof *video);
    video->input = input;
    video->stream = -1;
    const int buffer_size = 64 * 1024;
    uint8_t *buffer = ff.av_malloc(buffer_size);
    video->io = buffer ? ff.avio_alloc_context(buffer, buffer_size, 0, video, read_bytes, NULL, seek_bytes) : NULL;
    video->format = ff.avformat_alloc_context();
    if (!video->io || !video->format) {
        if (!video->io) ff.av_free(buffer);
        say("out of memory", error, error_size);
        return fail(video, IMAGO_VIDEO_LIMIT);
    }
    video->format->pb = video->io;
    video->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    video->format->io_open = refuse_to_open;
    AVDictionary *options = NULL;
    ff.av_dict_set(&options, "format_whitelist", formats, 0);
    ff.av_dict_set(&options, "codec_whitelist", decoders, 0);
    ff.av_dict_set(&options, "protocol_whitelist", "none", 0);
    int status = ff.avformat_open_input(&video->format, "", NULL, &options);
    ff.av_dict_free(&options);
    if (status < 0) {
        describe(status, "not a video FFmpeg may read", error, error_size);
        return fail(video, IMAGO_VIDEO_INVALID);
    }
    AVFormatContext *format = video->format;
    // The sizes the container states, checked before FFmpeg decodes anything to learn more.
    for (unsigned index = 0; index < format->nb_streams; index++) {
        AVCodecParameters *parameters = format->streams[index]->codecpar;
        if (parameters->codec_type != AVMEDIA_TYPE_VIDEO) continue;
        if ((int64_t)parameters->width * parameters->height > max_pixels) {
            snprintf(error, error_size, "too large: %dx%d exceeds the pixel limit", parameters->width,
                     parameters->height);
            return fail(video, IMAGO_VIDEO_LIMIT);
        }
    }
    AVDictionary **stream_options = ff.av_malloc(sizeof(AVDictionary *) * (format->nb_streams + 1));
    if (!stream_options) return fail(video, IMAGO_VIDEO_LIMIT);
    char pixels[32];
    snprintf(pixels, sizeof pixels, "%lld", (long long)max_pixels);
    for (unsigned index = 0; index < format->nb_streams; index++) {
        stream_options[index] = NULL;
        ff.av_dict_set(&stream_options[index], "max_pixels", pixels, 0);
        ff.av_dict_set(&stream_options[index], "threads", "1", 0);
    }
    status = ff.avformat_find_stream_info(format, stream_options);
    for (unsigned index = 0; index < format->nb_streams; index++) ff.av_dict_free(&stream_options[index]);
    ff.av_free(stream_options);
    if (status < 0) {
        describe(status, "cannot read the video's streams", error, error_size);
        return fail(video, IMAGO_VIDEO_INVALID);
    }
    const AVCodec *decoder = NULL;
    video->stream = ff.av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (video->stream < 0 || !decoder) {
        say(video->stream == AVERROR_DECODER_NOT_FOUND ? "no decoder for the video stream" : "no video stream",
            error, error_size);
        return fail(video, IMAGO_VIDEO_INVALID);
    }
    AVStream *stream = format->streams[video->stream];
    AVCodecParameters *parameters = stream->codecpar;
    imago_video_info *info = &video->info;
    info->width = parameters->width;
    info->height = parameters->height;
    if (info->width <= 0 || info->height <= 0) {
        say("the video stream has no size", error, error_size);
        return fail(video, IMAGO_VIDEO_INVALID);
    }
    if ((int64_t)info->width * info->height > max_pixels) {
        snprintf(error, error_size, "too large: %dx%d exceeds the pixel limit", info->width, info->height);
        return fail(video, IMAGO_VIDEO_LIMIT);
    }
    AVRational aspect = parameters->sample_aspect_ratio;
    info->display_width = info->width;
    info->display_height = info->height;
    if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den) {
        double width = (double)info->width * aspect.num / aspect.den;
        if (width >= 1 && width <= 65536) info->display_width = (int)lround(width);
    }
    size_t matrix_size = 0;
    const int32_t *matrix =
        (const int32_t *)ff.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &matrix_size);
    if (matrix && matrix_size >= 9 * sizeof(int32_t)) {
        double degrees = -ff.av_display_rotation_get(matrix);
        if (isfinite(degrees)) {
            int quarter = (int)lround(degrees / 90.0) % 4;
            info->rotation = (quarter < 0 ? quarter + 4 : quarter) * 90;
        }
    }
    video->time_base = stream->time_base;
    if (format->duration > 0) {
        info->duration = (double)format->duration / AV_TIME_BASE;
    } else if (stream->duration > 0 && stream->time_base.den > 0) {
        info->duration = (double)stream->duration * stream->time_base.num / stream->time_base.den;
    }
    if (info->duration > max_duration) {
        snprintf(error, error_size, "too long: %.1f s exceeds the duration limit of %.0f s", info->duration,
                 max_duration);
        return fail(video, IMAGO_VIDEO_LIMIT);
    }
    AVRational rate = stream->avg_frame_rate.num > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
    if (rate.num > 0 && rate.den > 0) info->frame_rate = (double)rate.num / rate.den;
    info->frame_count = stream->nb_frames > 0 ? stream->nb_frames : (int64_t)llround(info->duration * info->frame_rate);
    snprintf(info->container, sizeof info->container, "%s", format->iformat->name);
    snprintf(info->codec, sizeof info->codec, "%s", ff.avcodec_get_name(parameters->codec_id));

    video->codec = ff.avcodec_alloc_context3(decoder);
    video->frame = ff.av_frame_alloc();
    video->packet = ff.av_packet_alloc();
    if (!video->codec || !video->frame || !video->packet) {
        say("out of memory", error, error_size);
        return fail(video, IMAGO_VIDEO_LIMIT);
    }
    status = ff.avcodec_parameters_to_context(video->codec, parameters);
    if (status < 0) {
        describe(status, "bad codec parameters", error, error_size);
        return fail(video, IMAGO_VIDEO_INVALID);
    }
    video->codec->thread_count = threads > 0 ? threads : 1;
    video->codec->max_pixels = max_pixels;
    AVDictionary *codec_options = NULL;
    ff.av_dict_set(&codec_options, "codec_whitelist", decoders, 0);
    status = ff.avcodec_open2(video->codec, decoder, &codec_options);
    ff.av_dict_free(&codec_options);
    if (status < 0) {
        describe(status, "cannot open the decoder", error, error_size);
        return fail(video, IMAGO_VIDEO_INVALID);
    }
    *out = video;
    return IMAGO_VIDEO_OK;
}

void imago_video_get_info(const imago_video *video, imago_video_info *info) { *info = video->info; }

int imago_video_seek(imago_video *video, double seconds, char *error, size_t error_size) {
    int64_t timestamp = 0;
    if (video->time_base.num > 0) {
        timestamp = (int64_t)floor(seconds * video->time_base.den / video->time_base.num);
    }
    AVStream *stream = video->format->streams[video->stream];
    if (stream->start_time != AV_NOPTS_VALUE) timestamp += stream->start_time;
    int status = ff.av_seek_frame(video->format, video->stream, timestamp, AVSEEK_FLAG_BACKWARD);
    if (status < 0) {
        describe(status, "cannot seek", error, error_size);
        return IMAGO_VIDEO_INVALID;
    }
    ff.avcodec_flush_buffers(video->codec);
    video->input_ended = video->flushed = video->has_frame = 0;
    return IMAGO_VIDEO_OK;
}

void imago_video_skip_nonreference(imago_video *video, int skip) {
    video->codec->skip_frame = skip ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;
}

int imago_video_next_frame(imago_video *video, double *seconds, char *error, size_t error_size) {
    int refused = 0;
    for (;;) {
        int status = ff.avcodec_receive_frame(video->codec, video->frame);
        if (status == 0) {
            video->has_frame = 1;
            int64_t timestamp = video->frame->best_effort_timestamp;
            if (timestamp == AV_NOPTS_VALUE) timestamp = video->frame->pts;
            AVStream *stream = video->format->streams[video->stream];
            if (timestamp != AV_NOPTS_VALUE && stream->start_time != AV_NOPTS_VALUE) timestamp -= stream->start_time;
            *seconds = timestamp == AV_NOPTS_VALUE || video->time_base.den == 0
                           ? 0
                           : (double)timestamp * video->time_base.num / video->time_base.den;
            return IMAGO_VIDEO_OK;
        }
        if (status == AVERROR_EOF) return IMAGO_VIDEO_END;
        if (status != AVERROR(EAGAIN)) {
            describe(status, "cannot decode a frame", error, error_size);
            return IMAGO_VIDEO_INVALID;
        }
        if (video->input_ended) {
            if (video->flushed) return IMAGO_VIDEO_END;
            video->flushed = 1;
            ff.avcodec_send_packet(video->codec, NULL);
            continue;
        }
        status = ff.av_read_frame(video->format, video->packet);
        if (status < 0) {
            // The end, or a truncated file: what was read is decoded to the end.
            video->input_ended = 1;
            continue;
        }
        if (video->packet->stream_index == video->stream) {
            status = ff.avcodec_send_packet(video->codec, video->packet);
            // A damaged packet is skipped, as players do; a stream of nothing else is refused.
            if (status < 0 && status != AVERROR(EAGAIN) && ++refused > 64) {
                ff.av_packet_unref(video->packet);
                describe(status, "cannot decode the video", error, error_size);
                return IMAGO_VIDEO_INVALID;
            }
        }
        ff.av_packet_unref(video->packet);
    }
}

/// Converts the current frame into `planes` (`format`, `width` × `height`) through a scaler kept for the next
/// frame of the same shape.
static int convert(imago_video *video, enum AVPixelFormat target, uint8_t *data, int width, int height,
                   size_t stride, int flags, char *error, size_t error_size) {
    if (!video->has_frame) {
        say("no frame decoded", error, error_size);
        return IMAGO_VIDEO_INVALID;
    }
    AVFrame *frame = video->frame;
    int key[5] = {frame->width, frame->height, frame->format, width, height * 8 + (int)target};
    if (!video->scaler || memcmp(key, video->scaler_key, sizeof key) != 0) {
        if (video->scaler) ff.sws_freeContext(video->scaler);
        video->scaler = ff.sws_getContext(frame->width, frame->height, frame->format, width, height, target, flags,
                                          NULL, NULL, NULL);
        if (!video->scaler) {
            say("cannot convert the frame's pixels", error, error_size);
            return IMAGO_VIDEO_INVALID;
        }
        memcpy(video->scaler_key, key, sizeof key);
        int space = SWS_CS_DEFAULT;
        switch (frame->colorspace) {
        case AVCOL_SPC_BT709: space = SWS_CS_ITU709; break;
        case AVCOL_SPC_BT470BG:
        case AVCOL_SPC_SMPTE170M: space = SWS_CS_ITU601; break;
        case AVCOL_SPC_BT2020_NCL:
        case AVCOL_SPC_BT2020_CL: space = SWS_CS_BT2020; break;
        default: space = frame->height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601;
        }
        int full = frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P ||
                   frame->format == AV_PIX_FMT_YUVJ422P || frame->format == AV_PIX_FMT_YUVJ444P;
        ff.sws_setColorspaceDetails(video->scaler, ff.sws_getCoefficients(space), full,
                                    ff.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    }
    uint8_t *planes[4] = {data, NULL, NULL, NULL};
    int strides[4] = {(int)stride, 0, 0, 0};
    int rows = ff.sws_scale(video->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height,
                            planes, strides);
    if (rows != height) {
        say("cannot convert the frame's pixels", error, error_size);
        return IMAGO_VIDEO_INVALID;
    }
    return IMAGO_VIDEO_OK;
}

void imago_video_frame_luma(const imago_video *video, double *mean, double *deviation) {
    uint8_t grey[48 * 27];
    *mean = 0;
    *deviation = 0;
    if (convert((imago_video *)video, AV_PIX_FMT_GRAY8, grey, 48, 27, 48, SWS_AREA, NULL, 0) != IMAGO_VIDEO_OK) return;
    double sum = 0, squares = 0;
    for (size_t index = 0; index < sizeof grey; index++) {
        sum += grey[index];
        squares += (double)grey[index] * grey[index];
    }
    *mean = sum / sizeof grey;
    double variance = squares / sizeof grey - *mean * *mean;
    *deviation = variance > 0 ? sqrt(variance) : 0;
}

int imago_video_frame_rgba(imago_video *video, uint8_t *rgba, int width, int height, size_t stride, char *error,
                           size_t error_size) {
    int shrinking = width < video->frame->width || height < video->frame->height;
    return convert(video, AV_PIX_FMT_RGBA, rgba, width, height, stride, shrinking ? SWS_AREA : SWS_BICUBIC, error,
                   error_size);
}

#else

static const char *const not_compiled =
    "this build reads no video: FFmpeg's headers were not installed when it was compiled (on Debian: apt-get install "
    "libavformat-dev libavcodec-dev libswscale-dev, then rebuild)";

static void say(char *error, size_t error_size) {
    if (error && error_size) snprintf(error, error_size, "%s", not_compiled);
}

int imago_video_compiled(void) { return 0; }
const char *imago_video_load(void) { return not_compiled; }
int imago_video_open(imago_video_input input, const char *formats, int64_t max_pixels, double max_duration,
                     int threads, imago_video **video, char *error, size_t error_size) {
    (void)input, (void)formats, (void)max_pixels, (void)max_duration, (void)threads;
    *video = NULL;
    say(error, error_size);
    return IMAGO_VIDEO_UNAVAILABLE;
}
void imago_video_close(imago_video *video) { (void)video; }
void imago_video_get_info(const imago_video *video, imago_video_info *info) {
    (void)video;
    memset(info, 0, sizeof *info);
}
int imago_video_seek(imago_video *video, double seconds, char *error, size_t error_size) {
    (void)video, (void)seconds;
    say(error, error_size);
    return IMAGO_VIDEO_UNAVAILABLE;
}
void imago_video_skip_nonreference(imago_video *video, int skip) { (void)video, (void)skip; }
int imago_video_next_frame(imago_video *video, double *seconds, char *error, size_t error_size) {
    (void)video, (void)seconds;
    say(error, error_size);
    return IMAGO_VIDEO_UNAVAILABLE;
}
void imago_video_frame_luma(const imago_video *video, double *mean, double *deviation) {
    (void)video;
    *mean = *deviation = 0;
}
int imago_video_frame_rgba(imago_video *video, uint8_t *rgba, int width, int height, size_t stride, char *error,
                           size_t error_size) {
    (void)video, (void)rgba, (void)width, (void)height, (void)stride;
    say(error, error_size);
    return IMAGO_VIDEO_UNAVAILABLE;
}

#endif
