// See include/hevc_lazy.h. libde265's API: https://github.com/strukturag/libde265/blob/v1.0.11/libde265/de265.h
#include "hevc_lazy.h"

#include <dlfcn.h>
#include <libde265/de265.h>
#include <pthread.h>
#include <string.h>

static struct {
    __typeof__(de265_new_decoder) *new_decoder;
    __typeof__(de265_free_decoder) *free_decoder;
    __typeof__(de265_start_worker_threads) *start_worker_threads;
    __typeof__(de265_push_NAL) *push_NAL;
    __typeof__(de265_flush_data) *flush_data;
    __typeof__(de265_decode) *decode;
    __typeof__(de265_get_next_picture) *get_next_picture;
    __typeof__(de265_get_warning) *get_warning;
    __typeof__(de265_get_image_width) *image_width;
    __typeof__(de265_get_image_height) *image_height;
    __typeof__(de265_get_chroma_format) *chroma_format;
    __typeof__(de265_get_bits_per_pixel) *bits_per_pixel;
    __typeof__(de265_get_image_plane) *image_plane;
    __typeof__(de265_get_image_full_range_flag) *full_range_flag;
    __typeof__(de265_get_image_colour_primaries) *colour_primaries;
    __typeof__(de265_get_image_matrix_coefficients) *matrix_coefficients;
    __typeof__(de265_get_image_transfer_characteristics) *transfer_characteristics;
} de265;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void) {
    void *library = dlopen("libde265.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define RESOLVE(field, name) \
    if (!(*(void **)&de265.field = dlsym(library, #name))) return;
    RESOLVE(new_decoder, de265_new_decoder)
    RESOLVE(free_decoder, de265_free_decoder)
    RESOLVE(start_worker_threads, de265_start_worker_threads)
    RESOLVE(push_NAL, de265_push_NAL)
    RESOLVE(flush_data, de265_flush_data)
    RESOLVE(decode, de265_decode)
    RESOLVE(get_next_picture, de265_get_next_picture)
    RESOLVE(get_warning, de265_get_warning)
    RESOLVE(image_width, de265_get_image_width)
    RESOLVE(image_height, de265_get_image_height)
    RESOLVE(chroma_format, de265_get_chroma_format)
    RESOLVE(bits_per_pixel, de265_get_bits_per_pixel)
    RESOLVE(image_plane, de265_get_image_plane)
    RESOLVE(full_range_flag, de265_get_image_full_range_flag)
    RESOLVE(colour_primaries, de265_get_image_colour_primaries)
    RESOLVE(matrix_coefficients, de265_get_image_matrix_coefficients)
    RESOLVE(transfer_characteristics, de265_get_image_transfer_characteristics)
#undef RESOLVE
    loaded = 1;
}

int pj_hevc_load(void) {
    pthread_once(&once, load);
    return loaded;
}

static int fail(de265_decoder_context *ctx) {
    de265.free_decoder(ctx);
    return 1;
}

int pj_hevc_decode(const uint8_t *stream, size_t size, int threads, pj_coded_picture *out) {
    memset(out, 0, sizeof *out);
    de265_decoder_context *ctx = de265.new_decoder();
    if (!ctx) return 1;
    if (threads > 0 && de265.start_worker_threads(ctx, threads) != DE265_OK) return fail(ctx);
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return fail(ctx);  // a NAL unit's length cut off
        uint32_t length = (uint32_t)stream[at] << 24 | (uint32_t)stream[at + 1] << 16 | (uint32_t)stream[at + 2] << 8 | stream[at + 3];
        at += 4;
        if (length > size - at || length > INT32_MAX) return fail(ctx);  // a NAL unit past the item's data
        if (de265.push_NAL(ctx, stream + at, (int)length, 0, NULL) != DE265_OK) return fail(ctx);
        at += length;
    }
    de265.flush_data(ctx);
    const struct de265_image *picture = NULL;
    int more = 1, pictures = 0;
    while (more) {
        more = 0;
        if (de265.decode(ctx, &more) != DE265_OK) return fail(ctx);
        // Any warning means a damaged stream, except that a picture without wavefront rows
        // decodes on one thread.
        for (de265_error warning; (warning = de265.get_warning(ctx)) != DE265_OK;) {
            if (warning != DE265_WARNING_NO_WPP_CANNOT_USE_MULTITHREADING) return fail(ctx);
        }
        const struct de265_image *next = de265.get_next_picture(ctx);
        if (next) {
            picture = next;
            pictures++;
        }
    }
    if (pictures != 1 || !picture) return fail(ctx);  // one image item is one picture
    out->width = de265.image_width(picture, 0);
    out->height = de265.image_height(picture, 0);
    out->chroma_format = (int)de265.chroma_format(picture);
    out->bits_per_sample = de265.bits_per_pixel(picture, 0);
    int channels = out->chroma_format == de265_chroma_mono ? 1 : 3;
    for (int c = 0; c < channels; c++) {
        int stride = 0;
        if (de265.bits_per_pixel(picture, c) != out->bits_per_sample) return fail(ctx);
        out->planes[c] = de265.image_plane(picture, c, &stride);
        out->strides[c] = stride;
        if (!out->planes[c]) return fail(ctx);
    }
    out->matrix_coefficients = de265.matrix_coefficients(picture);
    out->colour_primaries = de265.colour_primaries(picture);
    out->transfer_characteristics = de265.transfer_characteristics(picture);
    out->full_range = de265.full_range_flag(picture);
    out->owner[0] = ctx;
    return 0;
}

void pj_hevc_release(pj_coded_picture *picture) {
    if (picture->owner[0]) de265.free_decoder(picture->owner[0]);
    picture->owner[0] = NULL;
}
