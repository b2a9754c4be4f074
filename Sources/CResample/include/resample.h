#ifndef PETSPOT_RESAMPLE_H
#define PETSPOT_RESAMPLE_H

#include <stdint.h>

/// The two inner loops of a plane's separable resize (Swift's PlaneResizer keeps the ring of rows
/// and decides what runs when). Each is compiled twice, for AVX2 + FMA (eight floats an
/// instruction) and for the baseline; the first call picks one for the machine.
///
/// Weights are laid out as FilterContributions keeps them: per output sample `stride` taps, one
/// float each, zero past the sample's own taps.

/// Filters eight source rows (`rows[0…7]`, 8-bit samples) horizontally: their columns
/// `span_lo..<span_hi` are staged in `line` (eight floats per column, one per row), then output
/// columns `col_lo..<col_hi` are written to `out[r][x - col_lo]`. `line` holds 8 × (span_hi + 8) floats.
void pj_resize_rows8(const uint8_t *const rows[8], intptr_t span_lo, intptr_t span_hi, float *line,
                     const float *weights, intptr_t stride, const intptr_t *starts, const intptr_t *counts,
                     intptr_t col_lo, intptr_t col_hi, float *const out[8]);

/// One output row from `taps` horizontally filtered rows (`rows[k]`, `width` floats each, `width`
/// a multiple of 8), weighted by `weights[k]`; rounded to nearest and clamped into `out`.
void pj_resize_combine(const float *const *rows, const float *weights, intptr_t taps, intptr_t width,
                       uint8_t *out);

/// Whether the AVX2 + FMA variants run on this machine (checked by the tests against /proc/cpuinfo).
int pj_resize_uses_avx2(void);

#endif
