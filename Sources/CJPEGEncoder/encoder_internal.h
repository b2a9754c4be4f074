#ifndef PETSPOT_JPEG_ENCODER_INTERNAL_H
#define PETSPOT_JPEG_ENCODER_INTERNAL_H

#include "jpeg_encoder.h"

#include <stdint.h>

/// Natural-order index of each zigzag position (T.81 figure A.6).
extern const uint8_t pq_zigzag[64];

/// Symbol counts of both component classes (index 0 luma, 1 chroma): DC sizes, AC run/size symbols.
typedef struct {
    uint32_t dc[2][256];
    uint32_t ac[2][256];
} pq_counts;

/// A component class's quantisation, natural order: the table, the factor that turns pq_fdct's
/// output into steps of it, the rounding offset (0.5 less the zero bias), the largest level.
typedef struct {
    uint16_t table[64];
    float to_steps[64];
    float offset[64];
    int32_t limit[64];
} pq_quantiser;

void pq_make_quantiser(pq_quantiser *quantiser, const uint16_t table[64]);

/// The quantisation tables (natural order) for `quality` and component class `class`.
void pq_quality_table(int quality, int class, uint16_t table[64]);

/// One block's levels (natural order, as libjpeg stores them) from its transform; returns the
/// nonzero ones (bit i for natural index i). The AVX2 row kernel gives the same.
uint64_t pq_levels_baseline(const float transform[64], const pq_quantiser *quantiser, int16_t levels[64]);

/// Transforms and quantises `blocks` blocks of one block row (8 rows of samples `stride` bytes
/// apart, the blocks side by side): each block's levels (natural order) and its nonzero mask.
typedef void (*pq_row_kernel)(const uint8_t *samples, size_t stride, int blocks, const pq_quantiser *quantiser,
                              int16_t (*levels)[64], uint64_t *nonzero);
/// The AVX2 kernel where the CPU has it (unless `baseline`), else the one for any CPU.
pq_row_kernel pq_choose_row_kernel(int baseline);

/// Makes the tables pq_count_symbols reads (once per process; thread-safe).
void pq_prepare_symbols(void);
/// Counts the AC symbols of one block's levels (natural order; `nonzero` as the levels give it).
void pq_count_symbols(const int16_t levels[64], uint64_t nonzero, uint32_t ac[256]);

/// Huffman tables from counts (T.81 K.2): `bits[1…16]` codes of each length, `values` the symbols.
void pq_huffman_table(const uint32_t counts[256], uint8_t bits[17], uint8_t values[256], int *value_count);

/// Bits of a magnitude category: 0 for 0, 1 for ±1, 2 for ±2…3, …
static inline int pq_size_category(int value) {
    unsigned v = (unsigned)(value < 0 ? -value : value);
    return v ? 32 - __builtin_clz(v) : 0;
}

#endif
