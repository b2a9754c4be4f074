#ifndef PETSPOT_JPEG_ENCODER_H
#define PETSPOT_JPEG_ENCODER_H

#include <stddef.h>
#include <stdint.h>

/// PetSpot's JPEG encoder: our forward DCT, our quantisation tables and our choice of each block's
/// coefficients, with libjpeg-turbo writing the bits (jpeg_write_coefficients, our Huffman tables).
///
/// One encoder makes one file from Y, Cb and Cr planes (or one grey plane), a row of iMCUs at a
/// time: `pq_encode_rows` transforms and quantises rows (from any thread, one thread per part at
/// a time), and, once every row is in, `pq_finish_tables` makes the Huffman tables from the
/// counted symbols and `pq_write_part` writes each part's bytes (the parts side by side, each on
/// its own thread). A file in two parts is one baseline JPEG once the caller joins them at a
/// restart marker (the bottom part's DC predictions start at 0, as after a restart marker).
/// A progressive file is one part, its Huffman tables libjpeg's own.
///
/// libjpeg reports errors with longjmp; every function here does its own setjmp around exactly the
/// libjpeg calls it makes and returns a status, so no longjmp ever crosses a Swift frame. Call
/// codecs_load(CODECS_JPEG) first.
typedef struct pq_encoder pq_encoder;

enum {
    PQ_OK = 0,
    PQ_ERROR = -1,
};

/// What one encode does.
typedef struct {
    /// 1–100, higher is better.
    int quality;
    /// 1 (grey) or 3 (Y, Cb, Cr).
    int components;
    /// 3 components: chroma at full resolution (4:4:4), else half in both directions (4:2:0).
    int full_chroma;
    /// Progressive (libjpeg's simple script, optimised tables); otherwise baseline.
    int progressive;
    /// Two parts cut at an iMCU row (baseline only, when the image has two iMCU rows or more and
    /// the restart interval fits): `pq_split_row` says where.
    int two_parts;
    /// With two parts: the second part's first iMCU row (1 ..< rows); 0: half way.
    int split_row;
    /// The transform and levels for any CPU even where AVX2 runs (the same bytes; for the tests).
    int baseline_kernels;
} pq_settings;

/// An encoder for a `width` × `height` image; NULL if libjpeg refuses or memory runs out.
pq_encoder *pq_create(int width, int height, const pq_settings *settings);
void pq_destroy(pq_encoder *encoder);

/// Rows of iMCUs (16 image rows at 4:2:0, 8 otherwise), and the first of the second part (the
/// count itself when there is one part).
int pq_imcu_rows(const pq_encoder *encoder);
int pq_split_row(const pq_encoder *encoder);
/// Rows of plane `component` per iMCU row.
int pq_plane_rows_per_imcu(const pq_encoder *encoder, int component);
/// Parts: 1 or 2.
int pq_parts(const pq_encoder *encoder);
/// The restart interval the joined file declares (MCUs; 0 with one part).
int pq_restart_interval(const pq_encoder *encoder);

/// Transforms and quantises iMCU rows `first ..< last`, all in one part, from the planes (rows
/// `strides[c]` bytes apart; plane `c` has `widths[c]` × `heights[c]` samples, the edges repeated
/// past them). Rows of one part are given in order; the two parts may be encoded at once.
int pq_encode_rows(pq_encoder *encoder, const uint8_t *const planes[3], const size_t strides[3], const int widths[3],
                   const int heights[3], int first, int last);

/// Once every row is encoded: the Huffman tables from the symbols both parts use.
int pq_finish_tables(pq_encoder *encoder);
/// Writes part `part` (after pq_finish_tables); `output` stays valid until pq_destroy. The parts
/// may be written at once, each on its own thread.
int pq_write_part(pq_encoder *encoder, int part, const uint8_t **output, size_t *size);

/// The last error's text.
const char *pq_message(const pq_encoder *encoder);

/// RGB (or RGBA, `channels` 4, alpha ignored; or grey, `channels` 1) pixels to the encoder's
/// planes: JFIF's YCbCr, chroma averaged over 2 × 2 pixels when `half_chroma` (plane sizes as
/// TurboJPEG's: luma `width` × `height`, chroma ⌈width / 2⌉ × ⌈height / 2⌉).
void pq_rgb_to_planes(const uint8_t *pixels, size_t stride, int width, int height, int channels, int half_chroma,
                      uint8_t *const planes[3]);

/// The forward DCT of one 8 × 8 block of samples (rows `stride` bytes apart) as JPEG defines it,
/// in natural order (`out[v * 8 + u]`, u the horizontal frequency), in AAN's scaling (coefficient
/// (u, v) times pq_aan_scale(u) · pq_aan_scale(v)): the AVX2 and the baseline variants give the
/// same floats (the tests compare them).
void pq_fdct(const uint8_t *samples, size_t stride, float out[64]);
void pq_fdct_baseline(const uint8_t *samples, size_t stride, float out[64]);
double pq_aan_scale(int k);
/// Whether the AVX2 variants run on this machine.
int pq_uses_avx2(void);

#endif
