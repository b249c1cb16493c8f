#ifndef IMAGO_SHIM_H
#define IMAGO_SHIM_H
#include <stddef.h>

/// The library versions the codecs were built against, for `imago --version` and diagnostics.
const char *imago_shim_png_version(void);
int imago_shim_jpeg_version(void);

#endif
