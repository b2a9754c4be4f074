#pragma once

/// The image codec libraries (libjpeg, TurboJPEG, libpng, libwebp and its demux and mux parts, and
/// Little CMS for colour conversion, libjxl for its butteraugli distance) are
/// not linked: each is opened (dlopen) when PetSpot first needs it, so a process that never touches
/// a PNG never maps libpng, and `petspot --version` maps none of them.
///
/// Every function PetSpot calls has a forwarder here named lazy_<name> (codecs_names.h gives the
/// callers the libraries' own names for them). codecs_load opens a library and resolves all of its
/// functions at once, or says why it cannot: call it, and handle its failure, before the first call
/// into that library.

enum codecs_library {
    CODECS_JPEG = 0,        /* libjpeg.so.62 (libjpeg-turbo's libjpeg API) */
    CODECS_TURBOJPEG = 1,   /* libturbojpeg.so.0 */
    CODECS_PNG = 2,         /* libpng16.so.16 */
    CODECS_WEBP = 3,        /* libwebp.so.7 */
    CODECS_WEBPDEMUX = 4,   /* libwebpdemux.so.2 */
    CODECS_WEBPMUX = 5,     /* libwebpmux.so.3 */
    CODECS_LCMS = 6,        /* liblcms2.so.2 (Little CMS 2) */
    CODECS_JXL = 7,         /* libjxl.so.0.7 (for its butteraugli distance) */
};

/// Loads `library` (once; thread-safe; cheap once loaded). Returns 0, or -1 with `error` (`size`
/// bytes) saying which library failed, why, and the package to install.
int codecs_load(enum codecs_library library, char *error, unsigned long size);

/// Loads every codec library now (a server may rather fail at start than on its first photo);
/// returns 0, or -1 as codecs_load.
int codecs_load_all(char *error, unsigned long size);
