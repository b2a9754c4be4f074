#ifndef PETSPOT_RESAMPLE_H
#define PETSPOT_RESAMPLE_H

#include <stdint.h>

/// The two inner loops of a plane's separable resize (Swift's PlaneResizer keeps the ring of rows
/// and decides what runs when), in fixed point: weights in Q14 (each output sample's summing to
/// exactly 1 << 14), horizontally filtered rows as int16 in Q6. Each loop is built for AVX2
/// (16 multiply-adds an instruction, a pair of taps at a time) and for any CPU; the first call
/// picks one for the machine, and both give the same bytes.

#define PJ_ROWS8_PARAMETERS const uint8_t *const rows[8], intptr_t width, intptr_t span_lo, intptr_t span_hi, \
    int16_t *pairs, const int16_t *weights, intptr_t stride, const intptr_t *starts, intptr_t pair_taps,   \
    intptr_t col_lo, intptr_t col_hi, int16_t *const out[8]
#define PJ_ROWS8_ARGUMENTS rows, width, span_lo, span_hi, pairs, weights, stride, starts, pair_taps, col_lo, col_hi, out
#define PJ_COMBINE_PARAMETERS const int16_t *const *rows, const int16_t *weights, intptr_t taps, intptr_t width, uint8_t *out
#define PJ_COMBINE_ARGUMENTS rows, weights, taps, width, out

/// Filters eight source rows (`rows[0…7]`, `width` 8-bit samples each) horizontally into
/// `out[r][col - col_lo]` for output columns `col_lo..<col_hi` (Q6, rounded): column `col` sums
/// `2 · pair_taps` samples from `starts[col]` (zero past the row) times `weights[col · stride …]`
/// (zero past its own taps). Columns `span_lo..<span_hi` are those the columns read; `pairs` is
/// scratch for 16 × (span_hi + 2 · pair_taps) int16s.
void pj_resize_rows8(PJ_ROWS8_PARAMETERS);

/// One output row from `taps` horizontally filtered rows (`rows[k]`, `width` Q6 samples each,
/// `width` a multiple of 16) weighted by `weights[k]` (Q14): rounded to nearest, clamped into `out`.
void pj_resize_combine(PJ_COMBINE_PARAMETERS);

/// The loops for any CPU, whichever the machine runs (the tests compare the two).
void pj_resize_rows8_baseline(PJ_ROWS8_PARAMETERS);
void pj_resize_combine_baseline(PJ_COMBINE_PARAMETERS);

/// Whether the AVX2 variants run on this machine (checked by the tests against /proc/cpuinfo).
int pj_resize_uses_avx2(void);

#endif
