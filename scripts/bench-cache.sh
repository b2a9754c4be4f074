#!/usr/bin/env bash
# Benchmarks the photo cache with hyperfine: `cache stats` and `cache list --json | head` with
# 100 000 entries in the index, and the cache's own overhead on `photo add` (hit and miss).
# Usage: swift build -c release && scripts/bench-cache.sh [path/to/petspot]
set -euo pipefail
bin=$(realpath "${1:-.build/release/petspot}")
entries=${ENTRIES:-100000}
photo=$(realpath "${PHOTO:-TestImages/jpeg-baseline.jpg}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

big="$work/big"
"$bin" cache stats --cache-dir "$big" >/dev/null # creates the folders and the index
# Synthetic rows (their files need not exist for stats and list): ~2.5 KiB each, used within 20 days,
# so the default limits (512 MiB, 30 days) evict nothing.
sqlite3 "$big/index.sqlite" <<SQL
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $entries),
     k(i, key) AS (SELECT i, lower(hex(randomblob(32))) FROM n)
INSERT INTO entry (key, path, mime_type, bytes, width, height, source_name, source_digest, file_digest,
                   captured_at, created, last_access)
SELECT key, 'photos/' || substr(key, 1, 2) || '/' || key || '.jpg', 'image/jpeg', 2000 + i % 1000, 1536, 2048,
       'IMG_' || i || '.jpg', key, key, NULL,
       strftime('%s', 'now') - (i % 86400) * 20, strftime('%s', 'now') - ((i * 7919) % 86400) * 20
FROM k;
SQL
"$bin" cache stats --cache-dir "$big"

echo; echo "== stats and list with $entries entries"
hyperfine --warmup 3 \
  "$bin cache stats --cache-dir $big" \
  "$bin cache list --json --cache-dir $big | head"

echo; echo "== photo add, hit (against the $entries-entry index) vs. a baseline that reads the same file"
"$bin" photo add "$photo" --cache-dir "$big" >/dev/null
hyperfine --warmup 3 -N \
  "$bin photo inspect $photo" \
  "$bin photo add $photo --cache-dir $big"

echo; echo "== photo add, miss (entry cleared before each run) vs. photo prepare to a file (same pipeline, atomic write with fsync)"
hyperfine --warmup 3 -N \
  --prepare "$bin cache clear --cache-dir $work/small" \
  "$bin photo add $photo --cache-dir $work/small" \
  "$bin photo prepare $photo -o $work/prepared.jpg"

echo; echo "== photo add, miss against the $entries-entry index (its row deleted before each run)"
name=$(basename "$photo")
hyperfine --warmup 3 -N \
  --prepare "sqlite3 $big/index.sqlite \"DELETE FROM entry WHERE source_name = '$name'\"" \
  "$bin photo add $photo --cache-dir $big" \
  "$bin photo prepare $photo -o $work/prepared.jpg"

echo; echo "== the cache's own time per process, from photo add --verbose (median of 21 runs, $entries-entry index)"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for kind in hit miss; do
  for _ in $(seq 21); do
    [ "$kind" = miss ] && sqlite3 "$big/index.sqlite" "DELETE FROM entry WHERE source_name = '$name'"
    "$bin" photo add "$photo" --cache-dir "$big" --verbose 2>&1 >/dev/null | sed -n 's/.*; cache \([0-9.]*\) ms.*/\1/p'
  done | median | xargs printf "%s: cache %s ms (open + own work + close, pipeline excluded)\n" "$kind"
done
