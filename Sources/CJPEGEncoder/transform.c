// The transform and the levels, a block row at a time.
//
// The forward DCT: Arai, Agui and Nakajima's factorisation of the 8-point DCT ("A fast DCT-SQ
// scheme for images", Trans. IEICE 1988; as drawn in Pennebaker and Mitchell's "JPEG Still Image
// Data Compression Standard", 1993): five multiplications per 8 points, the outputs scaled by
// s(k) = 2√2 for k = 0 and 4·cos(kπ/16) otherwise, a scale the quantiser folds into its step.
//
// The levels: each coefficient times its factor to steps of the table, its magnitude plus the
// rounding offset truncated (quantise.c says why the offset is under a half), the sign put back.
//
// In floats, the same operations in the same order in both variants: the AVX2 one runs the eight
// columns (then the eight rows) of a block in the lanes of one register each, the baseline one the
// same eight lanes in a loop. IEEE arithmetic gives both the same results; contraction into fused
// multiply-adds is off, as it would round differently.
#include "encoder_internal.h"

#include <math.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#pragma clang fp contract(off)

#define A1 0.707106781186547524f  /* cos(4π/16) */
#define A2 0.541196100146196984f  /* cos(2π/16) − cos(6π/16) */
#define A4 1.306562964876376527f  /* cos(2π/16) + cos(6π/16) */
#define A5 0.382683432365089772f  /* cos(6π/16) */

double pq_aan_scale(int k) { return k == 0 ? 2.0 * sqrt(2.0) : 4.0 * cos(k * M_PI / 16.0); }

/// One 8-point transform across eight "vectors" d0 … d7 (each holding eight lanes), in place:
/// d[k] becomes output k. V is the vector type; ADD, SUB and MUL(v, scalar) its operations.
#define AAN_1D(V, ADD, SUB, MUL, d)                                                           \
    do {                                                                                      \
        V t0 = ADD(d[0], d[7]), t7 = SUB(d[0], d[7]);                                         \
        V t1 = ADD(d[1], d[6]), t6 = SUB(d[1], d[6]);                                         \
        V t2 = ADD(d[2], d[5]), t5 = SUB(d[2], d[5]);                                         \
        V t3 = ADD(d[3], d[4]), t4 = SUB(d[3], d[4]);                                         \
        V e10 = ADD(t0, t3), e13 = SUB(t0, t3);                                               \
        V e11 = ADD(t1, t2), e12 = SUB(t1, t2);                                               \
        d[0] = ADD(e10, e11);                                                                 \
        d[4] = SUB(e10, e11);                                                                 \
        V z1 = MUL(ADD(e12, e13), A1);                                                        \
        d[2] = ADD(e13, z1);                                                                  \
        d[6] = SUB(e13, z1);                                                                  \
        V o10 = ADD(t4, t5), o11 = ADD(t5, t6), o12 = ADD(t6, t7);                            \
        V z5 = MUL(SUB(o10, o12), A5);                                                        \
        V z2 = ADD(MUL(o10, A2), z5);                                                         \
        V z4 = ADD(MUL(o12, A4), z5);                                                         \
        V z3 = MUL(o11, A1);                                                                  \
        V z11 = ADD(t7, z3), z13 = SUB(t7, z3);                                               \
        d[5] = ADD(z13, z2);                                                                  \
        d[3] = SUB(z13, z2);                                                                  \
        d[1] = ADD(z11, z4);                                                                  \
        d[7] = SUB(z11, z4);                                                                  \
    } while (0)

// MARK: baseline (any CPU)

typedef struct { float v[8]; } lanes8;

static inline lanes8 l_add(lanes8 a, lanes8 b) { lanes8 r; for (int i = 0; i < 8; i++) r.v[i] = a.v[i] + b.v[i]; return r; }
static inline lanes8 l_sub(lanes8 a, lanes8 b) { lanes8 r; for (int i = 0; i < 8; i++) r.v[i] = a.v[i] - b.v[i]; return r; }
static inline lanes8 l_mul(lanes8 a, float s) { lanes8 r; for (int i = 0; i < 8; i++) r.v[i] = a.v[i] * s; return r; }

void pq_fdct_baseline(const uint8_t *samples, size_t stride, float out[64]) {
    lanes8 d[8];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) d[y].v[x] = (float)samples[y * stride + x] - 128.0f;
    AAN_1D(lanes8, l_add, l_sub, l_mul, d);  /* vertical: d[v].v[x] */
    lanes8 t[8];
    for (int v = 0; v < 8; v++)
        for (int x = 0; x < 8; x++) t[x].v[v] = d[v].v[x];
    AAN_1D(lanes8, l_add, l_sub, l_mul, t);  /* horizontal: t[u].v[v] */
    for (int u = 0; u < 8; u++)
        for (int v = 0; v < 8; v++) out[v * 8 + u] = t[u].v[v];
}

uint64_t pq_levels_baseline(const float transform[64], const pq_quantiser *q, int16_t out[64]) {
    uint64_t nonzero = 0;
    for (int i = 0; i < 64; i++) {
        float a = transform[i] * q->to_steps[i];
        int level = (int)(fabsf(a) + q->offset[i]);
        if (level > q->limit[i]) level = q->limit[i];
        out[i] = (int16_t)(a < 0 ? -level : level);
        if (level) nonzero |= 1ull << i;
    }
    return nonzero;
}

static void row_baseline(const uint8_t *samples, size_t stride, int blocks, const pq_quantiser *q, int16_t (*levels)[64],
                         uint64_t *nonzero) {
    for (int b = 0; b < blocks; b++) {
        float transform[64];
        pq_fdct_baseline(samples + 8 * b, stride, transform);
        nonzero[b] = pq_levels_baseline(transform, q, levels[b]);
    }
}

// MARK: AVX2

#if defined(__x86_64__)
#define AVX2 __attribute__((target("avx2")))

#define V_ADD(a, b) _mm256_add_ps(a, b)
#define V_SUB(a, b) _mm256_sub_ps(a, b)
#define V_MUL(a, s) _mm256_mul_ps(a, _mm256_set1_ps(s))

AVX2 static inline void transpose8(__m256 r[8]) {
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/// The transform in natural order, one register per row of frequencies (d[v], lane u).
AVX2 __attribute__((always_inline)) static inline void fdct8x8(const uint8_t *samples, size_t stride, __m256 d[8]) {
    const __m256 bias = _mm256_set1_ps(128.0f);
    for (int y = 0; y < 8; y++) {
        __m128i row = _mm_loadl_epi64((const __m128i *)(samples + y * stride));
        d[y] = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(row)), bias);
    }
    AAN_1D(__m256, V_ADD, V_SUB, V_MUL, d);
    transpose8(d);
    AAN_1D(__m256, V_ADD, V_SUB, V_MUL, d);
    transpose8(d);
}

AVX2 static void fdct_avx2(const uint8_t *samples, size_t stride, float out[64]) {
    __m256 d[8];
    fdct8x8(samples, stride, d);
    for (int v = 0; v < 8; v++) _mm256_storeu_ps(out + v * 8, d[v]);
}

AVX2 __attribute__((always_inline)) static inline uint64_t levels8x8(const __m256 d[8], const pq_quantiser *q, int16_t out[64]) {
    const __m256 magnitude_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    uint64_t nonzero = 0;
    for (int r = 0; r < 8; r += 2) {
        __m256i levels[2];
        for (int h = 0; h < 2; h++) {
            const int i = (r + h) * 8;
            __m256 a = _mm256_mul_ps(d[r + h], _mm256_loadu_ps(q->to_steps + i));
            __m256 rounded = _mm256_add_ps(_mm256_and_ps(a, magnitude_mask), _mm256_loadu_ps(q->offset + i));
            __m256i level = _mm256_min_epi32(_mm256_cvttps_epi32(rounded), _mm256_loadu_si256((const __m256i *)(q->limit + i)));
            nonzero |= (uint64_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(level, _mm256_setzero_si256()))) << i;
            /* The sign of the product: negative levels where a < 0 (a zero level stays zero). */
            levels[h] = _mm256_sign_epi32(level, _mm256_or_si256(_mm256_castps_si256(a), _mm256_set1_epi32(1)));
        }
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(levels[0], levels[1]), 0xD8);
        _mm256_storeu_si256((__m256i *)(out + r * 8), packed);
    }
    return nonzero;
}

AVX2 static void row_avx2(const uint8_t *samples, size_t stride, int blocks, const pq_quantiser *q, int16_t (*levels)[64],
                          uint64_t *nonzero) {
    for (int b = 0; b < blocks; b++) {
        __m256 d[8];
        fdct8x8(samples + 8 * b, stride, d);
        nonzero[b] = levels8x8(d, q, levels[b]);
    }
}

static int has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    /* OSXSAVE and AVX, and the OS saves the YMM state */
    if (!(c & (1u << 27)) || !(c & (1u << 28))) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) != 0;
}
#else
static int has_avx2(void) { return 0; }
#endif

static int avx2_state = -1;  /* -1 until the first call: each thread that races computes the same answer */

int pq_uses_avx2(void) {
    int state = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (state < 0) {
        state = has_avx2();
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

void pq_fdct(const uint8_t *samples, size_t stride, float out[64]) {
#if defined(__x86_64__)
    if (pq_uses_avx2()) {
        fdct_avx2(samples, stride, out);
        return;
    }
#endif
    pq_fdct_baseline(samples, stride, out);
}

pq_row_kernel pq_choose_row_kernel(int baseline) {
#if defined(__x86_64__)
    if (!baseline && pq_uses_avx2()) return row_avx2;
#endif
    (void)baseline;
    return row_baseline;
}
