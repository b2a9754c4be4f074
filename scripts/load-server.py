#!/usr/bin/env python3
"""Load test for petspot-server on 127.0.0.1: N concurrent clients, each doing M create + photo
upload pairs, then a check that nothing was lost or duplicated.

Starts what it tests itself (scripts/petspot_stack.py): one replica on SQLite + the data
directory (default), or on PostgreSQL + an S3 emulator (`--backend postgres-s3`), or several
such replicas behind nginx (`--replicas 3`). Clients behave as petspot does: a create carries an
Idempotency-Key and is sent again with the same key when the connection drops or the answer is
502/503/504 (waiting as Retry-After says); an upload is sent again the same way (the photo's key
follows from its bytes, so a repeat is harmless). Every fifth create is sent a second time after
it succeeded, and must answer the same announcement.

`--kill-replica-after S` sends SIGKILL to replica 2 S seconds into the run (nginx sends its
requests to the others). At the end: every announcement answers with the photo it was sent,
served whole; the listing holds each id exactly once; with PostgreSQL, the tables hold exactly
one row per announcement and the bucket every referenced photo. Prints creates/s, photos/s,
p50/p99 latencies, retries, errors, peak RSS per replica and the CPU each part of the stack
used per pair (from /proc); `--per-request N` first measures CPU per create and per upload from N
sequential ones. A photo `petspot` prepared is made distinct for each upload (its JFIF density),
so every upload is stored; `--json` prints one JSON summary.

    swift build -c release --product petspot-server
    scripts/load-server.py --binary .build/release/petspot-server \
        --photo ../shared/corpus/photos/nokia83_4608x1976.jpg --clients 64 --pairs 10 \
        [--backend postgres-s3] [--replicas 3] [--kill-replica-after 3]

Only loopback is ever contacted; every loop is bounded by --clients x --pairs and the retry budget.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from petspot_stack import Stack  # noqa: E402

ANNOUNCEMENT = json.dumps({
    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18",
    "location_latitude": 52.2297, "location_longitude": 21.0122,
    "email": "owner@example.com", "phone": "+48123456789", "status": "MISSING",
}).encode()
RETRY_BUDGET_S = 90


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


COUNTER = iter(range(1, 1 << 32))
COUNTER_LOCK = threading.Lock()


def variant(photo):
    """The photo with a JFIF density no other upload of the run has, so every upload of a photo
    petspot prepared is a distinct photo to store (still a prepared photo, kept as sent); other
    files are sent as they are."""
    if not (photo[:4] == b"\xff\xd8\xff\xe0" and photo[6:11] == b"JFIF\0"):
        return photo
    with COUNTER_LOCK:
        number = next(COUNTER)
    # Xdensity and Ydensity (bytes 14-17 of the file), each 1-65535.
    density = (number // 65535 + 1).to_bytes(2, "big") + (number % 65535 + 1).to_bytes(2, "big")
    return photo[:14] + density + photo[18:]


def multipart(photo, boundary):
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"dog.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode()
    return head + photo + f"\r\n--{boundary}--\r\n".encode()


class Client:
    def __init__(self, url, results, lock):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.results, self.lock = results, lock
        self.connection = None

    def count(self, key, value=1):
        with self.lock:
            self.results[key] += value

    def send(self, method, path, body, headers):
        """Sends until an answer that is not 502/503/504 comes, or the retry budget is spent."""
        deadline = time.monotonic() + RETRY_BUDGET_S
        while True:
            attempt = time.perf_counter()
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
                self.connection.request(method, path, body, headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                if response.status not in (502, 503, 504):
                    return response.status, data, (time.perf_counter() - attempt) * 1000
                self.count(f"retried_{response.status}")
                wait = min(float(response.getheader("Retry-After", "1")), 5)
            except (OSError, http.client.HTTPException):
                self.count("retried_connection")
                if self.connection:
                    self.connection.close()
                self.connection = None
                wait = 0.5
            if time.monotonic() + wait > deadline:
                raise RuntimeError(f"{method} {path}: no answer but 502/503/504 or dropped connections for {RETRY_BUDGET_S} s")
            time.sleep(wait)

    def run(self, pairs, photo):
        boundary = "load-" + uuid.uuid4().hex
        for index in range(pairs):
            body = multipart(variant(photo), boundary)
            try:
                key = str(uuid.uuid4())
                headers = {"Content-Type": "application/json", "Idempotency-Key": key}
                start = time.perf_counter()
                status, data, _ = self.send("POST", "/api/v1/announcements", ANNOUNCEMENT, headers)
                create_ms = (time.perf_counter() - start) * 1000
                created = json.loads(data)
                if status != 201:
                    raise RuntimeError(f"create: HTTP {status} {created}")
                if index % 5 == 0:
                    status, data, _ = self.send("POST", "/api/v1/announcements", ANNOUNCEMENT, headers)
                    again = json.loads(data)
                    if status not in (200, 201) or again.get("id") != created["id"]:
                        raise RuntimeError(f"repeated Idempotency-Key: HTTP {status}, id {again.get('id')} != {created['id']}")
                    self.count("repeated_keys")
                credentials = base64.b64encode(f"{created['id']}:{created['management_password']}".encode()).decode()
                start = time.perf_counter()
                status, data, attempt_ms = self.send(
                    "POST", f"/api/v1/announcements/{created['id']}/photos", body,
                    {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": "Basic " + credentials})
                upload_ms = (time.perf_counter() - start) * 1000
                uploaded = json.loads(data)
                if status != 201:
                    raise RuntimeError(f"upload: HTTP {status} {uploaded}")
                with self.lock:
                    self.results["create_ms"].append(create_ms)
                    self.results["upload_ms"].append(upload_ms)
                    self.results["attempt_ms"].append(attempt_ms)
                    self.results["ids"].append((created["id"], uploaded["photo_url"]))
            except Exception as error:  # noqa: BLE001 - every failure is counted and reported
                with self.lock:
                    self.results["errors"].append(repr(error)[:300])
        if self.connection:
            self.connection.close()


def per_request_cpu(stack, photo, count):
    """Server CPU per request, from sequential requests on one connection: `count` creates, then
    one upload to each of them. Returns ms of CPU per request for each part of the stack, and
    the (id, photo URL) pairs made, for the verification."""
    client = Client(stack.url, {"retried_502": 0, "retried_503": 0, "retried_504": 0, "retried_connection": 0},
                    threading.Lock())
    boundary = "cpu-" + uuid.uuid4().hex
    bodies = [multipart(variant(photo), boundary) for _ in range(count)]
    created, figures, made = [], {}, []
    before = stack.cpu_seconds()
    for _ in range(count):
        status, data, _ = client.send("POST", "/api/v1/announcements", ANNOUNCEMENT,
                                      {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
        if status != 201:
            raise RuntimeError(f"create: HTTP {status} {data[:200]!r}")
        created.append(json.loads(data))
    middle = stack.cpu_seconds()
    for announcement, body in zip(created, bodies):
        credentials = base64.b64encode(f"{announcement['id']}:{announcement['management_password']}".encode()).decode()
        status, data, _ = client.send("POST", f"/api/v1/announcements/{announcement['id']}/photos", body,
                                      {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                       "Authorization": "Basic " + credentials})
        if status != 201:
            raise RuntimeError(f"upload: HTTP {status} {data[:200]!r}")
        made.append((announcement["id"], json.loads(data)["photo_url"]))
    after = stack.cpu_seconds()
    for part in before:
        figures[part] = {"create_ms": round((middle[part] - before[part]) * 1000 / count, 2),
                         "upload_ms": round((after[part] - middle[part]) * 1000 / count, 2)}
    return figures, made


def verify(stack, ids):
    """Every announcement points at its photo, served whole; the listing and the storage hold
    each exactly once."""
    client = Client(stack.url, {"retried_502": 0, "retried_503": 0, "retried_504": 0, "retried_connection": 0},
                    threading.Lock())
    problems, keys = [], set()
    for announcement_id, photo_url in ids:
        status, data, _ = client.send("GET", f"/api/v1/announcements/{announcement_id}", None, {})
        details = json.loads(data)
        if status != 200 or details.get("photoUrl") != photo_url:
            problems.append(f"{announcement_id}: HTTP {status}, photoUrl {details.get('photoUrl')} != {photo_url}")
            continue
        path = "/" + photo_url.split("/", 3)[3]
        status, data, _ = client.send("GET", path, None, {})
        key = path.rsplit("/", 1)[1]
        if status != 200 or hashlib.sha256(data).hexdigest() + ".jpg" != key:
            problems.append(f"{announcement_id}: photo {path} not served whole")
        keys.add(key)
    listed, cursor = [], None
    while True:
        status, data, _ = client.send("GET", "/api/v1/announcements?limit=100" + (f"&cursor={cursor}" if cursor else ""), None, {})
        page = json.loads(data)
        listed += [item["id"] for item in page["data"]]
        cursor = page.get("next_cursor")
        if not cursor:
            break
    expected = sorted(i for i, _ in ids)
    if len(listed) != len(set(listed)):
        problems.append(f"the listing repeats ids: {len(listed)} entries, {len(set(listed))} distinct")
    missing = set(expected) - set(listed)
    if missing:
        problems.append(f"{len(missing)} created announcement(s) missing from the listing")
    storage = {}
    if stack.backend == "postgres-s3":
        rows = int(stack.sql("SELECT count(*) FROM announcement"))
        distinct = int(stack.sql("SELECT count(DISTINCT id) FROM announcement"))
        storage = {"rows": rows, "listed": len(set(listed))}
        if rows != distinct or rows != len(set(listed)):
            problems.append(f"announcement rows {rows} (distinct {distinct}) != listed {len(set(listed))}")
        objects = stack.bucket_keys()
        storage["objects"] = len(objects)
        if not keys <= objects:
            problems.append(f"{len(keys - objects)} referenced photo(s) missing from the bucket")
    else:
        files = [name for _, _, names in os.walk(os.path.join(stack.replicas[0]["data_dir"], "photos")) for name in names]
        storage = {"files": len(files)}
        if sorted(files) != sorted(keys):
            problems.append(f"photos on disk {len(files)} != distinct photos referenced {len(keys)}")
    return problems, len(keys), storage


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--photo", required=True)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--backend", choices=["sqlite", "postgres-s3"], default="sqlite")
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--nginx", action="store_true", help="put nginx in front (always with --replicas > 1)")
    parser.add_argument("--kill-replica-after", type=float, help="SIGKILL replica 2 this many seconds into the run")
    parser.add_argument("--json", action="store_true", help="print one JSON summary line")
    parser.add_argument("--per-request", type=int, metavar="N",
                        help="first measure CPU per request from N sequential creates and N uploads")
    parser.add_argument("--server-args", default="--create-rate 100000 --upload-rate 100000 --list-rate 100000 --detail-rate 100000",
                        help="extra petspot-server arguments, as one string (default: the rate limits lifted for one-address load)")
    arguments = parser.parse_args()
    if not 1 <= arguments.clients <= 256 or not 1 <= arguments.pairs <= 100 or not 1 <= arguments.replicas <= 8:
        sys.exit("--clients must be 1-256, --pairs 1-100 and --replicas 1-8")
    if arguments.kill_replica_after is not None and arguments.replicas < 2:
        sys.exit("--kill-replica-after needs --replicas 2 or more")

    photo = open(arguments.photo, "rb").read()
    server_args = f"--max-photo-bytes {max(20_000_000, len(photo) + 1)} {arguments.server_args}"
    with Stack(arguments.binary, backend=arguments.backend, replicas=arguments.replicas,
               nginx=arguments.nginx or arguments.replicas > 1, server_args=server_args) as stack:
        sequential, made = per_request_cpu(stack, photo, arguments.per_request) if arguments.per_request else (None, [])
        results = {"create_ms": [], "upload_ms": [], "attempt_ms": [], "ids": [], "errors": [], "repeated_keys": 0,
                   "retried_502": 0, "retried_503": 0, "retried_504": 0, "retried_connection": 0}
        lock = threading.Lock()
        threads = [threading.Thread(target=Client(stack.url, results, lock).run, args=(arguments.pairs, photo))
                   for _ in range(arguments.clients)]
        killer = None
        if arguments.kill_replica_after is not None:
            killer = threading.Timer(arguments.kill_replica_after, stack.kill_replica, args=(1,))
            killer.start()
        cpu_before = stack.cpu_seconds()
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
        cpu_after = stack.cpu_seconds()
        if killer:
            killer.join()
        rss = stack.peak_rss_mb()
        problems, distinct, storage = verify(stack, results["ids"] + made)
        pairs = len(results["ids"])
        retries = {k[len("retried_"):]: v for k, v in results.items() if k.startswith("retried_")}
        summary = {
            "backend": arguments.backend, "replicas": arguments.replicas, "clients": arguments.clients,
            "pairs": pairs, "seconds": round(elapsed, 2), "pairs_per_s": round(pairs / elapsed, 2),
            "create_p50_ms": round(percentile(results["create_ms"], 0.5)) if pairs else None,
            "create_p99_ms": round(percentile(results["create_ms"], 0.99)) if pairs else None,
            "upload_p50_ms": round(percentile(results["upload_ms"], 0.5)) if pairs else None,
            "upload_p99_ms": round(percentile(results["upload_ms"], 0.99)) if pairs else None,
            "accepted_upload_p50_ms": round(percentile(results["attempt_ms"], 0.5)) if pairs else None,
            "accepted_upload_p99_ms": round(percentile(results["attempt_ms"], 0.99)) if pairs else None,
            "repeated_keys": results["repeated_keys"], "retries": retries, "errors": results["errors"][:20],
            "error_count": len(results["errors"]), "problems": problems[:20], "distinct_photos": distinct,
            "storage": storage, "peak_rss_mb": [None if r != r else round(r, 1) for r in rss],
            "killed_replica": 2 if killer else None,
            "cpu_ms_per_pair": {part: round((cpu_after[part] - cpu_before[part]) * 1000 / max(pairs, 1), 1)
                                for part in cpu_before},
            "cpu_per_request_ms": sequential,
        }
        if arguments.json:
            print(json.dumps(summary), flush=True)
        else:
            print(f"backend={arguments.backend} replicas={arguments.replicas} clients={arguments.clients} "
                  f"pairs/client={arguments.pairs} photo={os.path.basename(arguments.photo)} ({len(photo) / 1e6:.2f} MB)")
            print(f"completed pairs: {pairs} in {elapsed:.1f} s; errors: {len(results['errors'])}")
            if pairs:
                print(f"creates/s: {pairs / elapsed:.1f}   photos/s: {pairs / elapsed:.1f}")
                print(f"create latency ms: p50 {percentile(results['create_ms'], 0.5):.0f}  "
                      f"p99 {percentile(results['create_ms'], 0.99):.0f}")
                print(f"upload latency ms: p50 {percentile(results['upload_ms'], 0.5):.0f}  "
                      f"p99 {percentile(results['upload_ms'], 0.99):.0f}  mean {statistics.mean(results['upload_ms']):.0f}"
                      " (first send to 201, retries included)")
                print(f"accepted upload latency ms: p50 {percentile(results['attempt_ms'], 0.5):.0f}  "
                      f"p99 {percentile(results['attempt_ms'], 0.99):.0f} (the attempt answered 201)")
            print(f"retried answers: {retries}; repeated idempotency keys answered alike: {results['repeated_keys']}")
            if sequential:
                print("CPU per request, sequential (ms): " + "; ".join(
                    f"{part} create {v['create_ms']:.2f} upload {v['upload_ms']:.2f}" for part, v in sequential.items()))
            print("CPU per create+upload pair under load (ms): " + ", ".join(
                f"{part} {value}" for part, value in summary["cpu_ms_per_pair"].items()))
            print("peak RSS per replica: " + ", ".join("killed" if r != r else f"{r:.1f} MB" for r in rss))
            print(f"verification: {pairs} announcements, {distinct} distinct stored photo(s), storage {storage}, "
                  f"problems: {len(problems)}")
            for problem in (results["errors"] + problems)[:10]:
                print("  " + problem)
        return 1 if results["errors"] or problems else 0


if __name__ == "__main__":
    sys.exit(main())
