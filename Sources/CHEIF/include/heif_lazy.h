#pragma once
// libheif, loaded on first use instead of at start-up.
//
// Linking libheif made every petspot process load libheif, libde265, libx265, dav1d, libaom and
// libnuma and run their static constructors: about half of `petspot --version`'s start-up, paid
// by every JPEG too. These functions have libheif's signatures (heif.h gives the types only) and
// call it through dlopen("libheif.so.1"); call lazy_heif_load() first.
#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>

/// Loads libheif once (thread-safe); 1 when every function below can be called, else 0 and
/// lazy_heif_load_error() says why.
int lazy_heif_load(void);
const char *lazy_heif_load_error(void);
struct heif_context* lazy_heif_context_alloc(void);
void lazy_heif_context_free(struct heif_context* ctx);
struct heif_error lazy_heif_context_read_from_memory_without_copy(struct heif_context* ctx, const void* mem, size_t size, const struct heif_reading_options* options);
struct heif_error lazy_heif_context_get_primary_image_handle(struct heif_context* ctx, struct heif_image_handle** handle);
void lazy_heif_image_handle_release(const struct heif_image_handle* handle);
int lazy_heif_image_handle_get_width(const struct heif_image_handle* handle);
int lazy_heif_image_handle_get_height(const struct heif_image_handle* handle);
int lazy_heif_image_handle_get_ispe_width(const struct heif_image_handle* handle);
int lazy_heif_image_handle_get_ispe_height(const struct heif_image_handle* handle);
int lazy_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle* handle);
int lazy_heif_image_handle_has_alpha_channel(const struct heif_image_handle* handle);
int lazy_heif_context_get_number_of_top_level_images(struct heif_context* ctx);
int lazy_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle* handle);
int lazy_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle* handle, const char* type_filter, heif_item_id* ids, int count);
size_t lazy_heif_image_handle_get_metadata_size(const struct heif_image_handle* handle, heif_item_id metadata_id);
struct heif_error lazy_heif_image_handle_get_metadata(const struct heif_image_handle* handle, heif_item_id metadata_id, void* out_data);
size_t lazy_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle* handle);
struct heif_error lazy_heif_image_handle_get_raw_color_profile(const struct heif_image_handle* handle, void* out_data);
struct heif_error lazy_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle* handle, struct heif_color_profile_nclx** out_data);
void lazy_heif_nclx_color_profile_free(struct heif_color_profile_nclx* nclx_profile);
struct heif_decoding_options* lazy_heif_decoding_options_alloc(void);
void lazy_heif_decoding_options_free(struct heif_decoding_options* options);
void lazy_heif_context_set_maximum_image_size_limit(struct heif_context* ctx, int maximum_width);
struct heif_error lazy_heif_decode_image(const struct heif_image_handle* in_handle, struct heif_image** out_img, enum heif_colorspace colorspace, enum heif_chroma chroma, const struct heif_decoding_options* options);
void lazy_heif_image_release(const struct heif_image* image);
int lazy_heif_image_get_width(const struct heif_image* image, enum heif_channel channel);
int lazy_heif_image_get_height(const struct heif_image* image, enum heif_channel channel);
int lazy_heif_image_get_bits_per_pixel_range(const struct heif_image* image, enum heif_channel channel);
const uint8_t* lazy_heif_image_get_plane_readonly(const struct heif_image* image, enum heif_channel channel, int* out_stride);
