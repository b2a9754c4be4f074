// Pixels to the encoder's planes: JFIF's full-range YCbCr (ITU-R BT.601 weights, 16-bit fixed
// point), rounded to the nearest level; 4:2:0 chroma the mean of each 2 × 2 pixels (the last
// column and row repeated where the image is odd), computed from the unrounded values.
#include "jpeg_encoder.h"

#include <string.h>

/* The weights times 65,536, rounded so that each row of the matrix sums exactly (Cb and Cr to 0). */
enum { YR = 19595, YG = 38470, YB = 7471, CBR = -11058, CBG = -21710, CRG = -27439, CRB = -5329, HALF = 32768 };

/// Luma of one row of `width` pixels of `channels` bytes (3 or 4): a separate copy for each
/// channel count, so the compiler knows the stride.
static inline void luma_row(const uint8_t *restrict row, int width, const int channels, uint8_t *restrict out) {
    for (int x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * channels;
        out[x] = (uint8_t)((YR * p[0] + YG * p[1] + YB * p[2] + HALF) >> 16);
    }
}

/// 4:2:0 chroma of one row of chroma samples from two rows of pixels (the same row twice at an
/// odd bottom edge).
static inline void chroma_row(const uint8_t *restrict row0, const uint8_t *restrict row1, int width, const int channels,
                              uint8_t *restrict cb, uint8_t *restrict cr) {
    const int pairs = width / 2;
    for (int cx = 0; cx < pairs; cx++) {
        const uint8_t *a = row0 + (size_t)(2 * cx) * channels, *b = row1 + (size_t)(2 * cx) * channels;
        const int r = a[0] + a[channels] + b[0] + b[channels];
        const int g = a[1] + a[channels + 1] + b[1] + b[channels + 1];
        const int bl = a[2] + a[channels + 2] + b[2] + b[channels + 2];
        /* The mean of four: the sums' weighted total, 128 and a half step added, over 4 · 65,536
           (at most 255: the weights of Cb and Cr sum to 0 and their positive ones to a half). */
        cb[cx] = (uint8_t)((CBR * r + CBG * g + HALF * bl + (512 << 16) + 4 * HALF) >> 18);
        cr[cx] = (uint8_t)((HALF * r + CRG * g + CRB * bl + (512 << 16) + 4 * HALF) >> 18);
    }
    if (width & 1) {  /* the last column repeated */
        const uint8_t *a = row0 + (size_t)(width - 1) * channels, *b = row1 + (size_t)(width - 1) * channels;
        const int r = 2 * (a[0] + b[0]), g = 2 * (a[1] + b[1]), bl = 2 * (a[2] + b[2]);
        cb[pairs] = (uint8_t)((CBR * r + CBG * g + HALF * bl + (512 << 16) + 4 * HALF) >> 18);
        cr[pairs] = (uint8_t)((HALF * r + CRG * g + CRB * bl + (512 << 16) + 4 * HALF) >> 18);
    }
}

/// 4:4:4 chroma of one row.
static inline void full_chroma_row(const uint8_t *restrict row, int width, const int channels, uint8_t *restrict cb,
                                   uint8_t *restrict cr) {
    for (int x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * channels;
        cb[x] = (uint8_t)((CBR * p[0] + CBG * p[1] + HALF * p[2] + (128 << 16) + HALF) >> 16);
        cr[x] = (uint8_t)((HALF * p[0] + CRG * p[1] + CRB * p[2] + (128 << 16) + HALF) >> 16);
    }
}

static void colour_planes(const uint8_t *pixels, size_t stride, int width, int height, const int channels, int half_chroma,
                          uint8_t *const planes[3]) {
    for (int y = 0; y < height; y++) luma_row(pixels + (size_t)y * stride, width, channels, planes[0] + (size_t)y * width);
    if (!half_chroma) {
        for (int y = 0; y < height; y++)
            full_chroma_row(pixels + (size_t)y * stride, width, channels, planes[1] + (size_t)y * width,
                            planes[2] + (size_t)y * width);
        return;
    }
    const int cw = (width + 1) / 2, ch = (height + 1) / 2;
    for (int cy = 0; cy < ch; cy++) {
        const uint8_t *row0 = pixels + (size_t)(2 * cy) * stride;
        const uint8_t *row1 = pixels + (size_t)(2 * cy + 1 < height ? 2 * cy + 1 : height - 1) * stride;
        chroma_row(row0, row1, width, channels, planes[1] + (size_t)cy * cw, planes[2] + (size_t)cy * cw);
    }
}

void pq_rgb_to_planes(const uint8_t *pixels, size_t stride, int width, int height, int channels, int half_chroma,
                      uint8_t *const planes[3]) {
    if (channels == 1) {
        for (int y = 0; y < height; y++) memcpy(planes[0] + (size_t)y * width, pixels + (size_t)y * stride, (size_t)width);
    } else if (channels == 4) {
        colour_planes(pixels, stride, width, height, 4, half_chroma, planes);
    } else {
        colour_planes(pixels, stride, width, height, 3, half_chroma, planes);
    }
}
