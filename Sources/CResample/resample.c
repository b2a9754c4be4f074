#include "resample.h"

#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

typedef float v8f __attribute__((vector_size(32), aligned(4)));
typedef int32_t v8i __attribute__((vector_size(32), aligned(4)));
typedef uint8_t v8b __attribute__((vector_size(8), aligned(1)));

// Macros, not functions: a helper returning a 256-bit vector would need AVX in its own ABI.
#define load8(p) (*(const v8f *)(p))
#define bytes8(p) __builtin_convertvector(*(const v8b *)(p), v8f)

/// Transposes eight vectors of eight (`a[r][c]` → `t[c][r]`) in place.
#define TRANSPOSE8(a0, a1, a2, a3, a4, a5, a6, a7)                                                    \
    do {                                                                                             \
        v8f t0 = __builtin_shufflevector(a0, a1, 0, 8, 1, 9, 4, 12, 5, 13);                          \
        v8f t1 = __builtin_shufflevector(a0, a1, 2, 10, 3, 11, 6, 14, 7, 15);                        \
        v8f t2 = __builtin_shufflevector(a2, a3, 0, 8, 1, 9, 4, 12, 5, 13);                          \
        v8f t3 = __builtin_shufflevector(a2, a3, 2, 10, 3, 11, 6, 14, 7, 15);                        \
        v8f t4 = __builtin_shufflevector(a4, a5, 0, 8, 1, 9, 4, 12, 5, 13);                          \
        v8f t5 = __builtin_shufflevector(a4, a5, 2, 10, 3, 11, 6, 14, 7, 15);                        \
        v8f t6 = __builtin_shufflevector(a6, a7, 0, 8, 1, 9, 4, 12, 5, 13);                          \
        v8f t7 = __builtin_shufflevector(a6, a7, 2, 10, 3, 11, 6, 14, 7, 15);                        \
        v8f u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);                          \
        v8f u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);                        \
        v8f u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);                          \
        v8f u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);                        \
        v8f u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);                          \
        v8f u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);                        \
        v8f u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);                          \
        v8f u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);                        \
        a0 = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);                              \
        a1 = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);                              \
        a2 = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);                              \
        a3 = __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);                              \
        a4 = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);                            \
        a5 = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);                            \
        a6 = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);                            \
        a7 = __builtin_shufflevector(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);                            \
    } while (0)

/// Output column `col` of all eight rows: Σ weight(k) · column(start + k), one row per lane.
#define FILTER_COLUMN(col, result)                                                                   \
    do {                                                                                             \
        const float *w = weights + (col) * stride;                                                   \
        const float *p = line + starts[col] * 8;                                                     \
        const intptr_t n = counts[col];                                                              \
        v8f s = {0}, t = {0};                                                                        \
        intptr_t k = 0;                                                                              \
        for (; k + 2 <= n; k += 2) {                                                                 \
            s += w[k] * load8(p + 8 * k);                                                            \
            t += w[k + 1] * load8(p + 8 * k + 8);                                                    \
        }                                                                                            \
        if (k < n) s += w[k] * load8(p + 8 * k);                                                     \
        result = s + t;                                                                              \
    } while (0)

/// The bodies, inlined into a baseline and an AVX2 + FMA function each (see the end of the file).
__attribute__((always_inline))
static inline void resize_rows8(const uint8_t *const rows[8], intptr_t span_lo, intptr_t span_hi, float *line,
                                const float *weights, intptr_t stride, const intptr_t *starts, const intptr_t *counts,
                                intptr_t col_lo, intptr_t col_hi, float *const out[8]) {
    intptr_t x = span_lo;
    // Eight columns at a time: eight rows of eight samples, transposed into eight columns of eight.
    for (; x + 8 <= span_hi; x += 8) {
        v8f a0 = bytes8(rows[0] + x), a1 = bytes8(rows[1] + x), a2 = bytes8(rows[2] + x), a3 = bytes8(rows[3] + x);
        v8f a4 = bytes8(rows[4] + x), a5 = bytes8(rows[5] + x), a6 = bytes8(rows[6] + x), a7 = bytes8(rows[7] + x);
        TRANSPOSE8(a0, a1, a2, a3, a4, a5, a6, a7);
        float *o = line + 8 * x;
        *(v8f *)(o + 0) = a0; *(v8f *)(o + 8) = a1; *(v8f *)(o + 16) = a2; *(v8f *)(o + 24) = a3;
        *(v8f *)(o + 32) = a4; *(v8f *)(o + 40) = a5; *(v8f *)(o + 48) = a6; *(v8f *)(o + 56) = a7;
    }
    for (; x < span_hi; x++) {
        for (int r = 0; r < 8; r++) line[8 * x + r] = rows[r][x];
    }
    intptr_t col = col_lo;
    // Eight output columns at a time, transposed back into eight rows of eight.
    for (; col + 8 <= col_hi; col += 8) {
        v8f c0, c1, c2, c3, c4, c5, c6, c7;
        FILTER_COLUMN(col, c0); FILTER_COLUMN(col + 1, c1); FILTER_COLUMN(col + 2, c2); FILTER_COLUMN(col + 3, c3);
        FILTER_COLUMN(col + 4, c4); FILTER_COLUMN(col + 5, c5); FILTER_COLUMN(col + 6, c6); FILTER_COLUMN(col + 7, c7);
        TRANSPOSE8(c0, c1, c2, c3, c4, c5, c6, c7);
        const intptr_t o = col - col_lo;
        *(v8f *)(out[0] + o) = c0; *(v8f *)(out[1] + o) = c1; *(v8f *)(out[2] + o) = c2; *(v8f *)(out[3] + o) = c3;
        *(v8f *)(out[4] + o) = c4; *(v8f *)(out[5] + o) = c5; *(v8f *)(out[6] + o) = c6; *(v8f *)(out[7] + o) = c7;
    }
    for (; col < col_hi; col++) {
        v8f c;
        FILTER_COLUMN(col, c);
        for (int r = 0; r < 8; r++) out[r][col - col_lo] = c[r];
    }
}

/// Rounds to nearest (adding 1.5 · 2^23 leaves a value below 2^22 in size, rounded, in the float's
/// low mantissa bits) and clamps to 0…255.
#define store8(v, out)                                                                              \
    do {                                                                                            \
        const v8f magic = (v8f){0} + 12582912.0f;                                                   \
        v8i r = (v8i)((v) + magic) - (v8i)magic;                                                    \
        r = __builtin_elementwise_min(__builtin_elementwise_max(r, (v8i){0}), (v8i){0} + 255);      \
        v8b bytes = __builtin_convertvector(r, v8b);                                                \
        memcpy((out), &bytes, 8);                                                                   \
    } while (0)

__attribute__((always_inline))
static inline void resize_combine(const float *const *rows, const float *weights, intptr_t taps, intptr_t width,
                                  uint8_t *out) {
    intptr_t x = 0;
    // 32 samples at a time: four independent sums.
    for (; x + 32 <= width; x += 32) {
        v8f s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
        for (intptr_t k = 0; k < taps; k++) {
            const float *row = rows[k] + x;
            const float w = weights[k];
            s0 += w * load8(row);
            s1 += w * load8(row + 8);
            s2 += w * load8(row + 16);
            s3 += w * load8(row + 24);
        }
        store8(s0, out + x);
        store8(s1, out + x + 8);
        store8(s2, out + x + 16);
        store8(s3, out + x + 24);
    }
    for (; x < width; x += 8) {
        v8f s = {0};
        for (intptr_t k = 0; k < taps; k++) s += weights[k] * load8(rows[k] + x);
        store8(s, out + x);
    }
}

#define ROWS8_PARAMETERS const uint8_t *const rows[8], intptr_t span_lo, intptr_t span_hi, float *line, \
    const float *weights, intptr_t stride, const intptr_t *starts, const intptr_t *counts, intptr_t col_lo, \
    intptr_t col_hi, float *const out[8]
#define ROWS8_ARGUMENTS rows, span_lo, span_hi, line, weights, stride, starts, counts, col_lo, col_hi, out
#define COMBINE_PARAMETERS const float *const *rows, const float *weights, intptr_t taps, intptr_t width, uint8_t *out
#define COMBINE_ARGUMENTS rows, weights, taps, width, out

static void rows8_baseline(ROWS8_PARAMETERS) { resize_rows8(ROWS8_ARGUMENTS); }
static void combine_baseline(COMBINE_PARAMETERS) { resize_combine(COMBINE_ARGUMENTS); }

/// The variants of both loops for one instruction set.
struct kernels {
    void (*rows8)(ROWS8_PARAMETERS);
    void (*combine)(COMBINE_PARAMETERS);
};
static const struct kernels baseline = { rows8_baseline, combine_baseline };

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void rows8_avx2(ROWS8_PARAMETERS) { resize_rows8(ROWS8_ARGUMENTS); }
__attribute__((target("avx2,fma"))) static void combine_avx2(COMBINE_PARAMETERS) { resize_combine(COMBINE_ARGUMENTS); }

/// AVX2 and FMA, with the OS saving the YMM registers: two CPUID leaves and XGETBV. Not
/// target_clones: its resolver runs libgcc's whole CPU survey (dozens of CPUID instructions, each a
/// trap to the hypervisor in a VM) at every process start, a third of `petspot --version`'s own time.
static int has_avx2_fma(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned fma = 1u << 12, osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (fma | osxsave | avx)) != (fma | osxsave | avx)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;   /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 5) & 1;           /* AVX2 */
}
#endif

#if defined(__x86_64__)
static const struct kernels avx2 = { rows8_avx2, combine_avx2 };
#endif

/// The variants for this CPU, picked on first use (two threads may race to the same answer).
static const struct kernels *chosen(void) {
    static const struct kernels *picked;
    const struct kernels *k = __atomic_load_n(&picked, __ATOMIC_ACQUIRE);
    if (!k) {
#if defined(__x86_64__)
        k = has_avx2_fma() ? &avx2 : &baseline;
#else
        k = &baseline;
#endif
        __atomic_store_n(&picked, k, __ATOMIC_RELEASE);
    }
    return k;
}

void pj_resize_rows8(ROWS8_PARAMETERS) { chosen()->rows8(ROWS8_ARGUMENTS); }

void pj_resize_combine(COMBINE_PARAMETERS) { chosen()->combine(COMBINE_ARGUMENTS); }

int pj_resize_uses_avx2(void) { return chosen() != &baseline; }
