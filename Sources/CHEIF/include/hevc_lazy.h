#pragma once
// One HEVC-coded HEIF image (a whole picture or one tile of a grid) decoded with libde265, which is
// loaded on first use like libheif (heif_lazy.h). libheif 1.15 converts every decoded picture to
// RGB (grids are assembled in RGB); this hands back the decoder's own Y, Cb and Cr planes.
#include "coded_picture.h"

/// Loads libde265 once (thread-safe): 1 when it can be used, else 0.
int pj_hevc_load(void);

/// Decodes `stream`: NAL units, each after a 4-byte big-endian length (the parameter sets first).
/// Returns 0 with `out` filled when exactly one picture came out without errors or warnings; else
/// nonzero (the caller falls back to libheif, which names the problem). `threads` 0 decodes on
/// the calling thread; more lets libde265 decode wavefront rows (WPP) and slices in parallel.
int pj_hevc_decode(const uint8_t *stream, size_t size, int threads, pj_coded_picture *out);

/// Frees the picture's decoder (and with it the planes).
void pj_hevc_release(pj_coded_picture *picture);
