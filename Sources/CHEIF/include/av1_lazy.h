#pragma once
// One AV1-coded AVIF image decoded with dav1d, loaded on first use (as libheif is, heif_lazy.h):
// the decoder's own Y, U and V planes, where libheif 1.15 would convert them to RGB.
#include "coded_picture.h"

/// Loads libdav1d once (thread-safe): 1 when it can be used, else 0.
int pj_av1_load(void);

/// Decodes `data` (the av1C configuration OBUs, then the item's OBUs) on up to `threads` threads,
/// refusing a frame of more than `max_pixels`. Returns 0 with `out` filled when a picture came
/// out; else nonzero (the caller falls back to libheif, which names the problem).
int pj_av1_decode(const uint8_t *data, size_t size, int threads, unsigned max_pixels, pj_coded_picture *out);

/// Frees the picture and its decoder.
void pj_av1_release(pj_coded_picture *picture);
