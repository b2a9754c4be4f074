// See include/heif_lazy.h.
#include "heif_lazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    __typeof__(heif_context_alloc) *heif_context_alloc;
    __typeof__(heif_context_free) *heif_context_free;
    __typeof__(heif_context_read_from_memory_without_copy) *heif_context_read_from_memory_without_copy;
    __typeof__(heif_context_get_primary_image_handle) *heif_context_get_primary_image_handle;
    __typeof__(heif_image_handle_release) *heif_image_handle_release;
    __typeof__(heif_image_handle_get_width) *heif_image_handle_get_width;
    __typeof__(heif_image_handle_get_height) *heif_image_handle_get_height;
    __typeof__(heif_image_handle_get_ispe_width) *heif_image_handle_get_ispe_width;
    __typeof__(heif_image_handle_get_ispe_height) *heif_image_handle_get_ispe_height;
    __typeof__(heif_image_handle_get_luma_bits_per_pixel) *heif_image_handle_get_luma_bits_per_pixel;
    __typeof__(heif_image_handle_has_alpha_channel) *heif_image_handle_has_alpha_channel;
    __typeof__(heif_context_get_number_of_top_level_images) *heif_context_get_number_of_top_level_images;
    __typeof__(heif_image_handle_get_number_of_thumbnails) *heif_image_handle_get_number_of_thumbnails;
    __typeof__(heif_image_handle_get_list_of_metadata_block_IDs) *heif_image_handle_get_list_of_metadata_block_IDs;
    __typeof__(heif_image_handle_get_metadata_size) *heif_image_handle_get_metadata_size;
    __typeof__(heif_image_handle_get_metadata) *heif_image_handle_get_metadata;
    __typeof__(heif_image_handle_get_raw_color_profile_size) *heif_image_handle_get_raw_color_profile_size;
    __typeof__(heif_image_handle_get_raw_color_profile) *heif_image_handle_get_raw_color_profile;
    __typeof__(heif_image_handle_get_nclx_color_profile) *heif_image_handle_get_nclx_color_profile;
    __typeof__(heif_nclx_color_profile_free) *heif_nclx_color_profile_free;
    __typeof__(heif_decoding_options_alloc) *heif_decoding_options_alloc;
    __typeof__(heif_decoding_options_free) *heif_decoding_options_free;
    __typeof__(heif_context_set_maximum_image_size_limit) *heif_context_set_maximum_image_size_limit;
    __typeof__(heif_decode_image) *heif_decode_image;
    __typeof__(heif_image_release) *heif_image_release;
    __typeof__(heif_image_get_width) *heif_image_get_width;
    __typeof__(heif_image_get_height) *heif_image_get_height;
    __typeof__(heif_image_get_bits_per_pixel_range) *heif_image_get_bits_per_pixel_range;
    __typeof__(heif_image_get_plane_readonly) *heif_image_get_plane_readonly;
} heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define RESOLVE(name) \
    if (!(*(void **)&heif.name = dlsym(library, #name))) { \
        snprintf(load_error, sizeof load_error, "libheif.so.1 has no %s", #name); \
        return; \
    }
    RESOLVE(heif_context_alloc)
    RESOLVE(heif_context_free)
    RESOLVE(heif_context_read_from_memory_without_copy)
    RESOLVE(heif_context_get_primary_image_handle)
    RESOLVE(heif_image_handle_release)
    RESOLVE(heif_image_handle_get_width)
    RESOLVE(heif_image_handle_get_height)
    RESOLVE(heif_image_handle_get_ispe_width)
    RESOLVE(heif_image_handle_get_ispe_height)
    RESOLVE(heif_image_handle_get_luma_bits_per_pixel)
    RESOLVE(heif_image_handle_has_alpha_channel)
    RESOLVE(heif_context_get_number_of_top_level_images)
    RESOLVE(heif_image_handle_get_number_of_thumbnails)
    RESOLVE(heif_image_handle_get_list_of_metadata_block_IDs)
    RESOLVE(heif_image_handle_get_metadata_size)
    RESOLVE(heif_image_handle_get_metadata)
    RESOLVE(heif_image_handle_get_raw_color_profile_size)
    RESOLVE(heif_image_handle_get_raw_color_profile)
    RESOLVE(heif_image_handle_get_nclx_color_profile)
    RESOLVE(heif_nclx_color_profile_free)
    RESOLVE(heif_decoding_options_alloc)
    RESOLVE(heif_decoding_options_free)
    RESOLVE(heif_context_set_maximum_image_size_limit)
    RESOLVE(heif_decode_image)
    RESOLVE(heif_image_release)
    RESOLVE(heif_image_get_width)
    RESOLVE(heif_image_get_height)
    RESOLVE(heif_image_get_bits_per_pixel_range)
    RESOLVE(heif_image_get_plane_readonly)
#undef RESOLVE
    loaded = 1;
}

int lazy_heif_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *lazy_heif_load_error(void) { return load_error; }

struct heif_context* lazy_heif_context_alloc(void) { return heif.heif_context_alloc(); }
void lazy_heif_context_free(struct heif_context* ctx) { heif.heif_context_free(ctx); }
struct heif_error lazy_heif_context_read_from_memory_without_copy(struct heif_context* ctx, const void* mem, size_t size, const struct heif_reading_options* options) { return heif.heif_context_read_from_memory_without_copy(ctx, mem, size, options); }
struct heif_error lazy_heif_context_get_primary_image_handle(struct heif_context* ctx, struct heif_image_handle** handle) { return heif.heif_context_get_primary_image_handle(ctx, handle); }
void lazy_heif_image_handle_release(const struct heif_image_handle* handle) { heif.heif_image_handle_release(handle); }
int lazy_heif_image_handle_get_width(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_width(handle); }
int lazy_heif_image_handle_get_height(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_height(handle); }
int lazy_heif_image_handle_get_ispe_width(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_ispe_width(handle); }
int lazy_heif_image_handle_get_ispe_height(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_ispe_height(handle); }
int lazy_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_luma_bits_per_pixel(handle); }
int lazy_heif_image_handle_has_alpha_channel(const struct heif_image_handle* handle) { return heif.heif_image_handle_has_alpha_channel(handle); }
int lazy_heif_context_get_number_of_top_level_images(struct heif_context* ctx) { return heif.heif_context_get_number_of_top_level_images(ctx); }
int lazy_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_number_of_thumbnails(handle); }
int lazy_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle* handle, const char* type_filter, heif_item_id* ids, int count) { return heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, type_filter, ids, count); }
size_t lazy_heif_image_handle_get_metadata_size(const struct heif_image_handle* handle, heif_item_id metadata_id) { return heif.heif_image_handle_get_metadata_size(handle, metadata_id); }
struct heif_error lazy_heif_image_handle_get_metadata(const struct heif_image_handle* handle, heif_item_id metadata_id, void* out_data) { return heif.heif_image_handle_get_metadata(handle, metadata_id, out_data); }
size_t lazy_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle* handle) { return heif.heif_image_handle_get_raw_color_profile_size(handle); }
struct heif_error lazy_heif_image_handle_get_raw_color_profile(const struct heif_image_handle* handle, void* out_data) { return heif.heif_image_handle_get_raw_color_profile(handle, out_data); }
struct heif_error lazy_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle* handle, struct heif_color_profile_nclx** out_data) { return heif.heif_image_handle_get_nclx_color_profile(handle, out_data); }
void lazy_heif_nclx_color_profile_free(struct heif_color_profile_nclx* nclx_profile) { heif.heif_nclx_color_profile_free(nclx_profile); }
struct heif_decoding_options* lazy_heif_decoding_options_alloc(void) { return heif.heif_decoding_options_alloc(); }
void lazy_heif_decoding_options_free(struct heif_decoding_options* options) { heif.heif_decoding_options_free(options); }
void lazy_heif_context_set_maximum_image_size_limit(struct heif_context* ctx, int maximum_width) { heif.heif_context_set_maximum_image_size_limit(ctx, maximum_width); }
struct heif_error lazy_heif_decode_image(const struct heif_image_handle* in_handle, struct heif_image** out_img, enum heif_colorspace colorspace, enum heif_chroma chroma, const struct heif_decoding_options* options) { return heif.heif_decode_image(in_handle, out_img, colorspace, chroma, options); }
void lazy_heif_image_release(const struct heif_image* image) { heif.heif_image_release(image); }
int lazy_heif_image_get_width(const struct heif_image* image, enum heif_channel channel) { return heif.heif_image_get_width(image, channel); }
int lazy_heif_image_get_height(const struct heif_image* image, enum heif_channel channel) { return heif.heif_image_get_height(image, channel); }
int lazy_heif_image_get_bits_per_pixel_range(const struct heif_image* image, enum heif_channel channel) { return heif.heif_image_get_bits_per_pixel_range(image, channel); }
const uint8_t* lazy_heif_image_get_plane_readonly(const struct heif_image* image, enum heif_channel channel, int* out_stride) { return heif.heif_image_get_plane_readonly(image, channel, out_stride); }
