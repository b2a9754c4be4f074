#!/usr/bin/env python3
"""Load test for petspot-server on 127.0.0.1: N concurrent clients, each doing M create + photo
upload pairs, then a check that every announcement holds exactly the photo it was sent.

Starts the built server itself (on a free port, over a fresh data directory), measures its peak
RSS (VmHWM from /proc), and prints creates/s, photos/s, p50/p99 latencies and errors.

    swift build -c release --product petspot-server
    scripts/load-server.py --binary .build/release/petspot-server \
        --photo ../shared/corpus/photos/nokia83_4608x1976.jpg --clients 64 --pairs 10

Only loopback is ever contacted; every loop is bounded by --clients x --pairs.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ANNOUNCEMENT = json.dumps({
    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18",
    "location_latitude": 52.2297, "location_longitude": 21.0122,
    "email": "owner@example.com", "phone": "+48123456789", "status": "MISSING",
}).encode()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def multipart(photo, boundary):
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"dog.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode()
    return head + photo + f"\r\n--{boundary}--\r\n".encode()


def client(port, pairs, photo, results, lock):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    boundary = "load-" + uuid.uuid4().hex
    body = multipart(photo, boundary)
    for _ in range(pairs):
        try:
            start = time.perf_counter()
            connection.request("POST", "/api/v1/announcements", ANNOUNCEMENT,
                               {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
            response = connection.getresponse()
            created = json.loads(response.read())
            create_ms = (time.perf_counter() - start) * 1000
            if response.status != 201:
                raise RuntimeError(f"create: HTTP {response.status} {created}")
            credentials = base64.b64encode(f"{created['id']}:{created['management_password']}".encode()).decode()
            start = time.perf_counter()
            while True:
                attempt = time.perf_counter()
                connection.request("POST", f"/api/v1/announcements/{created['id']}/photos", body,
                                   {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                    "Authorization": "Basic " + credentials})
                response = connection.getresponse()
                uploaded = json.loads(response.read())
                if response.status != 503:
                    break
                # Busy: wait as told and send again, as petspot does.
                with lock:
                    results["busy"].append((time.perf_counter() - attempt) * 1000)
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                time.sleep(min(float(response.getheader("Retry-After", "1")), 5))
            attempt_ms = (time.perf_counter() - attempt) * 1000
            upload_ms = (time.perf_counter() - start) * 1000
            if response.status != 201:
                raise RuntimeError(f"upload: HTTP {response.status} {uploaded}")
            with lock:
                results["create_ms"].append(create_ms)
                results["upload_ms"].append(upload_ms)
                results["attempt_ms"].append(attempt_ms)
                results["ids"].append((created["id"], uploaded["photo_url"]))
        except Exception as error:  # noqa: BLE001 - every failure is counted and reported
            with lock:
                results["errors"].append(repr(error))
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.close()


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def verify(port, ids, data_dir):
    """Every announcement points at a photo that is served whole; no stray files on disk."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    keys = set()
    problems = []
    for announcement_id, photo_url in ids:
        connection.request("GET", f"/api/v1/announcements/{announcement_id}")
        details = json.loads(connection.getresponse().read())
        if details.get("photoUrl") != photo_url:
            problems.append(f"{announcement_id}: photoUrl {details.get('photoUrl')} != {photo_url}")
            continue
        path = "/" + photo_url.split("/", 3)[3]
        connection.request("GET", path)
        response = connection.getresponse()
        data = response.read()
        key = path.rsplit("/", 1)[1]
        if response.status != 200 or hashlib.sha256(data).hexdigest() + ".jpg" != key:
            problems.append(f"{announcement_id}: photo {path} not served whole")
        keys.add(key)
    files = [name for _, _, names in os.walk(os.path.join(data_dir, "photos")) for name in names]
    if sorted(files) != sorted(keys):
        problems.append(f"photos on disk {len(files)} != distinct photos referenced {len(keys)}")
    return problems, len(keys)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--photo", required=True)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--server-args", default="", help="extra petspot-server arguments, as one string (the rate limits must be lifted for one-address load: \"--create-rate 100000 --upload-rate 100000\")")
    arguments = parser.parse_args()
    if not 1 <= arguments.clients <= 256 or not 1 <= arguments.pairs <= 100:
        sys.exit("--clients must be 1-256 and --pairs 1-100")

    photo = open(arguments.photo, "rb").read()
    data_dir = tempfile.mkdtemp(prefix="petspot-load-")
    server = subprocess.Popen([arguments.binary, "--port", "0", "--data-dir", data_dir, "--log-level", "warning",
                               "--max-photo-bytes", str(max(20_000_000, len(photo) + 1)), *shlex.split(arguments.server_args)],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            sys.exit(f"server did not start: {line!r}")
        port = int(match.group(1))
        results = {"create_ms": [], "upload_ms": [], "attempt_ms": [], "busy": [], "ids": [], "errors": []}
        lock = threading.Lock()
        threads = [threading.Thread(target=client, args=(port, arguments.pairs, photo, results, lock))
                   for _ in range(arguments.clients)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
        rss = peak_rss_mb(server.pid)
        problems, distinct = verify(port, results["ids"], data_dir)
        pairs = len(results["ids"])
        print(f"clients={arguments.clients} pairs/client={arguments.pairs} photo={os.path.basename(arguments.photo)} "
              f"({len(photo) / 1e6:.2f} MB)")
        print(f"completed pairs: {pairs} in {elapsed:.1f} s; errors: {len(results['errors'])}")
        if pairs:
            print(f"creates/s: {pairs / elapsed:.1f}   photos/s: {pairs / elapsed:.1f}")
            print(f"create latency ms: p50 {percentile(results['create_ms'], 0.5):.0f}  "
                  f"p99 {percentile(results['create_ms'], 0.99):.0f}")
            print(f"upload latency ms: p50 {percentile(results['upload_ms'], 0.5):.0f}  "
                  f"p99 {percentile(results['upload_ms'], 0.99):.0f}  mean {statistics.mean(results['upload_ms']):.0f}"
                  " (first send to 201, waits included)")
            print(f"accepted upload ms: p50 {percentile(results['attempt_ms'], 0.5):.0f}  "
                  f"p99 {percentile(results['attempt_ms'], 0.99):.0f} (the send that got 201)")
            if results["busy"]:
                print(f"503 busy answers: {len(results['busy'])}, p99 {percentile(results['busy'], 0.99):.0f} ms each")
        print(f"server peak RSS: {rss:.1f} MB")
        print(f"verification: {pairs} announcements, {distinct} distinct stored photo(s), problems: {len(problems)}")
        for problem in (results["errors"] + problems)[:10]:
            print("  " + problem)
        return 1 if results["errors"] or problems else 0
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
