#pragma once
// One HEVC-coded HEIF image (a whole picture or one tile of a grid) decoded with libde265, which is
// loaded on first use like libheif (heif_lazy.h). libheif 1.15 converts every decoded picture to
// RGB (grids are assembled in RGB); this hands back the decoder's own Y, Cb and Cr planes.
#include <stddef.h>
#include <stdint.h>

/// A decoded picture: planes owned by the decoder until pj_hevc_release().
typedef struct {
    const uint8_t *planes[3];
    int strides[3];
    /// Luma size; chroma follows chroma_format (0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4).
    int width, height;
    int chroma_format;
    int bits_per_sample;
    /// From the bitstream's VUI (2 = unspecified when it has none).
    int matrix_coefficients, colour_primaries, transfer_characteristics, full_range;
    void *decoder;
} pj_hevc_picture;

/// Loads libde265 once (thread-safe): 1 when it can be used, else 0 and pj_hevc_load_error() says why.
int pj_hevc_load(void);
const char *pj_hevc_load_error(void);

/// Decodes `stream`: NAL units, each after a 4-byte big-endian length (the parameter sets first).
/// Returns 0 with `out` filled when exactly one picture came out without errors or warnings;
/// else nonzero with `error` saying what libde265 reported. `threads` 0 decodes on the calling
/// thread; more lets libde265 decode wavefront rows (WPP) and slices in parallel.
int pj_hevc_decode(const uint8_t *stream, size_t size, int threads, pj_hevc_picture *out, char *error, size_t error_size);

/// Frees the picture's decoder (and with it the planes).
void pj_hevc_release(pj_hevc_picture *picture);
