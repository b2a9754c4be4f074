#!/usr/bin/env bash
# Instructions our JPEG encoder costs against libjpeg-turbo's (TurboJPEG with the settings the
# pipeline used before: its quality tables, the accurate integer DCT, Annex K Huffman tables), on
# the same planes, counted by callgrind (valid on a loaded machine, unlike wall time).
#
#   scripts/encoder-instructions.sh PHOTO.jpg [QUALITY]
#
# The photo is decoded by TurboJPEG scaled down by halves to at most 2048 px, turned into JFIF
# YCbCr planes (4:2:0 below quality 90, 4:4:4 from 90, as prepare does), then encoded on one
# thread: not at all, by TurboJPEG, and by Sources/CJPEGEncoder. Prints each run's instruction
# count and bytes, and the two encoders' instructions (the run less the decode alone).
# Needs valgrind, cc, libturbojpeg0-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
photo=${1:?usage: scripts/encoder-instructions.sh PHOTO.jpg [QUALITY]}
quality=${2:-85}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stub" && : > "$work/stub/codecs_names.h"   # libjpeg's own names, linked directly
cat > "$work/harness.c" <<'C'
// decode a JPEG scaled to <= 2048 px with TurboJPEG, make 4:2:0 (or 4:4:4) planes,
// then encode them: mode 0 none, 1 TurboJPEG (the old encoder's settings), 2 our encoder.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include "jpeg_encoder.h"
int main(int argc, char **argv) {
    const char *in = argv[1]; int mode = atoi(argv[2]); int q = atoi(argv[3]); const char *out = argc > 4 ? argv[4] : NULL;
    FILE *f = fopen(in, "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n); fread(buf, 1, n, f); fclose(f);
    tjhandle d = tjInitDecompress(); int w, h, ss, cs;
    tjDecompressHeader3(d, buf, n, &w, &h, &ss, &cs);
    int num = 1, den = 1; while ((w * num / den) > 2048 || (h * num / den) > 2048) den *= 2;
    int sw = (w + den - 1) / den, sh = (h + den - 1) / den;
    unsigned char *rgb = malloc((size_t)sw * sh * 3);
    if (tjDecompress2(d, buf, n, rgb, sw, 0, sh, TJPF_RGB, 0)) { fprintf(stderr, "%s\n", tjGetErrorStr2(d)); return 1; }
    int half = q < 90;
    int cw = half ? (sw + 1) / 2 : sw, ch = half ? (sh + 1) / 2 : sh;
    uint8_t *planes[3] = {malloc((size_t)sw * sh), malloc((size_t)cw * ch), malloc((size_t)cw * ch)};
    pq_rgb_to_planes(rgb, (size_t)sw * 3, sw, sh, 3, half, planes);
    size_t size = 0;
    unsigned char *jpeg = NULL;
    if (mode == 1) {
        tjhandle c = tjInitCompress(); unsigned long s = 0;
        int strides[3] = {sw, cw, cw};
        if (tjCompressFromYUVPlanes(c, (const unsigned char **)planes, sw, strides, sh, half ? TJSAMP_420 : TJSAMP_444, &jpeg, &s, q, 0)) { fprintf(stderr, "%s\n", tjGetErrorStr2(c)); return 1; }
        size = s;
    } else if (mode == 2) {
        pq_settings st = {0}; st.quality = q; st.components = 3; st.full_chroma = !half; st.two_parts = 1;
        pq_encoder *e = pq_create(sw, sh, &st);
        const size_t strides[3] = {sw, cw, cw}; const int widths[3] = {sw, cw, cw}, heights[3] = {sh, ch, ch};
        int split = pq_split_row(e), rows = pq_imcu_rows(e);
        if (pq_encode_rows(e, (const uint8_t *const *)planes, strides, widths, heights, 0, split)) { fprintf(stderr, "%s\n", pq_message(e)); return 1; }
        if (split < rows && pq_encode_rows(e, (const uint8_t *const *)planes, strides, widths, heights, split, rows)) { fprintf(stderr, "%s\n", pq_message(e)); return 1; }
        pq_finish_tables(e);
        for (int p = 0; p < pq_parts(e); p++) { const uint8_t *o; size_t s; pq_write_part(e, p, &o, &s); size += s; }
    }
    printf("%dx%d q%d mode %d: %zu bytes\n", sw, sh, q, mode, size);
    if (out && jpeg) { FILE *g = fopen(out, "wb"); fwrite(jpeg, 1, size, g); fclose(g); }
    return 0;
}
C
cc -O2 -o "$work/harness" -I "$work/stub" -I Sources/CJPEGEncoder/include "$work/harness.c" Sources/CJPEGEncoder/*.c \
  -lturbojpeg -ljpeg -lpthread -lm
declare -A count
for mode in 0 1 2; do
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/harness" "$photo" "$mode" "$quality" 2>&1)
  count[$mode]=$(echo "$out" | awk '/refs:/ {gsub(",", "", $4); print $4}')
  echo "$out" | grep -E "bytes" | sed "s/\$/, ${count[$mode]} instructions/"
done
echo "libjpeg-turbo encoder: $(( (count[1] - count[0]) / 1000000 )) M instructions; ours: $(( (count[2] - count[0]) / 1000000 )) M"
