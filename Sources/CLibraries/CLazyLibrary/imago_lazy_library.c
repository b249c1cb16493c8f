#include "imago_lazy_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void imago_lazy_open(imago_lazy_library *library) {
    void *handle = NULL;
    const char *error = "no file name to try";
    for (const char *const *name = library->sonames; *name && !handle; name++) {
        // RTLD_LOCAL: the library's symbols are reached through the slots only.
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (!handle) error = dlerror();
    }
    if (!handle) {
        snprintf(library->message, sizeof library->message, "%s could not be loaded: %s", library->name,
                 error ? error : "unknown error");
        library->failure = library->message;
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        // A function the installed version lacks stays NULL; calling it reports so.
        __atomic_store_n(library->slots[index], dlsym(handle, library->symbols[index]), __ATOMIC_RELEASE);
    }
    library->failure = NULL;
}

void *imago_lazy_require(imago_lazy_library *library, pthread_once_t *once, void (*open)(void), size_t index) {
    pthread_once(once, open);
    if (library->failure) {
        fprintf(stderr, "imago: %s\n", library->failure);
        abort();
    }
    void *function = __atomic_load_n(library->slots[index], __ATOMIC_ACQUIRE);
    if (!function) {
        fprintf(stderr, "imago: %s has no function %s\n", library->name, library->symbols[index]);
        abort();
    }
    return function;
}
