#pragma once
// A picture decoded by libde265 (hevc_lazy.h) or dav1d (av1_lazy.h), described the same way for both.
#include <stddef.h>
#include <stdint.h>

/// Planes owned by the decoder until its release function (pj_hevc_release, pj_av1_release) is called.
typedef struct {
    const uint8_t *planes[3];
    ptrdiff_t strides[3];
    /// Luma size; chroma follows chroma_format (0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4: both
    /// codecs number their layouts so).
    int width, height;
    int chroma_format;
    int bits_per_sample;
    /// From the bitstream (HEVC VUI, AV1 sequence header); 2 = unspecified.
    int matrix_coefficients, colour_primaries, transfer_characteristics, full_range;
    /// What the release function frees (the codec's picture and decoder).
    void *owner[2];
} pj_coded_picture;
