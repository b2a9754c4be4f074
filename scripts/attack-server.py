#!/usr/bin/env python3
"""What a hostile client does to petspot-server, measured: the figures the hardening issue asks
for, for any build, so a before/after pair is two runs of this script.

    swift build -c release --product petspot-server
    scripts/attack-server.py --binary .build/release/petspot-server slow-readers
    scripts/attack-server.py --binary .build/release/petspot-server idle-connections
    scripts/attack-server.py --binary .build/release/petspot-server big-declared-pngs
    scripts/attack-server.py --binary .build/release/petspot-server early-refusal
    scripts/attack-server.py --binary .build/release/petspot-server password-burst
    scripts/attack-server.py --binary .build/release/petspot-server appended-payload --photo prepared.jpg
    scripts/attack-server.py --binary .build/release/petspot-server csrf
    scripts/attack-server.py --binary .build/release/petspot-server expect-continue
    scripts/attack-server.py --binary .build/release/petspot-server stalled-shutdown

Each scenario starts its own server on a free 127.0.0.1 port over a fresh data directory and
prints one line of figures. Only loopback is contacted; every loop is bounded.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import re
import resource
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ANNOUNCEMENT = json.dumps({
    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18",
    "location_latitude": 52.2297, "location_longitude": 21.0122,
    "email": "owner@example.com", "phone": "+48123456789", "status": "MISSING",
}).encode()


def basic(announcement, password=None):
    """The Basic credentials of an announcement (its own password unless another is given)."""
    password = announcement["management_password"] if password is None else password
    return "Basic " + base64.b64encode(f"{announcement['id']}:{password}".encode()).decode()


def upload_head(announcement, content_length):
    """The head of a photo upload written by hand (boundary `b`), so its body can be held back."""
    return (f"POST /api/v1/announcements/{announcement['id']}/photos HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: {basic(announcement)}\r\n"
            f"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {content_length}\r\n\r\n").encode()


def upload(server, announcement, photo, password=None, timeout=120, content_type="image/jpeg"):
    """POSTs `photo` as the announcement's photo part; (status, body)."""
    body = (b"--attack-7f3a9c\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo\"\r\n"
            + f"Content-Type: {content_type}\r\n\r\n".encode() + photo + b"\r\n--attack-7f3a9c--\r\n")
    return server.request("POST", f"/api/v1/announcements/{announcement['id']}/photos", body,
                          {"Content-Type": "multipart/form-data; boundary=attack-7f3a9c",
                           "Authorization": basic(announcement, password)}, timeout=timeout)


def at_once(call, items):
    """Runs call(item) for every item, each in its own thread, all started together; the results."""
    results = [None] * len(items)

    def run(index, item):
        results[index] = call(item)
    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(items)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


class Server:
    def __init__(self, binary, *extra):
        self.data_dir = tempfile.mkdtemp(prefix="petspot-attack-")
        # The usual open-files limit of a service (soft and hard 1024), not this script's.
        limit = lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
        self.process = subprocess.Popen([binary, "--port", "0", "--data-dir", self.data_dir, "--log-level", "notice",
                                         *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=limit)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            sys.exit(f"server did not start: {line!r} {self.process.stderr.read()}")
        self.port = int(match.group(1))

    def status(self, field):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def rss_mb(self):
        return self.status("VmRSS")

    def peak_mb(self):
        return self.status("VmHWM")

    def request(self, method, path, body=None, headers=None, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data

    def create(self):
        status, body = self.request("POST", "/api/v1/announcements", ANNOUNCEMENT, {"Content-Type": "application/json"})
        assert status == 201, (status, body)
        return json.loads(body)

    def stop(self):
        self.process.terminate()
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed after 60 s"
        shutil.rmtree(self.data_dir, ignore_errors=True)
        return code


def sample_peak(server, seconds, into):
    end = time.time() + seconds
    while time.time() < end:
        into.append(server.rss_mb())
        time.sleep(0.05)


def slow_readers(arguments):
    """100 connections ask for a 15 MB photo and never read: RSS before, at peak, after."""
    server = Server(arguments.binary, *arguments.server_args)
    try:
        payload = os.urandom(15 << 20)
        key = hashlib.sha256(payload).hexdigest() + ".jpg"
        os.makedirs(f"{server.data_dir}/photos/{key[:2]}", exist_ok=True)
        with open(f"{server.data_dir}/photos/{key[:2]}/{key}", "wb") as file:
            file.write(payload)
        status, _ = server.request("HEAD", f"/photos/{key}")
        time.sleep(1)
        baseline = server.rss_mb()
        sockets = []
        for _ in range(arguments.connections):
            connection = socket.create_connection(("127.0.0.1", server.port))
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            connection.sendall(f"GET /photos/{key} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            sockets.append(connection)
        samples = []
        sample_peak(server, 5, samples)
        for connection in sockets:
            connection.close()
        time.sleep(3)
        after = server.rss_mb()
        print(f"slow-readers: {arguments.connections} connections, 15 MB photo; HEAD {status}; RSS baseline "
              f"{baseline:.0f} MB, peak {max(samples):.0f} MB (VmHWM {server.peak_mb():.0f} MB), "
              f"3 s after closing {after:.0f} MB")
    finally:
        server.stop()


def idle_connections(arguments):
    """Idle, slowloris and stalled-body connections: how many the server still holds open after
    --wait seconds, and whether /health answers meanwhile."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    server = Server(arguments.binary, *arguments.server_args)
    try:
        created = server.create()
        kinds = {"idle": [], "slowloris": [], "stalled-body": []}
        for index in range(arguments.connections):
            kind = list(kinds)[index % 3]
            try:
                connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            except OSError as error:
                kinds[kind].append(None)
                continue
            if kind == "slowloris":
                connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            elif kind == "stalled-body":
                connection.sendall(upload_head(created, 1_000_000) + b"--b\r\n")
            kinds[kind].append(connection)
        start = time.time()
        health = []
        while time.time() - start < arguments.wait:
            try:
                status, _ = server.request("GET", "/health", timeout=5)
                health.append(status)
            except OSError as error:
                health.append(type(error).__name__)
            time.sleep(1)
        still_open = {}
        for kind, connections in kinds.items():
            count = 0
            for connection in connections:
                if connection is None:
                    continue
                connection.setblocking(False)
                try:
                    while connection.recv(65536):  # an answer (a 408) may come before the close
                        pass
                except BlockingIOError:
                    count += 1  # nothing more to read and not closed: still held
                except OSError:
                    pass
                connection.close()
            still_open[kind] = f"{count}/{len(connections)}"
        refused = sum(1 for connections in kinds.values() for c in connections if c is None)
        ok = sum(1 for status in health if status == 200)
        print(f"idle-connections: {arguments.connections} opened ({refused} refused at connect), after {arguments.wait} s "
              f"still open {still_open}; /health answered 200 {ok}/{len(health)} times")
        stop_start = time.time()
        code = server.stop()
        print(f"  SIGTERM → exit {code} in {time.time() - stop_start:.1f} s")
    finally:
        if server.process.poll() is None:
            server.stop()


def png_declaring(width, height):
    """A small PNG that declares width x height RGB: rows of zeros compress to almost nothing."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = zlib.compress(b"\x00" * (width * 3 + 1) * height, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def big_declared_pngs(arguments):
    """N PNGs of ~150 KB declaring 7000 x 7000, uploaded at once: peak RSS and statuses."""
    server = Server(arguments.binary, *arguments.server_args)
    try:
        photo = png_declaring(7000, 7000)
        created = [server.create() for _ in range(arguments.files)]
        time.sleep(1)
        baseline = server.rss_mb()
        start = time.time()
        statuses = [status for status, _ in
                    at_once(lambda announcement: upload(server, announcement, photo, timeout=300, content_type="image/png"), created)]
        print(f"big-declared-pngs: {arguments.files} x {len(photo) // 1024} KB PNG declaring 7000x7000 at once: "
              f"statuses {sorted(statuses)}, {time.time() - start:.1f} s, RSS baseline {baseline:.0f} MB, "
              f"peak (VmHWM) {server.peak_mb():.0f} MB")
    finally:
        server.stop()


def early_refusal(arguments):
    """A 1 GB declared photo upload: when the 413 arrives and how long the server keeps reading."""
    server = Server(arguments.binary, *arguments.server_args)
    try:
        created = server.create()
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        connection.sendall(upload_head(created, 1_000_000_000))
        start = time.time()
        answer = connection.recv(4096).split(b"\r\n")[0].decode()
        answered = time.time() - start
        sent = 0
        chunk = b"\0" * 65536
        connection.settimeout(2)
        closed = "not closed within 10 s (the body is being read)"
        while time.time() - start < 10:
            try:
                connection.sendall(chunk)
                sent += len(chunk)
            except OSError:
                closed = f"closed after {time.time() - start:.2f} s"
                break
        print(f"early-refusal: 1 GB declared → {answer!r} in {answered * 1000:.0f} ms; connection {closed}; "
              f"{sent >> 20} MB more accepted")
    finally:
        server.stop()


def password_burst(arguments):
    """200 wrong guesses at once, then 199 wrong + the right one at once (on a fresh id)."""
    server = Server(arguments.binary, *arguments.server_args)
    photo = open(arguments.photo, "rb").read()
    try:
        def burst(announcement, passwords):
            statuses = [status for status, _ in at_once(lambda password: upload(server, announcement, photo, password), passwords)]
            return {code: statuses.count(code) for code in sorted(set(statuses))}

        first = server.create()
        wrong = [f"{n:06d}" for n in range(200) if f"{n:06d}" != first["management_password"]][:200]
        print(f"password-burst: 200 wrong at once → {burst(first, wrong)}")
        second = server.create()
        wrong = [f"{n:06d}" for n in range(300) if f"{n:06d}" != second["management_password"]][:199]
        wrong.insert(100, second["management_password"])
        print(f"  199 wrong + the right one at once → {burst(second, wrong)} (201 = the right one got in)")
    finally:
        server.stop()


def appended_payload(arguments):
    """A prepared JPEG with 15 MB of random bytes appended: what is stored and served."""
    server = Server(arguments.binary, *arguments.server_args)
    try:
        prepared = open(arguments.photo, "rb").read()
        status, body = upload(server, server.create(), prepared + os.urandom(15 << 20))
        url = json.loads(body)["photo_url"] if status == 201 else None
        served = server.request("GET", "/photos/" + url.rsplit("/", 1)[1])[1] if url else b""
        detail = "" if status == 201 else " " + body.decode(errors="replace")[:200]
        print(f"appended-payload: {len(prepared)} B photo + 15 MiB appended → upload {status}, served {len(served)} B{detail}")
    finally:
        server.stop()


def csrf(arguments):
    """Creates a cross-site form can send: text/plain, form-urlencoded, no type."""
    server = Server(arguments.binary, *arguments.server_args)
    try:
        results = {}
        for kind in ["text/plain", "application/x-www-form-urlencoded", None]:
            headers = {"Content-Type": kind} if kind else {}
            results[kind or "none"] = server.request("POST", "/api/v1/announcements", ANNOUNCEMENT, headers)[0]
        start = time.time()
        statuses = [server.request("POST", "/api/v1/announcements", ANNOUNCEMENT, {"Content-Type": "application/json"})[0]
                    for _ in range(50)]
        print(f"csrf: create statuses by Content-Type {results}; 50 JSON creates from one address in "
              f"{time.time() - start:.1f} s → {{201: {statuses.count(201)}, 429: {statuses.count(429)}}}")
    finally:
        server.stop()


def expect_continue(arguments):
    """curl uploading a 1.5 MB photo (curl sends Expect: 100-continue over 1 MB): wall time."""
    server = Server(arguments.binary, *arguments.server_args)
    try:
        announcement = server.create()
        with tempfile.NamedTemporaryFile(suffix=".jpg") as photo:
            photo.write(open(arguments.photo, "rb").read() * max(1, (1_500_000 // os.path.getsize(arguments.photo)) + 1))
            photo.flush()
            start = time.time()
            result = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u",
                                     f"{announcement['id']}:{announcement['management_password']}",
                                     "-F", f"photo=@{photo.name};type=image/jpeg",
                                     f"http://127.0.0.1:{server.port}/api/v1/announcements/{announcement['id']}/photos"],
                                    capture_output=True, text=True)
            print(f"expect-continue: curl upload of {os.path.getsize(photo.name)} B → HTTP {result.stdout} in "
                  f"{(time.time() - start) * 1000:.0f} ms")
    finally:
        server.stop()


def stalled_shutdown(arguments):
    """An upload that stalls mid-body, then SIGTERM: how long until the process exits, and its code."""
    server = Server(arguments.binary, *arguments.server_args)
    created = server.create()
    connection = socket.create_connection(("127.0.0.1", server.port))
    connection.sendall(upload_head(created, 1_000_000) + b"--b\r\n")
    time.sleep(0.5)
    start = time.time()
    server.process.terminate()
    try:
        code = server.process.wait(timeout=arguments.wait)
        print(f"stalled-shutdown: SIGTERM with a stalled upload → exit {code} after {time.time() - start:.1f} s")
    except subprocess.TimeoutExpired:
        print(f"stalled-shutdown: SIGTERM with a stalled upload → still running after {arguments.wait} s")
        server.process.kill()
    shutil.rmtree(server.data_dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--server-args", default="", type=shlex.split,
                        help="extra petspot-server arguments, as one string (e.g. \"--upload-rate 1000\")")
    sub = parser.add_subparsers(dest="scenario", required=True)
    sub.add_parser("slow-readers").add_argument("--connections", type=int, default=100)
    idle = sub.add_parser("idle-connections")
    idle.add_argument("--connections", type=int, default=1100)
    idle.add_argument("--wait", type=int, default=70)
    sub.add_parser("big-declared-pngs").add_argument("--files", type=int, default=8)
    sub.add_parser("early-refusal")
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages", "jpeg-baseline.jpg")
    sub.add_parser("password-burst").add_argument("--photo", default=sample)
    sub.add_parser("appended-payload").add_argument("--photo", required=True, help="a photo petspot prepared")
    sub.add_parser("csrf")
    sub.add_parser("expect-continue").add_argument("--photo", default=sample)
    sub.add_parser("stalled-shutdown").add_argument("--wait", type=int, default=60)
    arguments = parser.parse_args()
    {"slow-readers": slow_readers, "idle-connections": idle_connections,
     "big-declared-pngs": big_declared_pngs, "early-refusal": early_refusal,
     "password-burst": password_burst, "appended-payload": appended_payload, "csrf": csrf,
     "expect-continue": expect_continue, "stalled-shutdown": stalled_shutdown}[arguments.scenario](arguments)


if __name__ == "__main__":
    main()
