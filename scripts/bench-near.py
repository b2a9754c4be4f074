#!/usr/bin/env python3
"""Times searches near a point on a large installation: COUNT announcements spread uniformly over
a country-sized box (49-55 N, 14-24 E, about 460,000 km^2: some 700 in every 10 km circle), then
SEARCHES random `GET /api/v1/announcements?near=LAT,LON&radius_km=10` (the first page of 20) over
one keep-alive connection, and prints p50/p99 and the database's plan for the query.

    swift build -c release --product petspot-server
    scripts/bench-near.py --binary .build/release/petspot-server --count 1000000 [--backend postgres-s3]

The rows are copies of one announcement made through the API, inserted with sqlite3 (the
R*Tree follows through the schema's triggers) or with PostgreSQL's generate_series; then the
server is started on them. Only loopback is contacted.
"""
import argparse
import http.client
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from petspot_stack import Stack  # noqa: E402

BOX = (49.0, 55.0, 14.0, 24.0)
ANNOUNCEMENT = json.dumps({"species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18", "location_latitude": 52.2,
                           "location_longitude": 21.0, "email": "owner@example.com", "phone": "+48123456789",
                           "status": "MISSING"}).encode()


def create_one(url):
    request = urllib.request.Request(url + "/api/v1/announcements", ANNOUNCEMENT, {"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()


def fill_sqlite(path, count, extra=None):
    """COUNT rows copied from the one announcement there; `extra(index)` gives more columns' values."""
    database = sqlite3.connect(path)
    columns = [row[1] for row in database.execute("PRAGMA table_info(announcement)") if row[1] != "position"]
    template = dict(zip(columns, database.execute(f"SELECT {', '.join(columns)} FROM announcement").fetchone()))
    random.seed(7)
    batch = []
    started = time.time()
    for index in range(1, count):
        row = dict(template, id=str(uuid.uuid4()), latitude=random.uniform(BOX[0], BOX[1]), longitude=random.uniform(BOX[2], BOX[3]),
                   species=random.choice(["DOG", "CAT"]), created_at=template["created_at"] + index)
        if extra:
            row.update(extra(index))
        batch.append(tuple(row[c] for c in columns))
        if len(batch) == 50_000:
            database.executemany(f"INSERT INTO announcement ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", batch)
            batch = []
    if batch:
        database.executemany(f"INSERT INTO announcement ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", batch)
    database.commit()
    database.execute("ANALYZE")
    print(f"inserted {count - 1} rows in {time.time() - started:.0f} s", file=sys.stderr)
    database.close()


def sqlite_plan(path, latitude, longitude):
    database = sqlite3.connect(path)
    plan = database.execute("""EXPLAIN QUERY PLAN SELECT a.position FROM announcement_box b JOIN announcement a ON a.position = b.position
        WHERE b.min_latitude <= ? AND b.max_latitude >= ? AND b.min_longitude <= ? AND b.max_longitude >= ? AND a.deleted_at IS NULL""",
                            (latitude + 0.09, latitude - 0.09, longitude + 0.15, longitude - 0.15)).fetchall()
    database.close()
    return "\n".join(row[3] for row in plan)


def fill_postgres(stack, count, extra_columns="", extra_values=""):
    """COUNT rows copied from the one announcement there; `extra_columns` (", a, b") take
    `extra_values` (", expression of n, …")."""
    started = time.time()
    stack.sql(f"""INSERT INTO announcement (id, status, species, sex, last_seen_date, latitude, longitude, email, phone,
        password_hash, created_at, updated_at, revision{extra_columns})
        SELECT gen_random_uuid()::text, status, CASE WHEN n % 2 = 0 THEN 'DOG' ELSE 'CAT' END, sex, last_seen_date,
               {BOX[0]} + random() * {BOX[1] - BOX[0]}, {BOX[2]} + random() * {BOX[3] - BOX[2]}, email, phone,
               password_hash, created_at + n, updated_at + n, 1{extra_values}
        FROM announcement, generate_series(1, {count - 1}) AS n""")
    stack.sql("ANALYZE announcement")
    print(f"inserted {count - 1} rows in {time.time() - started:.0f} s", file=sys.stderr)


def postgres_plan(stack, latitude, longitude):
    scale = __import__("math").cos(latitude * 3.141592653589793 / 180)
    result = subprocess.run(["psql", stack.database_url, "-At", "-c", f"""EXPLAIN ANALYZE SELECT * FROM (
        SELECT position, ((latitude - {latitude})^2 + ((longitude - {longitude}) * {scale})^2) AS metric FROM announcement
        WHERE latitude BETWEEN {latitude - 0.0905} AND {latitude + 0.0905} AND longitude BETWEEN {longitude - 0.149} AND {longitude + 0.149}
          AND deleted_at IS NULL AND NOT (latitude = 0 AND longitude = 0) AND (closed_outcome IS NOT NULL) = false) inside
        WHERE metric <= 0.0081 ORDER BY metric, position DESC LIMIT 21"""], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def search(url, count, seed):
    parsed = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
    random.seed(seed)
    timings, sizes = [], []
    for _ in range(count):
        latitude, longitude = random.uniform(BOX[0] + 0.2, BOX[1] - 0.2), random.uniform(BOX[2] + 0.3, BOX[3] - 0.3)
        start = time.perf_counter()
        connection.request("GET", f"/api/v1/announcements?near={latitude:.5f},{longitude:.5f}&radius_km=10")
        response = connection.getresponse()
        body = response.read()
        timings.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {body[:200]!r}")
        sizes.append(len(json.loads(body)["data"]))
    timings.sort()
    return statistics.median(timings), timings[int(0.99 * (len(timings) - 1))], statistics.mean(sizes)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--searches", type=int, default=500)
    parser.add_argument("--backend", choices=["sqlite", "postgres-s3"], default="sqlite")
    arguments = parser.parse_args()
    limits = "--list-rate 1000000 --create-rate 100000"
    if arguments.backend == "sqlite":
        folder = tempfile.mkdtemp(prefix="petspot-near-")
        server = subprocess.Popen([arguments.binary, "--port", "0", "--data-dir", folder, "--log-level", "warning", *limits.split()],
                                  stdout=subprocess.PIPE, text=True)
        base = re.search(r"(http://127\.0\.0\.1:\d+)", server.stdout.readline()).group(1)
        create_one(base)
        server.terminate()
        server.wait()
        fill_sqlite(os.path.join(folder, "petspot-server.sqlite"), arguments.count)
        server = subprocess.Popen([arguments.binary, "--port", "0", "--data-dir", folder, "--log-level", "warning", *limits.split()],
                                  stdout=subprocess.PIPE, text=True)
        base = re.search(r"(http://127\.0\.0\.1:\d+)", server.stdout.readline()).group(1)
        search(base, 50, 1)
        p50, p99, mean = search(base, arguments.searches, 2)
        plan = sqlite_plan(os.path.join(folder, "petspot-server.sqlite"), 52.2, 21.0)
        server.terminate()
        server.wait()
        subprocess.run(["rm", "-rf", folder])
    else:
        with Stack(arguments.binary, backend="postgres-s3", server_args=limits) as stack:
            create_one(stack.url)
            fill_postgres(stack, arguments.count)
            search(stack.url, 50, 1)
            p50, p99, mean = search(stack.url, arguments.searches, 2)
            plan = postgres_plan(stack, 52.2, 21.0)
    print(f"{arguments.backend}: {arguments.count} announcements, {arguments.searches} searches of 10 km (first page of 20, "
          f"{mean:.1f} items on average): p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print("plan:\n" + plan)


if __name__ == "__main__":
    main()
