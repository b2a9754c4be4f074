#!/usr/bin/env bash
# Benchmarks `petspot photo prepare` side by side with vipsthumbnail and the libjpeg-turbo floor
# (djpeg -scale + cjpeg/cwebp, summed) and writes the tables to a Markdown file:
#   1. the corpus JPEG photos → 2048 px JPEG q85, → 1024 px JPEG q85, → 2048 px WebP q80
#      (../shared/tools/anchor-bench.sh: medians, ratio to vipsthumbnail, peak RSS, SSIM);
#   2. a 20 MP and a 48 MP JPEG, made by upscaling a corpus photo with vips' Lanczos-3 resize
#      (phones save such sizes; no such photo is in the corpus), → 2048 px JPEG;
#   3. a batch of 50 photos (the corpus photos repeated under distinct names) into a folder:
#      `petspot photo prepare --jobs 2 --out-dir` against one vipsthumbnail run over the same files;
#   4. process start: `petspot --version` against /bin/true.
#
# Usage: scripts/bench-prepare.sh [--runs N] [--out FILE] [--sections 1,2,3,4] [--no-build]
# (BENCH_SCRATCH names the release build folder, default .build-release)
# Needs: hyperfine, GNU time, libvips-tools, imagemagick, libjpeg-turbo-progs, webp; Pillow,
# numpy and scikit-image for SSIM (see anchor-bench.sh). Takes 10–20 minutes; run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=7
out=""
sections=1,2,3,4
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --sections) sections=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-prepare: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
corpus=${PETSPOT_CORPUS:-../shared/corpus}
anchor=${ANCHOR_BENCH:-../shared/tools/anchor-bench.sh}
photos=$corpus/photos
for tool in hyperfine vipsthumbnail vips djpeg cjpeg cwebp /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench-prepare: $tool is missing; apt-get install hyperfine time libvips-tools imagemagick libjpeg-turbo-progs webp" >&2; exit 1; }
done
[ -x "$anchor" ] || [ -f "$anchor" ] || { echo "bench-prepare: $anchor not found (set ANCHOR_BENCH)" >&2; exit 1; }

scratch=${BENCH_SCRATCH:-.build-release}
# Statically linked Swift runtime and Foundation: `petspot --version` starts in 10 ms instead of 14.
if [ "$build" = 1 ]; then swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product petspot >&2; fi
bin=$(cd "$scratch" && pwd)/release/petspot
[ -x "$bin" ] || { echo "bench-prepare: $bin is not built (drop --no-build)" >&2; exit 1; }
mkdir -p bench-results
out=${out:-bench-results/prepare-$(date -u +%Y%m%dT%H%MZ).md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
candidate="petspot=$bin photo prepare {in} -o {out} --force --max-dimension {size} --quality {q} --format {format}"
has() { [[ ",$sections," == *",$1,"* ]]; }

{
  echo "# photo prepare benchmark, $(date -u +%FT%TZ)"
  echo
  echo "petspot $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'); $(nproc) cores; $(vips --version)"
  echo "Command: scripts/bench-prepare.sh --runs $runs --sections $sections"
} > "$out"

anchor_section() {  # title, then anchor-bench arguments
  local title=$1; shift
  echo "== $title" >&2
  { echo; echo "## $title"; echo; echo '```'; } >> "$out"
  bash "$anchor" --runs "$runs" --tools vips,floor --candidate "$candidate" "$@" 2>&1 | tee -a "$out" >&2
  echo '```' >> "$out"
}

if has 1; then
  anchor_section "Corpus JPEG photos → 2048 px JPEG q85" --match '*.jpg' "$photos" 2048
  anchor_section "Corpus JPEG photos → 1024 px JPEG q85" --match '*.jpg' "$photos" 1024
  anchor_section "Corpus JPEG photos → 2048 px WebP q80" --match '*.jpg' --format webp "$photos" 2048
fi

if has 2; then
  mkdir -p "$work/big"
  source_photo=$photos/olympus-ep3_4032x3024.jpg
  vips resize "$source_photo" "$work/big/upscaled-20mp.jpg[Q=92]" 1.29 --kernel lanczos3
  vips resize "$source_photo" "$work/big/upscaled-48mp.jpg[Q=92]" 2.0 --kernel lanczos3
  anchor_section "20 MP and 48 MP JPEGs (olympus-ep3 upscaled with vips resize, Lanczos-3, Q92) → 2048 px JPEG q85" "$work/big" 2048
fi

if has 3; then
  echo "== batch" >&2
  mkdir -p "$work/batch/in"
  i=0
  while [ $i -lt 50 ]; do
    for photo in "$photos"/*.jpg; do
      [ $i -lt 50 ] || break
      cp "$photo" "$work/batch/in/$(printf '%02d' $i)-$(basename "$photo")"
      i=$((i + 1))
    done
  done
  files=("$work"/batch/in/*.jpg)
  ours="rm -rf $work/batch/p && mkdir $work/batch/p && $bin photo prepare --jobs 2 --out-dir $work/batch/p ${files[*]} > /dev/null"
  theirs="rm -rf $work/batch/v && mkdir $work/batch/v && vipsthumbnail -s '2048x2048>' -o '$work/batch/v/%s.jpg[Q=85,strip]' ${files[*]}"
  { echo; echo "## Batch: 50 JPEG photos → 2048 px JPEG q85 into a folder"; echo; echo '```'; } >> "$out"
  hyperfine --runs "$runs" --warmup 1 --shell bash -n "petspot --jobs 2" "$ours" -n vipsthumbnail "$theirs" \
    --export-json "$work/batch.json" 2>&1 | tee -a "$out" >&2 || true
  for name in ours theirs; do
    eval "command=\$$name"
    rss=$( { /usr/bin/time -f '%M' bash -c "$command" >/dev/null; } 2>&1 | tail -1)
    echo "peak RSS ($name): $((rss / 1024)) MiB" | tee -a "$out" >&2
  done
  python3 - "$work/batch.json" <<'PY' | tee -a "$out" >&2
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
ours, vips = results["petspot --jobs 2"]["median"], results["vipsthumbnail"]["median"]
print(f"throughput: petspot {50 / ours:.1f} photos/s, vipsthumbnail {50 / vips:.1f} photos/s: {vips / ours:.2f}x")
PY
  echo '```' >> "$out"
fi

if has 4; then
  { echo; echo "## Process start"; echo; echo '```'; } >> "$out"
  hyperfine --runs 50 --warmup 3 -N -n "petspot --version" "$bin --version" -n "/bin/true" "/bin/true" 2>&1 | tee -a "$out" >&2
  echo '```' >> "$out"
fi
echo "bench-prepare: wrote $out" >&2
