#!/usr/bin/env python3
"""Makes an embedded petspot-server installation with many announcements and photos, for timing
`petspot-server migrate`: the server itself creates the data directory, its schema and one
announcement through the API; the rest are copies of that row (new ids, later dates, the same
password hash) added with sqlite3, each with its own small JPEG (Pillow) stored as the server
stores photos (photos/<2 hex>/<sha256>.jpg).

    scripts/make-installation.py --binary .build/release/petspot-server --count 10000 --dir /tmp/petspot-10k
"""
import argparse
import hashlib
import io
import json
import os
import re
import sqlite3
import subprocess
import urllib.request
import uuid


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--dir", required=True)
    arguments = parser.parse_args()
    from PIL import Image

    server = subprocess.Popen([arguments.binary, "--port", "0", "--data-dir", arguments.dir, "--log-level", "warning"],
                              stdout=subprocess.PIPE, text=True)
    base = re.search(r"(http://127\.0\.0\.1:\d+)", server.stdout.readline()).group(1)
    body = json.dumps({"species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18", "location_latitude": 52.2,
                       "location_longitude": 21.0, "email": "owner@example.com", "phone": "+48123456789",
                       "status": "MISSING"}).encode()
    request = urllib.request.Request(base + "/api/v1/announcements", body, {"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    server.terminate()
    server.wait()

    database = sqlite3.connect(os.path.join(arguments.dir, "petspot-server.sqlite"))
    columns = [row[1] for row in database.execute("PRAGMA table_info(announcement)") if row[1] != "position"]
    template = dict(zip(columns, database.execute(f"SELECT {', '.join(columns)} FROM announcement").fetchone()))
    rows = []
    for index in range(1, arguments.count):
        image = Image.new("RGB", (64, 48), ((index * 7) % 256, (index * 13) % 256, 128))
        for bit in range(16):  # the index in black and white blocks: every photo differs
            if index >> bit & 1:
                image.paste((255, 255, 255), (bit % 8 * 8, bit // 8 * 8 + 24, bit % 8 * 8 + 8, bit // 8 * 8 + 32))
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        data = buffer.getvalue()
        key = hashlib.sha256(data).hexdigest() + ".jpg"
        folder = os.path.join(arguments.dir, "photos", key[:2])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, key), "wb") as f:
            f.write(data)
        row = dict(template, id=str(uuid.uuid4()), photo_key=key,
                   created_at=template["created_at"] + index, updated_at=template["updated_at"] + index)
        rows.append(tuple(row[c] for c in columns))
    database.executemany(f"INSERT INTO announcement ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows)
    database.commit()
    count = database.execute("SELECT count(*), count(photo_key), count(DISTINCT photo_key) FROM announcement").fetchone()
    print(f"{arguments.dir}: {count[0]} announcements, {count[1]} with a photo, {count[2]} distinct photos")


if __name__ == "__main__":
    main()
