// Quantisation: the tables, and the choice of each block's levels.
//
// Each coefficient's level is its magnitude in steps of the table, rounded down when its fraction
// is below 0.5 + a zero bias: a dead zone (as in Sullivan's "Efficient scalar quantization of
// exponential and Laplacian random variables", IEEE Trans. Information Theory 1996, and the
// "adaptive rounding" of video encoders). A coefficient's true value is more often near zero than
// at the middle of its step, so rounding half of the way up costs more bits than the error it
// saves. The bias is a share of a step; DC is rounded to nearest.
// The levels themselves are chosen with the transform (transform.c).
#include "encoder_internal.h"

#include <pthread.h>
#include <string.h>

const uint8_t pq_zigzag[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
                               41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
                               30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

/* T.81 Annex K, tables K.1 and K.2 (natural order). */
static const uint8_t annex_k[2][64] = {
    {16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
     18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99},
    {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
     99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99},
};

/* The zero bias, a share of a step (see the top of the file). */
#define ZERO_BIAS 0.15f

/* Annex K's tables, with finer steps where butteraugli sees the error more than those tables
   assumed: DC (a step in a smooth area shows as a block) and all of the chroma. The factors were
   chosen by bytes at equal butteraugli distance over the corpus photos (docs/performance.md). */
#define DC_FACTOR 0.7
#define CHROMA_FACTOR 0.7

void pq_quality_table(int quality, int class, uint16_t table[64]) {
    if (quality < 1) quality = 1;
    if (quality > 100) quality = 100;
    /* IJG's scaling: 50 is the table as given, 100 all ones. */
    int scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
    for (int i = 0; i < 64; i++) {
        double base = annex_k[class][i] * (class ? CHROMA_FACTOR : 1.0) * (i == 0 ? DC_FACTOR : 1.0);
        long t = (long)((base * scale + 50) / 100);
        table[i] = (uint16_t)(t < 1 ? 1 : t > 255 ? 255 : t);
    }
}

void pq_make_quantiser(pq_quantiser *q, const uint16_t table[64]) {
    memcpy(q->table, table, sizeof q->table);
    for (int v = 0; v < 8; v++)
        for (int u = 0; u < 8; u++) {
            int i = v * 8 + u;
            q->to_steps[i] = (float)(1.0 / (pq_aan_scale(u) * pq_aan_scale(v) * table[i]));
            q->offset[i] = i == 0 ? 0.5f : 0.5f - ZERO_BIAS;
            q->limit[i] = i == 0 ? 2047 : 1023;  /* baseline's largest DC and AC magnitudes */
        }
}

// MARK: symbols

/* Bit k of zigzag_bits[b][v] is set when bit j of byte v of a natural-order mask (natural index
   8·b + j) is zigzag position k: a mask turned into zigzag order by eight lookups. */
static uint64_t zigzag_bits[8][256];

static void make_zigzag_bits(void) {
    uint8_t zigzag_of_natural[64];
    for (int k = 0; k < 64; k++) zigzag_of_natural[pq_zigzag[k]] = (uint8_t)k;
    for (int b = 0; b < 8; b++)
        for (int v = 0; v < 256; v++) {
            uint64_t bits = 0;
            for (int j = 0; j < 8; j++)
                if (v & (1 << j)) bits |= 1ull << zigzag_of_natural[8 * b + j];
            zigzag_bits[b][v] = bits;
        }
}

void pq_prepare_symbols(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_zigzag_bits);
}

void pq_count_symbols(const int16_t levels[64], uint64_t nonzero, uint32_t ac[256]) {
    nonzero &= ~1ull;
    uint64_t zigzag = 0;
    for (int b = 0; b < 8; b++) zigzag |= zigzag_bits[b][(nonzero >> (8 * b)) & 0xFF];
    /* Zero runs of up to 15 before each level's size, ZRL for 16 zeros, EOB when the block ends
       in zeros. */
    int previous = 0;
    for (uint64_t m = zigzag; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        int run = k - previous - 1;
        for (; run > 15; run -= 16) ac[0xF0]++;
        ac[(run << 4) | pq_size_category(levels[pq_zigzag[k]])]++;
        previous = k;
    }
    if (previous < 63) ac[0x00]++;
}
