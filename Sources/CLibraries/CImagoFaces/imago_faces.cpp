#include "imago_faces.h"

#include <stdio.h>
#include <string.h>

// include/opencv2 links to Debian's /usr/include/opencv4/opencv2: where the headers are not installed the link
// dangles, this test fails, and the shim compiles to functions that report it.
#if __has_include(<opencv2/objdetect.hpp>)
#include <dlfcn.h>
#include <pthread.h>

#include <exception>
#include <new>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

namespace {

void report(char *error, size_t size, const char *what, const char *detail) {
    if (error && size) snprintf(error, size, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
}

// OpenCV is reached through pointers dlsym gives, looked up by their mangled names, typed by the headers'
// declarations (a member function takes `this` first). Nothing here calls OpenCV directly, so the program links
// without OpenCV; `nm -u` on this object shows no cv:: symbol. The names are those of OpenCV 4's ABI
// (libopencv_*.so.4xx): a name the installed library lacks is reported, never called.
struct OpenCV {
    void (*matCreate)(cv::Mat *, int, int, int, void *, size_t);
    void (*matDestroy)(cv::Mat *);
    void (*cvtColor)(const cv::_InputArray &, const cv::_OutputArray &, int, int);
    void (*resize)(const cv::_InputArray &, const cv::_OutputArray &, cv::Size, double, double, int);
    void (*equalizeHist)(const cv::_InputArray &, const cv::_OutputArray &);
    void (*cascadeCreate)(cv::CascadeClassifier *);
    void (*cascadeDestroy)(cv::CascadeClassifier *);
    bool (*cascadeLoad)(cv::CascadeClassifier *, const cv::String &);
    void (*cascadeDetect)(cv::CascadeClassifier *, const cv::_InputArray &, std::vector<cv::Rect> &,
                          std::vector<int> &, double, int, int, cv::Size, cv::Size);
    void (*setNumThreads)(int);
};

OpenCV opencv;
pthread_once_t loadOnce = PTHREAD_ONCE_INIT;
const char *loadFailure = "not loaded";
char loadMessage[512];

#define IMAGO_STRING2(x) #x
#define IMAGO_STRING(x) IMAGO_STRING2(x)
// OpenCV names its libraries by the major version and the minor one in two digits: libopencv_objdetect.so.406.
#if CV_VERSION_MINOR < 10
#define IMAGO_OPENCV_SOVERSION IMAGO_STRING(CV_VERSION_MAJOR) "0" IMAGO_STRING(CV_VERSION_MINOR)
#else
#define IMAGO_OPENCV_SOVERSION IMAGO_STRING(CV_VERSION_MAJOR) IMAGO_STRING(CV_VERSION_MINOR)
#endif

void load() {
    const char *names[] = {"libopencv_objdetect.so." IMAGO_OPENCV_SOVERSION, "libopencv_objdetect.so"};
    void *handle = nullptr;
    const char *why = "no file name to try";
    for (const char *name : names) {
        // RTLD_LOCAL: OpenCV's symbols are reached through the pointers only. The handle searches the library and
        // what it depends on (libopencv_core, libopencv_imgproc).
        handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle) break;
        why = dlerror();
    }
    if (!handle) {
        snprintf(loadMessage, sizeof loadMessage,
                 "OpenCV " CV_VERSION " (libopencv_objdetect.so." IMAGO_OPENCV_SOVERSION ") could not be loaded: %s",
                 why ? why : "unknown error");
        loadFailure = loadMessage;
        return;
    }
    struct Slot {
        void **slot;
        const char *name;
    } slots[] = {
        {(void **)&opencv.matCreate, "_ZN2cv3MatC1EiiiPvm"},
        {(void **)&opencv.matDestroy, "_ZN2cv3MatD1Ev"},
        {(void **)&opencv.cvtColor, "_ZN2cv8cvtColorERKNS_11_InputArrayERKNS_12_OutputArrayEii"},
        {(void **)&opencv.resize, "_ZN2cv6resizeERKNS_11_InputArrayERKNS_12_OutputArrayENS_5Size_IiEEddi"},
        {(void **)&opencv.equalizeHist, "_ZN2cv12equalizeHistERKNS_11_InputArrayERKNS_12_OutputArrayE"},
        {(void **)&opencv.cascadeCreate, "_ZN2cv17CascadeClassifierC1Ev"},
        {(void **)&opencv.cascadeDestroy, "_ZN2cv17CascadeClassifierD1Ev"},
        {(void **)&opencv.cascadeLoad,
         "_ZN2cv17CascadeClassifier4loadERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"},
        {(void **)&opencv.cascadeDetect,
         "_ZN2cv17CascadeClassifier16detectMultiScaleERKNS_11_InputArrayERSt6vectorINS_5Rect_IiEESaIS6_EERS4_"
         "IiSaIiEEdiiNS_5Size_IiEESE_"},
        {(void **)&opencv.setNumThreads, "_ZN2cv13setNumThreadsEi"},
    };
    for (const Slot &slot : slots) {
        *slot.slot = dlsym(handle, slot.name);
        if (!*slot.slot) {
            snprintf(loadMessage, sizeof loadMessage, "OpenCV's library has no %s (built for OpenCV " CV_VERSION ")",
                     slot.name);
            loadFailure = loadMessage;
            return;
        }
    }
    // Sequential: a detection runs on the compute thread that asked for it (whose CPU time the loader counts and
    // whose pool bounds the work), not on worker threads of OpenCV's own.
    opencv.setNumThreads(0);
    loadFailure = nullptr;
}

/// A Mat header over memory we own: made and freed through the library's own constructor and destructor.
class Borrowed {
    alignas(cv::Mat) unsigned char storage[sizeof(cv::Mat)];

public:
    Borrowed(int rows, int cols, int type, const void *data, size_t step) {
        opencv.matCreate(mat(), rows, cols, type, const_cast<void *>(data), step);
    }
    ~Borrowed() { opencv.matDestroy(mat()); }
    Borrowed(const Borrowed &) = delete;
    Borrowed &operator=(const Borrowed &) = delete;
    cv::Mat *mat() { return reinterpret_cast<cv::Mat *>(storage); }
};

}  // namespace

struct imago_faces_cascade {
    alignas(cv::CascadeClassifier) unsigned char storage[sizeof(cv::CascadeClassifier)];
    cv::CascadeClassifier *classifier() { return reinterpret_cast<cv::CascadeClassifier *>(storage); }
};

extern "C" int imago_faces_compiled(void) { return 1; }

extern "C" const char *imago_faces_load(void) {
    pthread_once(&loadOnce, load);
    return loadFailure;
}

extern "C" imago_faces_cascade *imago_faces_cascade_open(const char *path, char *error, size_t error_size) {
    if (const char *failure = imago_faces_load()) {
        report(error, error_size, failure, nullptr);
        return nullptr;
    }
    auto *cascade = new (std::nothrow) imago_faces_cascade;
    if (!cascade) {
        report(error, error_size, "out of memory", nullptr);
        return nullptr;
    }
    opencv.cascadeCreate(cascade->classifier());
    bool loaded = false;
    try {
        loaded = opencv.cascadeLoad(cascade->classifier(), std::string(path));
        if (!loaded) report(error, error_size, "OpenCV cannot read the cascade", path);
    } catch (const std::exception &exception) {
        report(error, error_size, "OpenCV cannot read the cascade", exception.what());
    } catch (...) {
        report(error, error_size, "OpenCV cannot read the cascade", path);
    }
    if (!loaded) {
        imago_faces_cascade_close(cascade);
        return nullptr;
    }
    return cascade;
}

extern "C" void imago_faces_cascade_close(imago_faces_cascade *cascade) {
    if (!cascade) return;
    opencv.cascadeDestroy(cascade->classifier());
    delete cascade;
}

extern "C" int imago_faces_prepare(const uint8_t *rgba, int width, int height, size_t stride, uint8_t *grey,
                                   int grey_width, int grey_height, char *error, size_t error_size) {
    if (const char *failure = imago_faces_load()) {
        report(error, error_size, failure, nullptr);
        return -1;
    }
    std::vector<uint8_t> small;
    try {
        small.resize(size_t(grey_width) * size_t(grey_height) * 4);
        Borrowed source(height, width, CV_8UC4, rgba, stride);
        Borrowed shrunk(grey_height, grey_width, CV_8UC4, small.data(), size_t(grey_width) * 4);
        Borrowed grey1(grey_height, grey_width, CV_8UC1, grey, size_t(grey_width));
        if (grey_width != width || grey_height != height) {
            opencv.resize(*source.mat(), *shrunk.mat(), cv::Size(grey_width, grey_height), 0, 0, cv::INTER_AREA);
            opencv.cvtColor(*shrunk.mat(), *grey1.mat(), cv::COLOR_RGBA2GRAY, 0);
        } else {
            opencv.cvtColor(*source.mat(), *grey1.mat(), cv::COLOR_RGBA2GRAY, 0);
        }
        std::vector<uint8_t> copy(grey, grey + size_t(grey_width) * size_t(grey_height));
        Borrowed unequalised(grey_height, grey_width, CV_8UC1, copy.data(), size_t(grey_width));
        opencv.equalizeHist(*unequalised.mat(), *grey1.mat());
        return 0;
    } catch (const std::exception &exception) {
        report(error, error_size, "OpenCV cannot prepare the image", exception.what());
    } catch (...) {
        report(error, error_size, "OpenCV cannot prepare the image", nullptr);
    }
    return -1;
}

extern "C" int imago_faces_detect(imago_faces_cascade *cascade, const uint8_t *grey, int width, int height,
                                  double scale_factor, int min_neighbours, int min_size, imago_faces_rect *rects,
                                  int capacity, char *error, size_t error_size) {
    try {
        Borrowed image(height, width, CV_8UC1, grey, size_t(width));
        std::vector<cv::Rect> found;
        std::vector<int> neighbours;
        opencv.cascadeDetect(cascade->classifier(), *image.mat(), found, neighbours, scale_factor, min_neighbours, 0,
                             cv::Size(min_size, min_size), cv::Size());
        for (size_t index = 0; index < found.size() && index < size_t(capacity); index++) {
            rects[index] = {found[index].x, found[index].y, found[index].width, found[index].height,
                            index < neighbours.size() ? neighbours[index] : 0};
        }
        return int(found.size());
    } catch (const std::exception &exception) {
        report(error, error_size, "OpenCV cannot detect", exception.what());
    } catch (...) {
        report(error, error_size, "OpenCV cannot detect", nullptr);
    }
    return -1;
}

#else

static const char *const notCompiled =
    "this build has no face detection: OpenCV's headers were not installed when it was compiled (on Debian: "
    "apt-get install libopencv-objdetect-dev libopencv-imgproc-dev opencv-data, then rebuild)";

static void report(char *error, size_t size) {
    if (error && size) snprintf(error, size, "%s", notCompiled);
}

extern "C" int imago_faces_compiled(void) { return 0; }
extern "C" const char *imago_faces_load(void) { return notCompiled; }
extern "C" imago_faces_cascade *imago_faces_cascade_open(const char *, char *error, size_t error_size) {
    report(error, error_size);
    return nullptr;
}
extern "C" void imago_faces_cascade_close(imago_faces_cascade *) {}
extern "C" int imago_faces_prepare(const uint8_t *, int, int, size_t, uint8_t *, int, int, char *error,
                                   size_t error_size) {
    report(error, error_size);
    return -1;
}
extern "C" int imago_faces_detect(imago_faces_cascade *, const uint8_t *, int, int, double, int, int,
                                  imago_faces_rect *, int, char *error, size_t error_size) {
    report(error, error_size);
    return -1;
}

#endif
