#!/usr/bin/env bash
# Builds and runs one libFuzzer target (or all of them) over our parsers, with AddressSanitizer.
#
#   scripts/fuzz.sh TARGET [SECONDS]   run one target (default 60 s)
#   scripts/fuzz.sh all [SECONDS]      run every target in turn
#   scripts/fuzz.sh list               the targets
#   scripts/fuzz.sh stats              minutes, executions, exec/s and edges per target so far
#
# Targets: sniff probe prepare encode draft journal multipart basic-auth announcement-json client-response.
# Work folders are under .fuzz/TARGET/: corpus/ (what the fuzzer found, kept between runs),
# seeds/ (copied afresh from TestImages/ and $PETSPOT_CORPUS, or written by the harness itself),
# artifacts/ (crash-, timeout-, leak- and oom- inputs). Each run appends a line to Fuzz/stats.tsv
# (committed, so the totals carry across sessions and machines).
# A crash, hang (> 2 s), leak or out-of-memory stops the run and fails the script.
#
# Environment: PETSPOT_CORPUS (default ../shared/corpus); FUZZ_SEED, libFuzzer's random seed (CI
# fixes it; default random); FUZZ_SCRATCH, the build folder (default
# .build, so the dependencies built for the tests are reused; only our own modules are rebuilt
# with the sanitizers, and `swift build` rebuilds them plain again); FUZZ_BIN, a folder of fuzz
# binaries built earlier, to run them without building (long runs beside other work).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(sniff probe prepare encode draft journal multipart basic-auth announcement-json client-response)
target=${1:-}
seconds=${2:-60}
corpus_root=${PETSPOT_CORPUS:-../shared/corpus}
scratch=${FUZZ_SCRATCH:-.build}

usage() { sed -n '2,/^set -euo/{/^set/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ -n "$target" ] || usage
[ "$target" = list ] && { printf '%s\n' "${targets[@]}"; exit 0; }
if [ "$target" = stats ]; then  # totals per target from Fuzz/stats.tsv (time = executions / exec/s when a run stopped early)
  [ -f Fuzz/stats.tsv ] || { echo "fuzz.sh: no Fuzz/stats.tsv yet" >&2; exit 1; }
  awk -F'\t' 'NR > 1 { t = $2; s = ($5 > 0 && $4 / $5 < $3) ? $4 / $5 : $3; secs[t] += s; execs[t] += $4; runs[t]++
                 if ($6 > edges[t]) edges[t] = $6; if ($9 ~ /FAILED/) found[t]++ }
       END { printf "%-18s %5s %9s %13s %9s %6s %s\n", "target", "runs", "minutes", "executions", "exec/s", "edges", "failed runs"
             for (t in secs) printf "%-18s %5d %9.1f %13d %9.0f %6d %d\n", t, runs[t], secs[t] / 60, execs[t], execs[t] / secs[t], edges[t], found[t] }' \
    Fuzz/stats.tsv | (read -r header; echo "$header"; sort)
  exit 0
fi
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be a positive whole number, got '$seconds'" >&2; exit 2; }

product_of() {  # sniff → FuzzSniff, basic-auth → FuzzBasicAuth, announcement-json → FuzzAnnouncementJSON
  case "$1" in
    announcement-json) echo FuzzAnnouncementJSON ;;
    *) echo "Fuzz$(echo "$1" | sed -E 's/(^|-)([a-z])/\U\2/g')" ;;
  esac
}

build() {
  echo "== building $1 (sanitizers: fuzzer, address; undefined for the C shim)" >&2
  PETSPOT_FUZZ=1 PETSPOT_OPTIMIZED_DEBUG=1 swift build --scratch-path "$scratch" --product "$1" 2>&1 | grep -E "error|warning: .*Fuzz|Compiling|Build" | tail -5 >&2
  test "${PIPESTATUS[0]}" -eq 0
}

# Image seeds: every file of TestImages/ and the shared corpus up to `max` bytes (libFuzzer would cut longer ones).
image_seeds() {
  local out=$1 max=$2
  { find TestImages Tests/*/Fixtures/fuzz -type f; [ -d "$corpus_root" ] && find "$corpus_root" -type f; } \
    | grep -Ev '\.(json|md|tsv|py|txt|raw)$|LICENSE|README' \
    | while read -r file; do
        size=$(stat -c %s "$file")
        [ "$size" -le "$max" ] && cp "$file" "$out/$(echo "$file" | tr '/' '_')"
      done
  return 0
}

# Multipart seeds: the conformance cases (Content-Type line, then the body), and uploads of small photos.
multipart_seeds() {
  local out=$1
  if [ -d "$corpus_root/multipart/tests" ]; then
    for case in "$corpus_root"/multipart/tests/*/*/; do
      [ -f "$case/headers.json" ] && [ -f "$case/input.raw" ] || continue
      python3 - "$case" "$out/$(basename "$case")" <<'PY'
import json, sys
case, out = sys.argv[1], sys.argv[2]
content_type = json.load(open(case + "/headers.json")).get("content-type", "")
open(out, "wb").write(content_type.encode() + b"\n" + open(case + "/input.raw", "rb").read())
PY
    done
  fi
  python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
for name, photo in [("photo-png", open("TestImages/png-stripes-1px.png", "rb").read()), ("photo-bytes", b"\xff\xd8\xff\xe0 not really")]:
    b = b"petspot-fuzz-7d3f"
    body = (b"--" + b + b"\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
            + b"--" + b + b"\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"dog.png\"\r\nContent-Type: image/png\r\n\r\n"
            + photo + b"\r\n--" + b + b"--\r\n")
    open(f"{out}/{name}", "wb").write(b"multipart/form-data; boundary=" + b + b"\n" + body)
PY
}

basic_auth_seeds() {
  local out=$1
  printf 'Basic %s' "$(printf 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f:042917' | base64 -w0)" > "$out/valid"
  printf 'basic   %s ' "$(printf 'id:pass:word' | base64 -w0)" > "$out/lower-colon"
  printf 'Bearer abc.def' > "$out/bearer"
  printf 'Basic ====' > "$out/bad-base64"
}

run() {
  local name=$1 product dir bin dict max_len status
  product=$(product_of "$name")
  dir=.fuzz/$name
  mkdir -p "$dir/corpus" "$dir/artifacts"
  rm -rf "$dir/seeds" && mkdir -p "$dir/seeds"
  case "$name" in
    sniff) dict=image.dict; max_len=4096; image_seeds "$dir/seeds" 1048576 ;;
    probe) dict=image.dict; max_len=262144; image_seeds "$dir/seeds" 262144 ;;
    prepare) dict=image.dict; max_len=131072; image_seeds "$dir/seeds" 131072 ;;
    encode) dict=image.dict; max_len=65536 ;;
    multipart) dict=multipart.dict; max_len=16384; multipart_seeds "$dir/seeds" ;;
    basic-auth) dict=json.dict; max_len=1024; basic_auth_seeds "$dir/seeds" ;;
    draft|journal|announcement-json|client-response) dict=json.dict; max_len=8192 ;;
    *) echo "fuzz.sh: unknown target '$name'; one of: ${targets[*]} (or all)" >&2; exit 2 ;;
  esac
  if [ -n "${FUZZ_BIN:-}" ]; then
    bin=$FUZZ_BIN/$product
  else
    build "$product"
    bin=$(PETSPOT_FUZZ=1 PETSPOT_OPTIMIZED_DEBUG=1 swift build --scratch-path "$scratch" --show-bin-path)/$product
  fi
  echo "== $name: $seconds s, $(ls "$dir/corpus" | wc -l) corpus inputs, seeds from $dir/seeds" >&2
  set +e
  LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp} SWIFT_BACKTRACE=enable=no PETSPOT_FUZZ_SEEDS="$PWD/$dir/seeds" ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$bin" \
    -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -max_len="$max_len" \
    -dict="Fuzz/Dictionaries/$dict" -seed="${FUZZ_SEED:-0}" -artifact_prefix="$dir/artifacts/" -print_final_stats=1 \
    "$dir/corpus" "$dir/seeds" > "$dir/last.log" 2>&1
  status=$?
  set -e
  local execs rate cov ft
  execs=$(grep -a -m1 'stat::number_of_executed_units' "$dir/last.log" | awk '{print $2}')
  rate=$(grep -a -m1 'stat::average_exec_per_sec' "$dir/last.log" | awk '{print $2}')
  cov=$(grep -aoE 'cov: [0-9]+' "$dir/last.log" | tail -1 | awk '{print $2}')
  ft=$(grep -aoE 'ft: [0-9]+' "$dir/last.log" | tail -1 | awk '{print $2}')
  local result=ok
  [ "$status" -eq 72 ] && { result=interrupted; status=0; }   # SIGINT: libFuzzer's -interrupted_exitcode
  [ "$status" -eq 0 ] || result="FAILED($status)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$seconds" "${execs:-?}" "${rate:-?}" \
    "${cov:-?}" "${ft:-?}" "$(ls "$dir/corpus" | wc -l)" "$result" >> Fuzz/stats.tsv
  printf '%-18s %5ss  execs %-10s exec/s %-7s edges %-6s features %-7s corpus %s  %s\n' "$name" "$seconds" "${execs:-?}" \
    "${rate:-?}" "${cov:-?}" "${ft:-?}" "$(ls "$dir/corpus" | wc -l)" "$result"
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: $name failed; the end of $dir/last.log:" >&2
    tail -40 "$dir/last.log" >&2
    ls -1 "$dir/artifacts" >&2
    return 1
  fi
}

mkdir -p .fuzz
[ -f Fuzz/stats.tsv ] || printf 'date\ttarget\tseconds\texecs\texec_per_s\tedges\tfeatures\tcorpus\tresult\n' > Fuzz/stats.tsv
if [ "$target" = all ]; then
  failed=()
  for name in "${targets[@]}"; do run "$name" || failed+=("$name"); done
  [ ${#failed[@]} -eq 0 ] || { echo "fuzz.sh: failed: ${failed[*]}" >&2; exit 1; }
else
  run "$target"
fi
