#include <lcms2.h>

// lcms2's pixel formats are built with function-like macros, which Swift does not import: name the ones used.
static const cmsUInt32Number IMAGO_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number IMAGO_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number IMAGO_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
/// Grey stored as the red byte of an RGBA pixel (r == g == b): one channel, three extra bytes.
static const cmsUInt32Number IMAGO_TYPE_GRAY_IN_RGBA_8 =
    (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3));
