#!/usr/bin/env python3
"""How long petspot-server takes to draw a flyer and a share card, seen from a client on
127.0.0.1: for N announcements with a photo, the 1200 px variant is made first (as the page's
first viewer would), then each announcement's flyer (A4 and Letter) and card is fetched once
(drawn) and once more (from the cache). Prints p50/p99/max in ms and the sizes.

    swift build -c release --product petspot-server
    scripts/bench-sharing.py --binary .build/release/petspot-server --photo /tmp/prepared-2048.jpg [--count 30]

Only loopback is contacted.
"""
import argparse
import base64
import http.client
import json
import os
import statistics
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from petspot_stack import Stack  # noqa: E402

ANNOUNCEMENT = {
    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18", "pet_name": "Burek", "breed": "Labrador",
    "location_latitude": 52.2297, "location_longitude": 21.0122, "reward": "500 PLN",
    "description": "Friendly, answers to Burek. Red collar, a white patch on the chest.",
    "email": "owner@example.com", "phone": "+48123456789", "status": "MISSING",
}


def request(connection, method, path, body=None, headers=None):
    start = time.perf_counter()
    connection.request(method, path, body, headers or {})
    response = connection.getresponse()
    data = response.read()
    return response.status, data, (time.perf_counter() - start) * 1000


def summary(values):
    ordered = sorted(values)
    return (f"p50 {statistics.median(ordered):.1f}  p99 {ordered[min(len(ordered) - 1, int(0.99 * (len(ordered) - 1) + 0.5))]:.1f}"
            f"  max {ordered[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--photo", required=True)
    parser.add_argument("--count", type=int, default=30)
    arguments = parser.parse_args()
    photo = open(arguments.photo, "rb").read()
    count = max(1, min(arguments.count, 1000))
    with Stack(arguments.binary, server_args="--create-rate 100000 --upload-rate 100000 --detail-rate 100000") as stack:
        host, port = stack.url.split("//")[1].split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        timings = {"flyer-a4": [], "flyer-letter": [], "card": [], "flyer-a4 again": []}
        sizes = {}
        for index in range(count):
            body = dict(ANNOUNCEMENT, description=ANNOUNCEMENT["description"] + f" #{index}")
            status, data, _ = request(connection, "POST", "/api/v1/announcements", json.dumps(body).encode(),
                                      {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
            created = json.loads(data)
            boundary = "b" + uuid.uuid4().hex
            multipart = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\n"
                         "Content-Type: image/jpeg\r\n\r\n").encode() + photo + f"\r\n--{boundary}--\r\n".encode()
            credentials = base64.b64encode(f"{created['id']}:{created['management_password']}".encode()).decode()
            status, data, _ = request(connection, "POST", f"/api/v1/announcements/{created['id']}/photos", multipart,
                                      {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                       "Authorization": "Basic " + credentials})
            if status != 201:
                sys.exit(f"upload: HTTP {status} {data[:200]!r}")
            digest = json.loads(data)["photo_url"].rsplit("/", 1)[1].split(".")[0]
            request(connection, "GET", f"/photos/{digest}/w1200.jpg")
            page = f"/pets/{created['id']}"
            for name, path in [("flyer-a4", page + "/flyer.pdf"), ("flyer-letter", page + "/flyer.pdf?paper=letter"),
                               ("card", page + "/card.jpg"), ("flyer-a4 again", page + "/flyer.pdf")]:
                status, data, ms = request(connection, "GET", path)
                if status != 200:
                    sys.exit(f"{path}: HTTP {status}")
                timings[name].append(ms)
                sizes[name] = len(data)
        print(f"{count} announcements, photo {os.path.basename(arguments.photo)} ({len(photo) / 1e3:.0f} KB)")
        for name, values in timings.items():
            print(f"{name:15} {summary(values)}   {sizes[name] / 1e3:.0f} KB")


if __name__ == "__main__":
    main()
