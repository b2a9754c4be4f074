#!/usr/bin/env python3
"""Files announcements with photos on a running petspot-server, for the public pages.

    scripts/seed-pages.py http://127.0.0.1:8080 --photos DIR [--count 24] [--xss]

Each announcement gets one of the photos (round robin), a species, a status, a reward on every
third, and one (with --xss) a description and reward that are markup. Prints a JSON object:
{"ids": [...newest last...], "photos": {id: photo_url}, "xss": id or null}.
"""
import argparse
import base64
import http.client
import json
import os
import sys
import time
import urllib.parse
import uuid

XSS = "<script>alert(1)</script><img src=x onerror=alert(2)> \"quoted\" & 'single'"
SPECIES = ["DOG", "CAT", "DOG", "RABBIT", "BIRD", "CAT", "OTHER", "DOG"]


def request(url, method, path, body=None, headers=None):
    """One request; a 429 (the server's rate limits) is waited out as its Retry-After says."""
    parts = urllib.parse.urlsplit(url)
    while True:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        if response.status != 429:
            return response.status, data
        time.sleep(float(response.getheader("Retry-After", "1")))


def announcement(index, xss):
    body = {
        "species": SPECIES[index % len(SPECIES)], "sex": ["MALE", "FEMALE", "UNKNOWN"][index % 3],
        "last_seen_date": f"2026-11-{1 + index % 24:02d}",
        "location_latitude": 52.2297 + index / 1000, "location_longitude": 21.0122 - index / 1000,
        "email": f"owner{index}@example.com", "phone": f"+48 600 100 {index:03d}",
        "status": "FOUND" if index % 4 == 3 else "MISSING",
        "description": f"Announcement {index}: friendly, answers to whistles, wearing a red collar.",
    }
    if index % 3 == 0:
        body["reward"] = f"{100 + index} PLN"
    if index % 5 == 1:
        body["microchip_number"] = f"{616093900000000 + index}"
    if xss:
        body["description"] = XSS
        body["reward"] = "<b>bold</b> & more"
    return body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--photos", required=True, help="a folder of JPEG/PNG/WebP photos")
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--xss", action="store_true", help="make the first announcement's description markup")
    parser.add_argument("--no-photo-every", type=int, default=0, help="leave every Nth announcement without a photo")
    args = parser.parse_args()
    photos = sorted(os.path.join(args.photos, name) for name in os.listdir(args.photos)
                    if name.lower().endswith((".jpg", ".jpeg", ".png", ".webp")))
    if not photos:
        sys.exit(f"no photos in {args.photos}")
    result = {"ids": [], "photos": {}, "xss": None}
    for index in range(args.count):
        xss = args.xss and index == 0
        status, data = request(args.url, "POST", "/api/v1/announcements", json.dumps(announcement(index, xss)),
                               {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
        if status != 201:
            sys.exit(f"create {index}: HTTP {status}: {data[:300]!r}")
        created = json.loads(data)
        announcement_id, password = created["id"], created["management_password"]
        result["ids"].append(announcement_id)
        if xss:
            result["xss"] = announcement_id
        if args.no_photo_every and index % args.no_photo_every == args.no_photo_every - 1:
            continue
        photo = photos[index % len(photos)]
        with open(photo, "rb") as handle:
            content = handle.read()
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{os.path.basename(photo)}\"\r\n"
                "Content-Type: application/octet-stream\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
        credentials = base64.b64encode(f"{announcement_id}:{password}".encode()).decode()
        status, data = request(args.url, "POST", f"/api/v1/announcements/{announcement_id}/photos", body,
                               {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                "Authorization": f"Basic {credentials}"})
        if status != 201:
            sys.exit(f"photo {index} ({photo}): HTTP {status}: {data[:300]!r}")
        result["photos"][announcement_id] = json.loads(data)["photo_url"]
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
