// See include/av1_lazy.h. dav1d's API: https://code.videolan.org/videolan/dav1d/-/blob/1.0.0/include/dav1d/dav1d.h
#include "av1_lazy.h"

#include <dav1d/dav1d.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    __typeof__(dav1d_default_settings) *default_settings;
    __typeof__(dav1d_open) *open;
    __typeof__(dav1d_close) *close;
    __typeof__(dav1d_data_create) *data_create;
    __typeof__(dav1d_data_unref) *data_unref;
    __typeof__(dav1d_send_data) *send_data;
    __typeof__(dav1d_get_picture) *get_picture;
    __typeof__(dav1d_picture_unref) *picture_unref;
} av1;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void) {
    void *library = dlopen("libdav1d.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define RESOLVE(field, name) \
    if (!(*(void **)&av1.field = dlsym(library, #name))) return;
    RESOLVE(default_settings, dav1d_default_settings)
    RESOLVE(open, dav1d_open)
    RESOLVE(close, dav1d_close)
    RESOLVE(data_create, dav1d_data_create)
    RESOLVE(data_unref, dav1d_data_unref)
    RESOLVE(send_data, dav1d_send_data)
    RESOLVE(get_picture, dav1d_get_picture)
    RESOLVE(picture_unref, dav1d_picture_unref)
#undef RESOLVE
    loaded = 1;
}

int pj_av1_load(void) {
    pthread_once(&once, load);
    return loaded;
}

int pj_av1_decode(const uint8_t *data, size_t size, int threads, unsigned max_pixels, pj_coded_picture *out) {
    memset(out, 0, sizeof *out);
    Dav1dSettings settings;
    av1.default_settings(&settings);
    settings.n_threads = threads > 0 ? threads : 1;
    settings.max_frame_delay = 1;
    settings.all_layers = 0;
    settings.frame_size_limit = max_pixels;
    Dav1dContext *context = NULL;
    if (av1.open(&context, &settings) != 0) return 1;
    Dav1dPicture *picture = calloc(1, sizeof *picture);
    Dav1dData input = {0};
    uint8_t *buffer = picture ? av1.data_create(&input, size) : NULL;
    if (!buffer) {
        free(picture);
        av1.close(&context);
        return 1;
    }
    memcpy(buffer, data, size);
    int got = 0, status = 0;
    do {
        status = av1.send_data(context, &input);
        if (status < 0 && status != DAV1D_ERR(EAGAIN)) break;
        status = av1.get_picture(context, picture);
        if (status == 0) { got = 1; break; }
        if (status != DAV1D_ERR(EAGAIN)) break;
        status = 0;
    } while (input.sz > 0);
    if (!got && status == 0) {
        // All data sent: drain the frame still being decoded.
        got = av1.get_picture(context, picture) == 0;
    }
    if (input.sz > 0) av1.data_unref(&input);
    if (!got) {
        free(picture);
        av1.close(&context);
        return 1;
    }
    out->width = picture->p.w;
    out->height = picture->p.h;
    out->chroma_format = (int)picture->p.layout;
    out->bits_per_sample = picture->p.bpc;
    for (int c = 0; c < 3; c++) {
        out->planes[c] = picture->data[c];
        out->strides[c] = picture->stride[c == 0 ? 0 : 1];
    }
    out->matrix_coefficients = picture->seq_hdr ? (int)picture->seq_hdr->mtrx : 2;
    out->colour_primaries = picture->seq_hdr ? (int)picture->seq_hdr->pri : 2;
    out->transfer_characteristics = picture->seq_hdr ? (int)picture->seq_hdr->trc : 2;
    out->full_range = picture->seq_hdr ? picture->seq_hdr->color_range : 0;
    out->owner[0] = picture;
    out->owner[1] = context;
    return 0;
}

void pj_av1_release(pj_coded_picture *picture) {
    if (picture->owner[0]) {
        av1.picture_unref(picture->owner[0]);
        free(picture->owner[0]);
    }
    if (picture->owner[1]) {
        Dav1dContext *context = picture->owner[1];
        av1.close(&context);
    }
    picture->owner[0] = picture->owner[1] = NULL;
}
