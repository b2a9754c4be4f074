#!/usr/bin/env bash
# Measures the shrink-on-load rule (`--decode-headroom`: DCT-scale only while the scaled photo keeps
# that many times the target) against libvips 8.18 in-process, on every corpus JPEG, at 2048 and
# 1024 px: one ../shared/tools/newest-vips-bench.py run per threshold (interleaved runs, median
# time, SSIM of both against a full-precision reference). Prints the tables one after another.
#
# Usage: scripts/bench-headroom.sh BIN [RUNS] [THRESHOLDS...]   (defaults: 7 runs; 1.0 1.25 1.5)
# BIN: a release petspot (swift build -c release --static-swift-stdlib --product petspot).
# Needs: pip install pyvips pyvips-binary Pillow numpy scikit-image. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/bench-headroom.sh BIN [RUNS] [THRESHOLDS...]}
runs=${2:-7}
shift $(( $# >= 2 ? 2 : 1 ))
thresholds=("$@")
[ ${#thresholds[@]} -gt 0 ] || thresholds=(1.0 1.25 1.5)
bench=${NEWEST_VIPS_BENCH:-../shared/tools/newest-vips-bench.py}
photos=${PETSPOT_CORPUS:-../shared/corpus}/photos
for headroom in "${thresholds[@]}"; do
  echo "## --decode-headroom $headroom"
  python3 "$bench" --runs "$runs" --min-mp 0 \
    --candidate "$bin photo prepare {in} -o {out} --force --max-dimension {size} --quality {q} --decode-headroom $headroom" "$photos"
  echo
done
