// See include/codecs_lazy.h: one forwarding function per codec function PetSpot calls, named
// lazy_<name>, calling the library's own function, which codecs_load resolved.
#include "codecs_lazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <turbojpeg.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
#include <lcms2.h>
#include <jxl/butteraugli.h>
#include <jxl/version.h>

/* The sonames below are the ABIs of these headers; another ABI's headers must not build against them. */
#if JPEG_LIB_VERSION != 62
#error "codecs_lazy.c loads libjpeg.so.62; these jpeglib.h headers are another ABI"
#endif
#if JPEGXL_MAJOR_VERSION != 0 || JPEGXL_MINOR_VERSION != 7
#error "codecs_lazy.c loads libjxl.so.0.7; these jxl headers are another ABI"
#endif
#if PNG_LIBPNG_VER_DLLNUM != 16
#error "codecs_lazy.c loads libpng16.so.16; these png.h headers are another ABI"
#endif

struct library {
    const char *soname;
    const char *package;
    pthread_mutex_t lock;
    int loaded;   /* 1 once every function of the library is resolved (read with acquire) */
};

#define LIBRARY(variable, soname, package) \
    static struct library variable = { soname, package, PTHREAD_MUTEX_INITIALIZER, 0 };
LIBRARY(lib_jpeg, "libjpeg.so.62", "libjpeg62-turbo")
LIBRARY(lib_turbojpeg, "libturbojpeg.so.0", "libturbojpeg0")
LIBRARY(lib_png, "libpng16.so.16", "libpng16-16")
LIBRARY(lib_webp, "libwebp.so.7", "libwebp7")
LIBRARY(lib_webpdemux, "libwebpdemux.so.2", "libwebpdemux2")
LIBRARY(lib_webpmux, "libwebpmux.so.3", "libwebpmux3")
LIBRARY(lib_lcms, "liblcms2.so.2", "liblcms2-2")
LIBRARY(lib_jxl, "libjxl.so.0.7", "libjxl0.7")
/* In the order of enum codecs_library. */
static struct library *const libraries[] = { &lib_jpeg, &lib_turbojpeg, &lib_png, &lib_webp, &lib_webpdemux, &lib_webpmux, &lib_lcms, &lib_jxl };

/* Every function called, once: FORWARD(library, result type, name, parameters, arguments), or
   FORWARD_VOID(library, name, parameters, arguments). include/codecs_names.h renames each for
   the callers. */
#define CODEC_FUNCTIONS(FORWARD, FORWARD_VOID) \
    /* libjpeg (jpeglib.h) */ \
    FORWARD(jpeg, struct jpeg_error_mgr *, jpeg_std_error, (struct jpeg_error_mgr *err), (err)) \
    FORWARD_VOID(jpeg, jpeg_CreateCompress, (j_compress_ptr cinfo, int version, size_t structsize), (cinfo, version, structsize)) \
    FORWARD_VOID(jpeg, jpeg_CreateDecompress, (j_decompress_ptr cinfo, int version, size_t structsize), (cinfo, version, structsize)) \
    FORWARD_VOID(jpeg, jpeg_destroy_compress, (j_compress_ptr cinfo), (cinfo)) \
    FORWARD_VOID(jpeg, jpeg_destroy_decompress, (j_decompress_ptr cinfo), (cinfo)) \
    FORWARD_VOID(jpeg, jpeg_mem_dest, (j_compress_ptr cinfo, unsigned char **outbuffer, unsigned long *outsize), (cinfo, outbuffer, outsize)) \
    FORWARD_VOID(jpeg, jpeg_mem_src, (j_decompress_ptr cinfo, const unsigned char *inbuffer, unsigned long insize), (cinfo, inbuffer, insize)) \
    FORWARD_VOID(jpeg, jpeg_set_defaults, (j_compress_ptr cinfo), (cinfo)) \
    FORWARD_VOID(jpeg, jpeg_set_colorspace, (j_compress_ptr cinfo, J_COLOR_SPACE colorspace), (cinfo, colorspace)) \
    FORWARD_VOID(jpeg, jpeg_simple_progression, (j_compress_ptr cinfo), (cinfo)) \
    FORWARD_VOID(jpeg, jpeg_write_coefficients, (j_compress_ptr cinfo, jvirt_barray_ptr *coef_arrays), (cinfo, coef_arrays)) \
    FORWARD_VOID(jpeg, jpeg_finish_compress, (j_compress_ptr cinfo), (cinfo)) \
    FORWARD(jpeg, int, jpeg_read_header, (j_decompress_ptr cinfo, boolean require_image), (cinfo, require_image)) \
    FORWARD(jpeg, boolean, jpeg_start_decompress, (j_decompress_ptr cinfo), (cinfo)) \
    FORWARD(jpeg, JDIMENSION, jpeg_read_scanlines, (j_decompress_ptr cinfo, JSAMPARRAY scanlines, JDIMENSION max_lines), (cinfo, scanlines, max_lines)) \
    FORWARD(jpeg, JDIMENSION, jpeg_read_raw_data, (j_decompress_ptr cinfo, JSAMPIMAGE data, JDIMENSION max_lines), (cinfo, data, max_lines)) \
    FORWARD(jpeg, boolean, jpeg_finish_decompress, (j_decompress_ptr cinfo), (cinfo)) \
    FORWARD(jpeg, boolean, jpeg_resync_to_restart, (j_decompress_ptr cinfo, int desired), (cinfo, desired)) \
    \
    /* TurboJPEG (turbojpeg.h) */ \
    FORWARD(turbojpeg, tjhandle, tjInitDecompress, (void), ()) \
    FORWARD(turbojpeg, int, tjDestroy, (tjhandle handle), (handle)) \
    FORWARD(turbojpeg, char *, tjGetErrorStr2, (tjhandle handle), (handle)) \
    FORWARD(turbojpeg, int, tjPlaneWidth, (int componentID, int width, int subsamp), (componentID, width, subsamp)) \
    FORWARD(turbojpeg, int, tjPlaneHeight, (int componentID, int height, int subsamp), (componentID, height, subsamp)) \
    FORWARD(turbojpeg, int, tjDecodeYUVPlanes, (tjhandle handle, const unsigned char **srcPlanes, const int *strides, int subsamp, unsigned char *dstBuf, int width, int pitch, int height, int pixelFormat, int flags), (handle, srcPlanes, strides, subsamp, dstBuf, width, pitch, height, pixelFormat, flags)) \
    \
    /* libpng's simplified API (png.h) */ \
    FORWARD(png, int, png_image_begin_read_from_memory, (png_imagep image, png_const_voidp memory, size_t size), (image, memory, size)) \
    FORWARD(png, int, png_image_finish_read, (png_imagep image, png_const_colorp background, void *buffer, png_int_32 row_stride, void *colormap), (image, background, buffer, row_stride, colormap)) \
    FORWARD_VOID(png, png_image_free, (png_imagep image), (image)) \
    FORWARD(png, int, png_image_write_to_memory, (png_imagep image, void *memory, png_alloc_size_t *memory_bytes, int convert_to_8_bit, const void *buffer, png_int_32 row_stride, const void *colormap), (image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap)) \
    \
    /* libwebp (webp/decode.h, webp/encode.h) */ \
    FORWARD(webp, VP8StatusCode, WebPGetFeaturesInternal, (const uint8_t *data, size_t data_size, WebPBitstreamFeatures *features, int version), (data, data_size, features, version)) \
    FORWARD(webp, int, WebPInitDecoderConfigInternal, (WebPDecoderConfig *config, int version), (config, version)) \
    FORWARD(webp, VP8StatusCode, WebPDecode, (const uint8_t *data, size_t data_size, WebPDecoderConfig *config), (data, data_size, config)) \
    FORWARD_VOID(webp, WebPFreeDecBuffer, (WebPDecBuffer *buffer), (buffer)) \
    FORWARD_VOID(webp, WebPFree, (void *ptr), (ptr)) \
    FORWARD(webp, int, WebPConfigInitInternal, (WebPConfig *config, WebPPreset preset, float quality, int version), (config, preset, quality, version)) \
    FORWARD(webp, int, WebPPictureInitInternal, (WebPPicture *picture, int version), (picture, version)) \
    FORWARD(webp, int, WebPPictureAlloc, (WebPPicture *picture), (picture)) \
    FORWARD_VOID(webp, WebPPictureFree, (WebPPicture *picture), (picture)) \
    FORWARD(webp, int, WebPEncode, (const WebPConfig *config, WebPPicture *picture), (config, picture)) \
    FORWARD_VOID(webp, WebPMemoryWriterInit, (WebPMemoryWriter *writer), (writer)) \
    FORWARD_VOID(webp, WebPMemoryWriterClear, (WebPMemoryWriter *writer), (writer)) \
    FORWARD(webp, int, WebPMemoryWrite, (const uint8_t *data, size_t data_size, const WebPPicture *picture), (data, data_size, picture)) \
    FORWARD(webp, size_t, WebPEncodeRGB, (const uint8_t *rgb, int width, int height, int stride, float quality_factor, uint8_t **output), (rgb, width, height, stride, quality_factor, output)) \
    FORWARD(webp, size_t, WebPEncodeRGBA, (const uint8_t *rgba, int width, int height, int stride, float quality_factor, uint8_t **output), (rgba, width, height, stride, quality_factor, output)) \
    FORWARD(webp, size_t, WebPEncodeLosslessRGB, (const uint8_t *rgb, int width, int height, int stride, uint8_t **output), (rgb, width, height, stride, output)) \
    FORWARD(webp, size_t, WebPEncodeLosslessRGBA, (const uint8_t *rgba, int width, int height, int stride, uint8_t **output), (rgba, width, height, stride, output)) \
    FORWARD(webp, int, WebPPictureImportRGB, (WebPPicture *picture, const uint8_t *rgb, int rgb_stride), (picture, rgb, rgb_stride)) \
    FORWARD(webp, int, WebPPictureImportRGBA, (WebPPicture *picture, const uint8_t *rgba, int rgba_stride), (picture, rgba, rgba_stride)) \
    \
    /* libwebpdemux (webp/demux.h) */ \
    FORWARD(webpdemux, WebPAnimDecoder *, WebPAnimDecoderNewInternal, (const WebPData *webp_data, const WebPAnimDecoderOptions *dec_options, int abi_version), (webp_data, dec_options, abi_version)) \
    FORWARD(webpdemux, int, WebPAnimDecoderOptionsInitInternal, (WebPAnimDecoderOptions *dec_options, int abi_version), (dec_options, abi_version)) \
    FORWARD(webpdemux, int, WebPAnimDecoderGetInfo, (const WebPAnimDecoder *dec, WebPAnimInfo *info), (dec, info)) \
    FORWARD(webpdemux, int, WebPAnimDecoderGetNext, (WebPAnimDecoder *dec, uint8_t **buf, int *timestamp), (dec, buf, timestamp)) \
    FORWARD_VOID(webpdemux, WebPAnimDecoderDelete, (WebPAnimDecoder *dec), (dec)) \
    \
    /* libwebpmux (webp/mux.h) */ \
    FORWARD(webpmux, WebPMux *, WebPNewInternal, (int version), (version)) \
    FORWARD_VOID(webpmux, WebPMuxDelete, (WebPMux *mux), (mux)) \
    FORWARD(webpmux, WebPMuxError, WebPMuxSetImage, (WebPMux *mux, const WebPData *bitstream, int copy_data), (mux, bitstream, copy_data)) \
    FORWARD(webpmux, WebPMuxError, WebPMuxSetChunk, (WebPMux *mux, const char fourcc[4], const WebPData *chunk_data, int copy_data), (mux, fourcc, chunk_data, copy_data)) \
    FORWARD(webpmux, WebPMuxError, WebPMuxAssemble, (WebPMux *mux, WebPData *assembled_data), (mux, assembled_data)) \
    \
    /* Little CMS 2 (lcms2.h) */ \
    FORWARD(lcms, cmsHPROFILE, cmsOpenProfileFromMem, (const void *MemPtr, cmsUInt32Number dwSize), (MemPtr, dwSize)) \
    FORWARD(lcms, cmsHPROFILE, cmsCreate_sRGBProfile, (void), ()) \
    FORWARD(lcms, cmsHPROFILE, cmsCreateGrayProfile, (const cmsCIExyY *WhitePoint, const cmsToneCurve *TransferFunction), (WhitePoint, TransferFunction)) \
    FORWARD(lcms, cmsToneCurve *, cmsBuildParametricToneCurve, (cmsContext ContextID, cmsInt32Number Type, const cmsFloat64Number Params[]), (ContextID, Type, Params)) \
    FORWARD_VOID(lcms, cmsFreeToneCurve, (cmsToneCurve *Curve), (Curve)) \
    FORWARD(lcms, const cmsCIExyY *, cmsD50_xyY, (void), ()) \
    FORWARD(lcms, cmsBool, cmsCloseProfile, (cmsHPROFILE hProfile), (hProfile)) \
    FORWARD(lcms, cmsColorSpaceSignature, cmsGetColorSpace, (cmsHPROFILE hProfile), (hProfile)) \
    FORWARD(lcms, cmsHTRANSFORM, cmsCreateTransform, (cmsHPROFILE Input, cmsUInt32Number InputFormat, cmsHPROFILE Output, cmsUInt32Number OutputFormat, cmsUInt32Number Intent, cmsUInt32Number dwFlags), (Input, InputFormat, Output, OutputFormat, Intent, dwFlags)) \
    FORWARD_VOID(lcms, cmsDoTransform, (cmsHTRANSFORM Transform, const void *InputBuffer, void *OutputBuffer, cmsUInt32Number Size), (Transform, InputBuffer, OutputBuffer, Size)) \
    FORWARD_VOID(lcms, cmsDeleteTransform, (cmsHTRANSFORM hTransform), (hTransform)) \
    \
    /* libjxl's butteraugli (jxl/butteraugli.h) */ \
    FORWARD(jxl, JxlButteraugliApi *, JxlButteraugliApiCreate, (const JxlMemoryManager *memory_manager), (memory_manager)) \
    FORWARD_VOID(jxl, JxlButteraugliApiDestroy, (JxlButteraugliApi *api), (api)) \
    FORWARD(jxl, JxlButteraugliResult *, JxlButteraugliCompute, (const JxlButteraugliApi *api, uint32_t xsize, uint32_t ysize, const JxlPixelFormat *pixel_format_orig, const void *buffer_orig, size_t size_orig, const JxlPixelFormat *pixel_format_dist, const void *buffer_dist, size_t size_dist), (api, xsize, ysize, pixel_format_orig, buffer_orig, size_orig, pixel_format_dist, buffer_dist, size_dist)) \
    FORWARD_VOID(jxl, JxlButteraugliResultGetDistmap, (const JxlButteraugliResult *result, const float **buffer, uint32_t *row_stride), (result, buffer, row_stride)) \
    FORWARD_VOID(jxl, JxlButteraugliResultDestroy, (JxlButteraugliResult *result), (result))

/* The resolved functions, each set by codecs_load before its library counts as loaded. */
#define SLOT(library, result, name, parameters, arguments) __typeof__(name) *name;
#define SLOT_VOID(library, name, parameters, arguments) __typeof__(name) *name;
static struct { CODEC_FUNCTIONS(SLOT, SLOT_VOID) } functions;

struct symbol {
    struct library *library;
    const char *name;
    void **slot;
};
#define SYMBOL(library, result, name, parameters, arguments) { &lib_##library, #name, (void **)&functions.name },
#define SYMBOL_VOID(library, name, parameters, arguments) { &lib_##library, #name, (void **)&functions.name },
static const struct symbol symbols[] = { CODEC_FUNCTIONS(SYMBOL, SYMBOL_VOID) };
#define SYMBOL_COUNT (sizeof symbols / sizeof symbols[0])

/* Opens `library` and resolves every function of it, or says why not; a library without one of
   them is not used at all. Called with the library's lock held. */
static int load(struct library *library, char *error, size_t size) {
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        if (error) snprintf(error, size, "%s cannot be loaded (%s); install it (Debian: apt-get install %s)",
                            library->soname, dlerror(), library->package);
        return -1;
    }
    void *found[SYMBOL_COUNT];
    for (size_t i = 0; i < SYMBOL_COUNT; i++) {
        if (symbols[i].library != library) continue;
        found[i] = dlsym(handle, symbols[i].name);
        if (!found[i]) {
            if (error) snprintf(error, size, "%s has no function %s (an incompatible version?); install %s",
                                library->soname, symbols[i].name, library->package);
            dlclose(handle);
            return -1;
        }
    }
    for (size_t i = 0; i < SYMBOL_COUNT; i++)
        if (symbols[i].library == library) *symbols[i].slot = found[i];
    __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
    return 0;
}

int codecs_load(enum codecs_library which, char *error, unsigned long size) {
    if ((size_t)which >= sizeof libraries / sizeof libraries[0]) {
        if (error) snprintf(error, size, "no codec library number %d", (int)which);
        return -1;
    }
    struct library *library = libraries[which];
    if (__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&library->lock);
    int status = library->loaded ? 0 : load(library, error, size);
    pthread_mutex_unlock(&library->lock);
    return status;
}

int codecs_load_all(char *error, unsigned long size) {
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++)
        if (codecs_load((enum codecs_library)i, error, size) != 0) return -1;
    return 0;
}

/* A forwarder called before codecs_load succeeded for its library: a bug in the caller (every
   path to a codec loads its library first and reports a failure as an error), not a condition
   a process meets at run time. */
static void unloaded(const char *name) {
    fprintf(stderr, "PhotoPipeline: %s was called before its library was loaded (codecs_load)\n", name);
    abort();
}

/* Each forwarder has the library's own prototype, as the callers see it (checked). */
#define FORWARD_DEFINITION(library, result, name, parameters, arguments) \
    result lazy_##name parameters { \
        if (__builtin_expect(!functions.name, 0)) unloaded(#name); \
        return functions.name arguments; \
    } \
    _Static_assert(__builtin_types_compatible_p(__typeof__(name), __typeof__(lazy_##name)), #name "'s prototype");
#define FORWARD_VOID_DEFINITION(library, name, parameters, arguments) \
    void lazy_##name parameters { \
        if (__builtin_expect(!functions.name, 0)) unloaded(#name); \
        functions.name arguments; \
    } \
    _Static_assert(__builtin_types_compatible_p(__typeof__(name), __typeof__(lazy_##name)), #name "'s prototype");
CODEC_FUNCTIONS(FORWARD_DEFINITION, FORWARD_VOID_DEFINITION)
