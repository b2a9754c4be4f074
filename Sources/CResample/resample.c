#include "resample.h"

#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

// Fixed point, the same in every variant (integer sums are exact, so the AVX2 and the baseline
// loops give the same bytes): weights in Q14 (each sample's sum exactly 1 << 14), horizontally
// filtered rows in Q6 (an 8-bit sample times 64: ±21,000 with Lanczos' overshoot, well inside
// int16), the vertical sum in Q20, rounded to nearest (halves up) and clamped into a byte.
#define H_SHIFT 8
#define V_SHIFT 20

static inline int16_t saturate16(int32_t v) { return v > 32767 ? 32767 : v < -32768 ? -32768 : (int16_t)v; }

/// The weight pair `w[2p], w[2p + 1]` as one 32-bit lane (little-endian: the first tap low).
static inline int32_t pair_at(const int16_t *w, intptr_t p) {
    int32_t pair;
    memcpy(&pair, w + 2 * p, sizeof pair);
    return pair;
}

// MARK: baseline (any CPU)

static void rows8_baseline(PJ_ROWS8_PARAMETERS) {
    (void)pairs, (void)span_lo, (void)span_hi;  /* it reads the rows in place */
    for (intptr_t col = col_lo; col < col_hi; col++) {
        const int16_t *w = weights + col * stride;
        const intptr_t start = starts[col];
        for (int r = 0; r < 8; r++) {
            int32_t sum = 0;
            for (intptr_t k = 0; k < 2 * pair_taps; k++) {
                const intptr_t x = start + k;
                sum += (int32_t)w[k] * (x < width ? rows[r][x] : 0);
            }
            out[r][col - col_lo] = saturate16((sum + (1 << (H_SHIFT - 1))) >> H_SHIFT);
        }
    }
}

static void combine_baseline(PJ_COMBINE_PARAMETERS) {
    for (intptr_t x = 0; x < width; x++) {
        int32_t sum = 0;
        for (intptr_t k = 0; k < taps; k++) sum += (int32_t)weights[k] * rows[k][x];
        const int32_t v = (sum + (1 << (V_SHIFT - 1))) >> V_SHIFT;
        out[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

// MARK: AVX2

#if defined(__x86_64__)
#define AVX2 __attribute__((target("avx2")))

/// Transposes eight vectors of eight 32-bit lanes (`a[r][c]` → `t[c][r]`) in place.
#define TRANSPOSE8x32(a0, a1, a2, a3, a4, a5, a6, a7)                                                  \
    do {                                                                                             \
        __m256 f0 = _mm256_castsi256_ps(a0), f1 = _mm256_castsi256_ps(a1);                           \
        __m256 f2 = _mm256_castsi256_ps(a2), f3 = _mm256_castsi256_ps(a3);                           \
        __m256 f4 = _mm256_castsi256_ps(a4), f5 = _mm256_castsi256_ps(a5);                           \
        __m256 f6 = _mm256_castsi256_ps(a6), f7 = _mm256_castsi256_ps(a7);                           \
        __m256 t0 = _mm256_unpacklo_ps(f0, f1), t1 = _mm256_unpackhi_ps(f0, f1);                     \
        __m256 t2 = _mm256_unpacklo_ps(f2, f3), t3 = _mm256_unpackhi_ps(f2, f3);                     \
        __m256 t4 = _mm256_unpacklo_ps(f4, f5), t5 = _mm256_unpackhi_ps(f4, f5);                     \
        __m256 t6 = _mm256_unpacklo_ps(f6, f7), t7 = _mm256_unpackhi_ps(f6, f7);                     \
        __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);           \
        __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);           \
        __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);           \
        __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);           \
        a0 = _mm256_castps_si256(_mm256_permute2f128_ps(u0, u4, 0x20));                              \
        a1 = _mm256_castps_si256(_mm256_permute2f128_ps(u1, u5, 0x20));                              \
        a2 = _mm256_castps_si256(_mm256_permute2f128_ps(u2, u6, 0x20));                              \
        a3 = _mm256_castps_si256(_mm256_permute2f128_ps(u3, u7, 0x20));                              \
        a4 = _mm256_castps_si256(_mm256_permute2f128_ps(u0, u4, 0x31));                              \
        a5 = _mm256_castps_si256(_mm256_permute2f128_ps(u1, u5, 0x31));                              \
        a6 = _mm256_castps_si256(_mm256_permute2f128_ps(u2, u6, 0x31));                              \
        a7 = _mm256_castps_si256(_mm256_permute2f128_ps(u3, u7, 0x31));                              \
    } while (0)

/// Output column `col` of the eight rows (one 32-bit sum per row): a pair of taps per multiply-add.
AVX2 static inline __m256i filter_column(const int16_t *pairs, const int16_t *weights, intptr_t stride,
                                         const intptr_t *starts, intptr_t pair_taps, intptr_t col) {
    const int16_t *w = weights + col * stride;
    const int16_t *p = pairs + 16 * starts[col];
    __m256i s = _mm256_setzero_si256(), t = _mm256_setzero_si256();
    intptr_t k = 0;
    for (; k + 2 <= pair_taps; k += 2) {
        s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(p + 32 * k)), _mm256_set1_epi32(pair_at(w, k))));
        t = _mm256_add_epi32(t, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(p + 32 * k + 32)),
                                                  _mm256_set1_epi32(pair_at(w, k + 1))));
    }
    if (k < pair_taps) {
        s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(p + 32 * k)), _mm256_set1_epi32(pair_at(w, k))));
    }
    return _mm256_add_epi32(s, t);
}

AVX2 static inline __m256i round_h(__m256i v) {
    return _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << (H_SHIFT - 1))), H_SHIFT);
}

/// Stores the eight int16s of rows `r` and `r + 1` (32-bit sums, rounded and saturated).
AVX2 static inline void store_two_rows(__m256i a, __m256i b, int16_t *ra, int16_t *rb) {
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(round_h(a), round_h(b)), 0xD8);
    _mm_storeu_si128((__m128i *)ra, _mm256_castsi256_si128(packed));
    _mm_storeu_si128((__m128i *)rb, _mm256_extracti128_si256(packed, 1));
}

AVX2 static void rows8_avx2(PJ_ROWS8_PARAMETERS) {
    // Stage columns x…x+1 of the eight rows as pairs: pairs[16 x + 2 r + {0, 1}] = rows[r][x], rows[r][x + 1]
    // (zero past the row), for every column a tap pair may start at.
    const intptr_t stage_hi = span_hi + 2 * pair_taps;
    intptr_t x = span_lo;
    for (; x + 8 < width && x + 8 <= stage_hi; x += 8) {
        __m256i q[8];
        for (int r = 0; r < 8; r++) {
            const __m128i a = _mm_loadl_epi64((const __m128i *)(rows[r] + x));
            const __m128i b = _mm_loadl_epi64((const __m128i *)(rows[r] + x + 1));
            q[r] = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(a, b));
        }
        TRANSPOSE8x32(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
        for (int j = 0; j < 8; j++) _mm256_storeu_si256((__m256i *)(pairs + 16 * (x + j)), q[j]);
    }
    for (; x < stage_hi; x++) {
        for (int r = 0; r < 8; r++) {
            pairs[16 * x + 2 * r] = x < width ? rows[r][x] : 0;
            pairs[16 * x + 2 * r + 1] = x + 1 < width ? rows[r][x + 1] : 0;
        }
    }
    intptr_t col = col_lo;
    for (; col + 8 <= col_hi; col += 8) {
        __m256i c0 = filter_column(pairs, weights, stride, starts, pair_taps, col);
        __m256i c1 = filter_column(pairs, weights, stride, starts, pair_taps, col + 1);
        __m256i c2 = filter_column(pairs, weights, stride, starts, pair_taps, col + 2);
        __m256i c3 = filter_column(pairs, weights, stride, starts, pair_taps, col + 3);
        __m256i c4 = filter_column(pairs, weights, stride, starts, pair_taps, col + 4);
        __m256i c5 = filter_column(pairs, weights, stride, starts, pair_taps, col + 5);
        __m256i c6 = filter_column(pairs, weights, stride, starts, pair_taps, col + 6);
        __m256i c7 = filter_column(pairs, weights, stride, starts, pair_taps, col + 7);
        TRANSPOSE8x32(c0, c1, c2, c3, c4, c5, c6, c7);
        const intptr_t o = col - col_lo;
        store_two_rows(c0, c1, out[0] + o, out[1] + o);
        store_two_rows(c2, c3, out[2] + o, out[3] + o);
        store_two_rows(c4, c5, out[4] + o, out[5] + o);
        store_two_rows(c6, c7, out[6] + o, out[7] + o);
    }
    for (; col < col_hi; col++) {
        int32_t sums[8];
        _mm256_storeu_si256((__m256i *)sums, round_h(filter_column(pairs, weights, stride, starts, pair_taps, col)));
        for (int r = 0; r < 8; r++) out[r][col - col_lo] = saturate16(sums[r]);
    }
}

AVX2 static inline __m256i round_v(__m256i v) {
    return _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << (V_SHIFT - 1))), V_SHIFT);
}

AVX2 static void combine_avx2(PJ_COMBINE_PARAMETERS) {
    const __m256i zero = _mm256_setzero_si256();
    // 16 samples at a time (`width` is a multiple of 16): rows k and k + 1 interleaved, a pair of taps
    // per multiply-add; unpack works within 128-bit lanes, and the two packs put the samples back in order.
    for (intptr_t x = 0; x < width; x += 16) {
        __m256i lo = zero, hi = zero;
        intptr_t k = 0;
        for (; k + 2 <= taps; k += 2) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[k] + x));
            const __m256i b = _mm256_loadu_si256((const __m256i *)(rows[k + 1] + x));
            const __m256i w = _mm256_set1_epi32(pair_at(weights, k / 2));
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), w));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), w));
        }
        if (k < taps) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[k] + x));
            const __m256i w = _mm256_set1_epi32((int32_t)(uint16_t)weights[k]);
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, zero), w));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, zero), w));
        }
        const __m256i words = _mm256_packs_epi32(round_v(lo), round_v(hi));
        const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128((__m128i *)(out + x), _mm256_castsi256_si128(bytes));
    }
}

/// AVX2, with the OS saving the YMM registers: two CPUID leaves and XGETBV. Not target_clones:
/// its resolver runs libgcc's whole CPU survey (dozens of CPUID instructions, each a trap to the
/// hypervisor in a VM) at every process start, a third of `petspot --version`'s own time.
static int has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (osxsave | avx)) != (osxsave | avx)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;   /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 5) & 1;           /* AVX2 */
}
#endif

/// The variants of both loops for one instruction set.
struct kernels {
    void (*rows8)(PJ_ROWS8_PARAMETERS);
    void (*combine)(PJ_COMBINE_PARAMETERS);
};
static const struct kernels baseline = { rows8_baseline, combine_baseline };
#if defined(__x86_64__)
static const struct kernels avx2 = { rows8_avx2, combine_avx2 };
#endif

/// The variants for this CPU, picked on first use (two threads may race to the same answer).
static const struct kernels *chosen(void) {
    static const struct kernels *picked;
    const struct kernels *k = __atomic_load_n(&picked, __ATOMIC_ACQUIRE);
    if (!k) {
#if defined(__x86_64__)
        k = has_avx2() ? &avx2 : &baseline;
#else
        k = &baseline;
#endif
        __atomic_store_n(&picked, k, __ATOMIC_RELEASE);
    }
    return k;
}

void pj_resize_rows8(PJ_ROWS8_PARAMETERS) { chosen()->rows8(PJ_ROWS8_ARGUMENTS); }

void pj_resize_combine(PJ_COMBINE_PARAMETERS) { chosen()->combine(PJ_COMBINE_ARGUMENTS); }

void pj_resize_rows8_baseline(PJ_ROWS8_PARAMETERS) { rows8_baseline(PJ_ROWS8_ARGUMENTS); }

void pj_resize_combine_baseline(PJ_COMBINE_PARAMETERS) { combine_baseline(PJ_COMBINE_ARGUMENTS); }

int pj_resize_uses_avx2(void) { return chosen() != &baseline; }
