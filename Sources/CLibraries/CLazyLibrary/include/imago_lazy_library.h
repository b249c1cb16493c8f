#ifndef IMAGO_LAZY_LIBRARY_H
#define IMAGO_LAZY_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// A shared library opened on first use (see Scripts/generate-lazy-loaders.py) and the functions taken from it.
typedef struct imago_lazy_library {
    /// For messages: "libavif".
    const char *name;
    /// The file names to try, in order, NULL-terminated.
    const char *const *sonames;
    /// The functions to look up, and where each pointer goes.
    const char *const *symbols;
    void **const *slots;
    size_t count;
    /// After opening: NULL when loaded, else why not.
    const char *failure;
    char message[512];
} imago_lazy_library;

/// Opens the library and fills its slots (call once, under pthread_once).
void imago_lazy_open(imago_lazy_library *library);

/// Opens the library if it is not yet (`open` under `once`) and returns the function in slot `index`; prints why
/// and aborts when the library or the function is missing (callers check `imago_*_load()` first for an error).
void *imago_lazy_require(imago_lazy_library *library, pthread_once_t *once, void (*open)(void), size_t index);

#endif
