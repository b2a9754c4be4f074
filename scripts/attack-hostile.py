#!/usr/bin/env python3
"""What a hostile client still tries against petspot-server, on both backends: JPEGs whose scans
cost far more than their bytes, HEIC grids of thousands of tiles and `ispe` boxes that lie, a share
card's ETag read for the phone number, bytes riding in colour profiles and JFIF thumbnails, text of
combining marks, /health in a loop, what a take-down leaves on disk, part headers without end, and
one owner's flood of costly uploads beside another owner's ordinary one.

    swift build -c release --product petspot-server
    scripts/attack-hostile.py --binary .build/release/petspot-server all              # figures, SQLite + folder
    scripts/attack-hostile.py --binary ... --backend postgres-s3 scan-bomb             # PostgreSQL + S3
    scripts/attack-hostile.py --binary ... --backend both --check all                  # what CI runs

Each scenario prints one line of figures; with --check it also fails (exit 1) when a figure is
not what the server promises, and the run ends with "N passed, M failed". One server per backend
serves every scenario (each uses its own client address through --trusted-proxy, so their rates
do not mix). PostgreSQL and the S3 emulator come from PETSPOT_ATTACK_DATABASE_URL,
PETSPOT_ATTACK_S3_ENDPOINT, PETSPOT_ATTACK_S3_BUCKET and the AWS_* variables when set (the tests
pass theirs), else scripts/pg-cluster.py and scripts/s3-emulator.py are started. Only loopback is
contacted; every loop is bounded.
"""
import argparse
import base64
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "TestImages"))
import progressive_scans  # noqa: E402
sys.path.insert(0, HERE)
import hostile_files  # noqa: E402

ANNOUNCEMENT = {
    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18",
    "location_latitude": 52.2297, "location_longitude": 21.0122,
    "email": "owner@example.com", "phone": "+48 601 234 567", "status": "MISSING",
}
RESULTS = {"passed": 0, "failed": 0}


def check(arguments, condition, what):
    if not arguments.check:
        return
    RESULTS["passed" if condition else "failed"] += 1
    if not condition:
        print(f"  FAILED: {what}", flush=True)


class Engines:
    """PostgreSQL and an S3 bucket: given in the environment, or started here."""

    def __init__(self):
        self.children = []
        self.database = os.environ.get("PETSPOT_ATTACK_DATABASE_URL")
        self.endpoint = os.environ.get("PETSPOT_ATTACK_S3_ENDPOINT")
        self.bucket = os.environ.get("PETSPOT_ATTACK_S3_BUCKET")
        self.key_id = os.environ.get("AWS_ACCESS_KEY_ID")
        self.secret = os.environ.get("AWS_SECRET_ACCESS_KEY")
        if not self.database:
            cluster = subprocess.Popen([sys.executable, os.path.join(HERE, "pg-cluster.py")], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)
            self.children.append(cluster)
            base = json.loads(cluster.stdout.readline())["base_url"]
            cluster.stdin.write("createdb attack\n")
            cluster.stdin.flush()
            cluster.stdout.readline()
            self.database = base + "/attack"
        if not self.endpoint:
            emulator = subprocess.Popen([sys.executable, os.path.join(HERE, "s3-emulator.py"), "--bucket", "attack"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.children.append(emulator)
            started = json.loads(emulator.stdout.readline())
            self.endpoint, self.bucket = started["endpoint"], started["bucket"]
            self.key_id, self.secret = started["access_key_id"], started["secret_access_key"]

    def stop(self):
        for child in self.children:
            child.stdin.close()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()


class Server:
    """One petspot-server on a free port, SQLite + folder or PostgreSQL + S3."""

    def __init__(self, binary, backend, engines=None, extra=()):
        self.backend = backend
        self.data_dir = tempfile.mkdtemp(prefix="petspot-hostile-")
        environment = dict(os.environ)
        arguments = [binary, "--port", "0", "--data-dir", self.data_dir, "--log-level", "warning",
                     "--trusted-proxy", "127.0.0.1", *extra]
        if backend == "postgres-s3":
            prefix = "h" + secrets.token_hex(4)
            environment.update(PETSPOT_DATABASE_URL=engines.database, AWS_ACCESS_KEY_ID=engines.key_id,
                               AWS_SECRET_ACCESS_KEY=engines.secret,
                               PETSPOT_PASSWORD_KEY="v1:" + base64.b64encode(os.urandom(32)).decode())
            arguments += ["--photo-store", f"s3://{engines.bucket}/{prefix}", "--s3-endpoint", engines.endpoint,
                          "--database-connections", "4"]
            self.database = engines.database
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            sys.exit(f"server did not start: {line!r} {self.process.stdout.read()}")
        self.port = int(match.group(1))
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def cpu_seconds(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_peak_mb(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def request(self, method, path, body=None, headers=None, address="198.51.100.1", timeout=120):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        connection.request(method, path, body, {"X-Forwarded-For": address, **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), data

    def create(self, address, **changes):
        status, _, body = self.request("POST", "/api/v1/announcements", json.dumps({**ANNOUNCEMENT, **changes}).encode(),
                                       {"Content-Type": "application/json"}, address=address)
        assert status == 201, (status, body)
        return json.loads(body)

    @staticmethod
    def auth(announcement):
        return "Basic " + base64.b64encode(f"{announcement['id']}:{announcement['management_password']}".encode()).decode()

    def upload(self, announcement, photo, address):
        boundary = "hostile-" + secrets.token_hex(8)
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + photo + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", f"/api/v1/announcements/{announcement['id']}/photos", body,
                            {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": self.auth(announcement)},
                            address=address)

    def patch(self, announcement, changes, address):
        return self.request("PATCH", f"/api/v1/announcements/{announcement['id']}", json.dumps(changes).encode(),
                            {"Content-Type": "application/json", "Authorization": self.auth(announcement)}, address=address)

    def sql(self, query):
        """One value from the server's database (sqlite3, or psql on PostgreSQL)."""
        if self.backend == "postgres-s3":
            return subprocess.run(["psql", self.database, "-At", "-c", query], capture_output=True, text=True, check=True).stdout.strip()
        with sqlite3.connect(f"file:{self.data_dir}/petspot-server.sqlite?mode=ro", uri=True) as db:
            row = db.execute(query).fetchone()
            return str(row[0]) if row else ""

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def timed_cpu(server, call):
    """(result, server CPU seconds, wall seconds) of call()."""
    cpu, wall = server.cpu_seconds(), time.time()
    result = call()
    return result, server.cpu_seconds() - cpu, time.time() - wall


def test_image(name):
    return open(os.path.join(ROOT, "TestImages", name), "rb").read()


# --------------------------------------------------------------------------------------------
# Scenarios. Each takes (server, arguments) and prints one line.
# --------------------------------------------------------------------------------------------

def scan_bomb(server, arguments):
    """The scan bombs (8192×6100, 463 scans of end-of-band runs; 1200×2048 with refinement scans)
    and a legal progression of 400 one-coefficient scans: status, server CPU per upload."""
    owner = server.create("198.51.100.10")
    figures = []
    for name in ["bomb-jpeg-scans-8192x6100.jpg", "bomb-jpeg-scans-1200x2048.jpg", "bomb-jpeg-scans-legal-512x512.jpg"]:
        (status, _, body), cpu, wall = timed_cpu(server, lambda: server.upload(owner, test_image(name), "198.51.100.10"))
        figures.append(f"{name}: {status} in {wall * 1000:.0f} ms, {cpu * 1000:.0f} ms CPU")
        check(arguments, status == 422 and b"scans would make the decoder" in body, f"{name} answered {status}: {body[:200]!r}")
        # Receiving and refusing; libjpeg spends seconds on the large one (a debug server reads the body slower).
        check(arguments, cpu < 0.5, f"{name} took {cpu:.2f} s of server CPU")
    (status, _, _), cpu, _ = timed_cpu(server, lambda: server.upload(owner, test_image("sample-photo.jpg"), "198.51.100.10"))
    check(arguments, status == 201, f"an ordinary photo after them answered {status}")
    print(f"scan-bomb: {'; '.join(figures)}; then sample-photo.jpg {status} ({cpu * 1000:.0f} ms CPU)", flush=True)


def heif_bomb(server, arguments):
    """HEICs made of one small HEVC tile: a grid naming it 4096 times, a grid of 4096 tile items
    sharing its data, and a tile whose `ispe` says 8×8 for a 64×64 stream."""
    owner = server.create("198.51.100.11")
    figures = []
    for name, data in hostile_files.heif_bombs().items():
        (status, _, body), cpu, wall = timed_cpu(server, lambda: server.upload(owner, data, "198.51.100.11"))
        figures.append(f"{name} ({len(data) // 1024} KB): {status} in {wall * 1000:.0f} ms, {cpu * 1000:.0f} ms CPU")
        check(arguments, status == 422, f"{name} answered {status}: {body[:200]!r}")
        check(arguments, cpu < 0.5, f"{name} took {cpu:.2f} s of server CPU")
    print(f"heif-bomb: {'; '.join(figures)}", flush=True)


def card_etag(server, arguments):
    """The share card's ETag before and after a phone-only edit, and how many of 40 HEADs of it
    one address gets with --detail-rate 30/hour."""
    owner = server.create("198.51.100.12")
    path = f"/pets/{owner['id']}/card.jpg"
    _, before, _ = server.request("GET", path, address="198.51.100.12")
    server.patch(owner, {"phone": "+48 699 000 111"}, "198.51.100.12")
    _, after, _ = server.request("HEAD", path, address="198.51.100.12")
    statuses = [server.request("HEAD", path, address="198.51.100.13")[0] for _ in range(40)]
    print(f"card-etag: before {before.get('ETag')} after a phone-only edit {after.get('ETag')}; "
          f"40 HEADs from one address → {{200: {statuses.count(200)}, 429: {statuses.count(429)}}}", flush=True)
    check(arguments, before.get("ETag") == after.get("ETag"), "the card's ETag changed with the phone")
    check(arguments, statuses.count(429) >= 10, "the card's HEADs were not counted as reads")


def icc_payload(server, arguments):
    """A prepared JPEG (no metadata but JFIF and a profile, so the server keeps its image data)
    carrying a 1 MiB Display P3 profile with text in a private tag and a JFIF thumbnail: what is
    stored and served at each size."""
    owner = server.create("198.51.100.14")
    photo = hostile_files.hostile_icc_jpeg()
    status, _, body = server.upload(owner, photo, "198.51.100.14")
    url = json.loads(body)["photo_url"]
    key = url.rsplit("/", 1)[1]
    digest = key.split(".")[0]
    sizes = {}
    leaked = []
    for variant in ["", "/w320.jpg", "/w320.webp", "/w640.jpg", "/full.webp"]:
        path = f"/photos/{key}" if not variant else f"/photos/{digest}{variant}"
        _, _, served = server.request("GET", path, address="198.51.100.14")
        sizes[variant or "stored"] = len(served)
        if b"GPS 52.2297" in served or b"THUMBNAIL" in served:
            leaked.append(variant or "stored")
    print(f"icc-payload: {len(photo) // 1024} KB upload → {status}; bytes served {sizes}; secret or thumbnail in {leaked or 'none'}",
          flush=True)
    check(arguments, status == 201 and not leaked, f"upload {status}, leaked in {leaked}")
    check(arguments, sizes.get("/w320.jpg", 1 << 30) < 40_000, f"the 320 px JPEG is {sizes.get('/w320.jpg')} bytes")


def text_bytes(server, arguments):
    """A description of 500 characters of 60 combining marks each (60 KB)."""
    heavy = ("a" + "\u0301" * 60) * 500
    status, _, body = server.request("POST", "/api/v1/announcements",
                                      json.dumps({**ANNOUNCEMENT, "description": heavy}, ensure_ascii=False).encode(),
                                      {"Content-Type": "application/json"}, address="198.51.100.15")
    print(f"text-bytes: a {len(heavy.encode())}-byte description of 500 characters → {status} {body[:120].decode(errors='replace')}",
          flush=True)
    check(arguments, status == 400 and b"5000 bytes" in body, f"answered {status}")


def health_flood(server, arguments):
    """/health from 8 threads for 2 s: how many answers, and how many times the database was
    written (health_probe.at changed)."""
    seen = set()
    answers = [0]
    end = time.time() + 2

    def flood():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        while time.time() < end:
            try:
                connection.request("GET", "/health")
                connection.getresponse().read()
                answers[0] += 1
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    threads = [threading.Thread(target=flood) for _ in range(8)]
    for thread in threads:
        thread.start()
    while time.time() < end:
        seen.add(server.sql("SELECT at FROM health_probe"))
        time.sleep(0.02)
    for thread in threads:
        thread.join()
    print(f"health-flood: {answers[0]} answers in 2 s, the database written {len(seen)} times", flush=True)
    check(arguments, len(seen) <= 4, f"/health wrote the database {len(seen)} times in 2 s")


def take_down(server, arguments):
    """After a take-down's 204: whether the erased email, phone and description are anywhere in
    the store (SQLite file and WAL; PostgreSQL row versions, live or dead)."""
    secret = "erase" + secrets.token_hex(6)
    owner = server.create("198.51.100.16", email=f"{secret}@example.org", description=f"{secret} description")
    status, _, _ = server.request("DELETE", f"/api/v1/announcements/{owner['id']}",
                                  headers={"Authorization": Server.auth(owner)}, address="198.51.100.16")
    if server.backend == "postgres-s3":
        server.sql("CREATE EXTENSION IF NOT EXISTS pageinspect")
        query = ("SELECT count(*) FROM generate_series(0, pg_relation_size('announcement') / 8192 - 1) AS page, "
                 "LATERAL heap_page_items(get_raw_page('announcement', page::int)) AS item "
                 f"WHERE position(convert_to('{secret}', 'UTF8') IN item.t_data) > 0")
        left, deadline = "?", time.time() + 15
        while time.time() < deadline:
            left = server.sql(query)
            if left == "0":
                break
            time.sleep(0.2)
        where = {"row versions": left}
        clean = left == "0"
    else:
        where = {}
        for name in ["petspot-server.sqlite", "petspot-server.sqlite-wal"]:
            path = os.path.join(server.data_dir, name)
            where[name] = secret.encode() in (open(path, "rb").read() if os.path.exists(path) else b"")
        clean = not any(where.values())
    print(f"take-down: {status}; the erased text still in {where}", flush=True)
    check(arguments, status == 204 and clean, f"take-down {status}, erased text in {where}")


def header_flood(server, arguments):
    """19 MB of tiny part headers in one part: the answer, when it came, and the server's peak memory."""
    owner = server.create("198.51.100.17")
    peak = server.rss_peak_mb()
    lines = b"A:b\r\n" * 65536
    head = b"--b\r\nContent-Disposition: form-data; name=\"note\"\r\n"
    total = len(head) + len(lines) * 60
    connection = socket.create_connection(("127.0.0.1", server.port))
    connection.sendall((f"POST /api/v1/announcements/{owner['id']}/photos HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.17\r\n"
                        f"Authorization: {Server.auth(owner)}\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                        f"Content-Length: {total}\r\n\r\n").encode() + head)
    start, sent = time.time(), 0
    connection.settimeout(5)
    try:
        for _ in range(60):
            connection.sendall(lines)
            sent += len(lines)
    except OSError:
        pass
    answer = b""
    try:
        answer = connection.recv(4096)
    except OSError:
        pass
    connection.close()
    first_line = answer.split(b"\r\n")[0].decode(errors="replace")
    print(f"header-flood: {first_line!r} after {sent >> 20} MB sent "
          f"({time.time() - start:.2f} s); peak memory {peak:.0f} → {server.rss_peak_mb():.0f} MB", flush=True)
    check(arguments, answer.startswith(b"HTTP/1.1 400"), f"answered {answer[:60]!r}")
    check(arguments, server.rss_peak_mb() - peak < 40, "the server's memory grew with the headers")


def upload_flood(server, arguments):
    """One owner's 6 costliest accepted photos (progressive 8192×6100 4:4:4 at the scan-cost
    bound) sent at once from one address, and meanwhile another owner's 135 KB photo from
    another: statuses and times."""
    heavy = hostile_files.costliest_accepted_jpeg()
    ordinary = test_image("sample-photo.jpg")
    flooder, other = server.create("198.51.100.20"), server.create("198.51.100.21")
    results = {}

    def send(index):
        results[index] = timed_cpu(server, lambda: server.upload(flooder, heavy, "198.51.100.20"))
    threads = [threading.Thread(target=send, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    (status, _, _), _, wall = timed_cpu(server, lambda: server.upload(other, ordinary, "198.51.100.21"))
    for thread in threads:
        thread.join()
    heavy_statuses = sorted(result[0][0] for result in results.values())
    heavy_walls = sorted(result[2] for result in results.values())
    print(f"upload-flood: 6 × {len(heavy) // 1024} KB costly photos from one address → {heavy_statuses}, "
          f"{heavy_walls[0]:.1f}–{heavy_walls[-1]:.1f} s; another owner's {len(ordinary) // 1024} KB photo meanwhile → "
          f"{status} in {wall:.2f} s", flush=True)
    check(arguments, status == 201 and wall < max(3.0, heavy_walls[-1] / 2), f"the other owner's upload took {wall:.1f} s")


SCENARIOS = {"scan-bomb": scan_bomb, "heif-bomb": heif_bomb, "card-etag": card_etag, "icc-payload": icc_payload,
             "text-bytes": text_bytes, "health-flood": health_flood, "take-down": take_down, "header-flood": header_flood,
             "upload-flood": upload_flood}
# What --check runs by default: cheap enough for CI (the flood is a measurement).
CHECKED = [name for name in SCENARIOS if name != "upload-flood"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--backend", choices=["sqlite", "postgres-s3", "both"], default="sqlite")
    parser.add_argument("--check", action="store_true", help="fail when a figure is not what the server promises")
    parser.add_argument("scenarios", nargs="+", choices=[*SCENARIOS, "all"])
    arguments = parser.parse_args()
    chosen = (CHECKED if arguments.check else list(SCENARIOS)) if "all" in arguments.scenarios else arguments.scenarios
    backends = ["sqlite", "postgres-s3"] if arguments.backend == "both" else [arguments.backend]
    engines = Engines() if "postgres-s3" in backends else None
    try:
        for backend in backends:
            print(f"== {backend}", flush=True)
            server = Server(arguments.binary, backend, engines, extra=["--detail-rate", "30/hour"])
            try:
                for name in chosen:
                    SCENARIOS[name](server, arguments)
            finally:
                server.stop()
    finally:
        if engines:
            engines.stop()
    if arguments.check:
        print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed", flush=True)
        sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()
