#pragma once
// One AV1-coded AVIF image decoded with dav1d, loaded on first use (as libheif is, heif_lazy.h):
// the decoder's own Y, U and V planes, where libheif 1.15 would convert them to RGB.
#include <stddef.h>
#include <stdint.h>

/// A decoded picture: planes owned by dav1d until pj_av1_release().
typedef struct {
    const uint8_t *planes[3];
    ptrdiff_t strides[3];
    int width, height;
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (dav1d's layout order).
    int layout;
    int bits_per_sample;
    /// From the sequence header (2 = unspecified).
    int matrix_coefficients, colour_primaries, transfer_characteristics, full_range;
    void *picture;
    void *context;
} pj_av1_picture;

/// Loads libdav1d once (thread-safe): 1 when it can be used, else 0 and pj_av1_load_error() says why.
int pj_av1_load(void);
const char *pj_av1_load_error(void);

/// Decodes `data` (the av1C configuration OBUs, then the item's OBUs) on up to `threads` threads,
/// refusing a frame of more than `max_pixels`. Returns 0 with `out` filled when a picture came out,
/// else nonzero with `error` saying what dav1d reported.
int pj_av1_decode(const uint8_t *data, size_t size, int threads, unsigned max_pixels, pj_av1_picture *out,
                  char *error, size_t error_size);

void pj_av1_release(pj_av1_picture *picture);
