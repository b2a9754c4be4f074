#!/usr/bin/env python3
"""Times finding a pet by its chip on a large installation: COUNT announcements (as
scripts/bench-near.py makes them), 70 % of them with a distinct 15-digit microchip number and
one in twenty of those closed, then LOOKUPS random `GET /api/v1/announcements?chip=NUMBER` over one
keep-alive connection (four in five for a number an announcement has, typed with spaces as people
read it off a scanner; the rest for numbers none has), and prints p50/p99 and the database's plan.

    swift build -c release --product petspot-server
    scripts/bench-chip.py --binary .build/release/petspot-server --count 1000000 [--backend postgres-s3]

Only loopback is contacted.
"""
import argparse
import http.client
import importlib.util
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
spec = importlib.util.spec_from_file_location("bench_near", os.path.join(HERE, "bench-near.py"))
bench_near = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_near)
from petspot_stack import Stack  # noqa: E402

QUERY = """SELECT position FROM announcement
    WHERE microchip_number = '000000000012345' AND deleted_at IS NULL AND closed_outcome IS NULL
      AND position < 9223372036854775807 ORDER BY position DESC LIMIT 21"""


def chip(index):
    return f"{index:015d}"


def has_chip(index):
    return index % 10 < 7


def closed(index):
    return index % 20 == 0


def sqlite_extra(index):
    return {"microchip_number": chip(index) if has_chip(index) else None,
            "closed_outcome": "REUNITED" if closed(index) else None}


def spaced(number):
    return " ".join(number[i:i + 3] for i in range(0, len(number), 3))


def lookups(url, count, total, seed):
    parsed = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
    random.seed(seed)
    timings, found = [], 0
    for _ in range(count):
        if random.random() < 0.8:
            index = random.randrange(1, total)
            while not has_chip(index):
                index = random.randrange(1, total)
            number = chip(index)
        else:
            number = f"9{random.randrange(10 ** 14):014d}"
        start = bench_near.time.perf_counter()
        connection.request("GET", "/api/v1/announcements?chip=" + urllib.parse.quote(spaced(number)))
        response = connection.getresponse()
        body = response.read()
        timings.append((bench_near.time.perf_counter() - start) * 1000)
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {body[:200]!r}")
        found += len(json.loads(body)["data"])
    timings.sort()
    return statistics.median(timings), timings[int(0.99 * (len(timings) - 1))], found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--backend", choices=["sqlite", "postgres-s3"], default="sqlite")
    arguments = parser.parse_args()
    limits = "--list-rate 1000000 --create-rate 100000"
    if arguments.backend == "sqlite":
        folder = tempfile.mkdtemp(prefix="petspot-chip-")
        command = [arguments.binary, "--port", "0", "--data-dir", folder, "--log-level", "warning", *limits.split()]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        base = re.search(r"(http://127\.0\.0\.1:\d+)", server.stdout.readline()).group(1)
        bench_near.create_one(base)
        server.terminate()
        server.wait()
        database = os.path.join(folder, "petspot-server.sqlite")
        bench_near.fill_sqlite(database, arguments.count, extra=sqlite_extra)
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        base = re.search(r"(http://127\.0\.0\.1:\d+)", server.stdout.readline()).group(1)
        lookups(base, 100, arguments.count, 1)
        p50, p99, found = lookups(base, arguments.lookups, arguments.count, 2)
        plan = "\n".join(row[3] for row in bench_near.sqlite3.connect(database).execute("EXPLAIN QUERY PLAN " + QUERY))
        server.terminate()
        server.wait()
        subprocess.run(["rm", "-rf", folder])
    else:
        with Stack(arguments.binary, backend="postgres-s3", server_args=limits) as stack:
            bench_near.create_one(stack.url)
            bench_near.fill_postgres(
                stack, arguments.count, ", microchip_number, closed_outcome",
                ", CASE WHEN n % 10 < 7 THEN lpad(n::text, 15, '0') END, CASE WHEN n % 20 = 0 THEN 'REUNITED' END")
            lookups(stack.url, 100, arguments.count, 1)
            p50, p99, found = lookups(stack.url, arguments.lookups, arguments.count, 2)
            plan = subprocess.run(["psql", stack.database_url, "-At", "-c", "EXPLAIN ANALYZE " + QUERY],
                                  capture_output=True, text=True, check=True).stdout.strip()
    print(f"{arguments.backend}: {arguments.count} announcements, {arguments.lookups} chip lookups "
          f"({found} announcements found): p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print("plan:\n" + plan)


if __name__ == "__main__":
    main()
