#!/usr/bin/env python3
"""The outbox's throughput and latency against a local SMTP server (scripts/smtp-sink.py:
aiosmtpd with STARTTLS and AUTH on loopback):

  1. drain: COUNT messages queued while the server is stopped (written straight into the
     outbox, as a backlog after an outage would be), then the server started: how long until
     the relay has them all, and each one's latency from the server's start;
  2. burst: COUNT reports created over HTTP as fast as 8 clients can (each queues its
     confirmation in its create's transaction): each message's latency from its create's
     answer to its arrival at the relay.

    swift build -c release --product petspot-server
    scripts/bench-mail.py --binary .build/release/petspot-server [--backend sqlite|postgres] [--count 1000]

Only loopback is contacted. Timings depend on the machine: run it on a quiet one.
"""
import argparse
import base64
import concurrent.futures
import email
import email.policy
import glob
import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from petspot_stack import Helper  # noqa: E402

PASSWORD = "bench-" + uuid.uuid4().hex[:8]
REPORT = {"species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18", "location_latitude": 52.2, "location_longitude": 21.0,
          "phone": "+48123456789", "status": "MISSING"}


class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.process = subprocess.Popen(["python3", os.path.join(HERE, "smtp-sink.py"), folder, "--password", PASSWORD],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.info = json.loads(self.process.stdout.readline())

    def arrivals(self):
        """received_at of every message kept, by file."""
        found = {}
        for meta in glob.glob(os.path.join(self.folder, "*.json")):
            if os.path.exists(meta[:-5] + ".eml"):
                with open(meta) as f:
                    found[meta[:-5] + ".eml"] = json.load(f)["received_at"]
        return found

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def start_server(binary, folder, sink, environment, extra):
    password_file = os.path.join(folder, "smtp-password")
    with open(password_file, "w") as f:
        f.write(PASSWORD + "\n")
    arguments = [binary, "--port", "0", "--data-dir", os.path.join(folder, "data"), "--log-level", "warning",
                 "--create-rate", "1000000", "--smtp-url", f"smtp://petspot@127.0.0.1:{sink.info['port']}",
                 "--smtp-password-file", password_file, "--smtp-ca-file", sink.info["ca_file"],
                 "--mail-from", "PetSpot <alerts@pets.test>", *extra]
    log = open(os.path.join(folder, "server.log"), "a")
    process = subprocess.Popen(arguments, env=environment, stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline()
    match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
    if not match:
        process.kill()
        raise RuntimeError("the server did not start: " + line + open(os.path.join(folder, "server.log")).read()[-2000:])
    return process, match.group(1), time.time()


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)


def message(number):
    text = ("Your report of a missing dog is on PetSpot: https://pets.test/pets/%s\r\n" % uuid.uuid4()) * 20
    html = "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>t</title></head><body>%s</body></html>" % (("<p>%s</p>" % text) * 4)
    return ("From: PetSpot <alerts@pets.test>\r\nTo: bench%d@example.com\r\nSubject: Your report is on PetSpot\r\n"
            "Message-ID: <bench-%d@pets.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n"
            "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n%s\r\n--b--\r\n"
            % (number, number, text, html)).encode()


def queue_backlog(backend, folder, database_url, count):
    now = time.time()
    rows = [("report-confirmation", "bench%d@example.com" % n, "bench-%d@pets.test" % n, message(n), now, now) for n in range(count)]
    if backend == "sqlite":
        database = sqlite3.connect(os.path.join(folder, "data", "petspot-server.sqlite"))
        database.executemany("INSERT INTO outbox (kind, recipient, message_id, content, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?)", rows)
        database.commit()
        database.close()
    else:
        lines = "".join("%s\t%s\t%s\t\\\\x%s\t%r\t%r\n" % (k, r, m, c.hex(), a, d) for k, r, m, c, a, d in rows)
        subprocess.run(["psql", database_url, "-q", "-c",
                        "COPY outbox (kind, recipient, message_id, content, created_at, due_at) FROM STDIN"],
                       input=lines, text=True, check=True)


def create(url, number):
    connection = http.client.HTTPConnection(url[len("http://"):], timeout=60)
    body = json.dumps(dict(REPORT, email="burst%d@example.com" % number))
    connection.request("POST", "/api/v1/announcements", body, {"Content-Type": "application/json"})
    reply = connection.getresponse()
    answer = json.loads(reply.read())
    connection.close()
    if reply.status != 201:
        raise RuntimeError("create answered %d" % reply.status)
    return answer["id"], time.time()


def wait_for(sink, count, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        arrivals = sink.arrivals()
        if len(arrivals) >= count:
            return arrivals
        time.sleep(0.02)
    raise RuntimeError("only %d of %d messages arrived" % (len(sink.arrivals()), count))


def summary(name, latencies, span, count):
    latencies = sorted(latencies)
    def pct(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))]
    print("%s: %d messages in %.2f s = %.0f messages/s; latency p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms"
          % (name, count, span, count / span, pct(0.5) * 1000, pct(0.95) * 1000, pct(0.99) * 1000, latencies[-1] * 1000))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/petspot-server")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="petspot-bench-mail-")
    sink = postgres = None
    environment = dict(os.environ)
    database_url = None
    try:
        if args.backend == "postgres":
            postgres = Helper("pg-cluster.py")
            postgres.command("createdb petspot")
            database_url = postgres.info["base_url"] + "/petspot"
            environment.update(PETSPOT_DATABASE_URL=database_url,
                               PETSPOT_PASSWORD_KEY="v1:" + base64.b64encode(os.urandom(32)).decode())
        sink = Sink(os.path.join(folder, "drain"))
        # The schema, then the backlog written while no server runs.
        process, _, _ = start_server(args.binary, folder, sink, environment, [])
        stop(process)
        queue_backlog(args.backend, folder, database_url, args.count)
        process, url, started = start_server(args.binary, folder, sink, environment, [])
        arrivals = wait_for(sink, args.count, 600)
        times = sorted(arrivals.values())
        summary("drain of %d queued" % args.count, [t - started for t in times], times[-1] - started, args.count)
        stop(process)
        sink.close()

        sink = Sink(os.path.join(folder, "burst"))
        process, url, _ = start_server(args.binary, folder, sink, environment, [])
        first = time.time()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            created = dict(pool.map(lambda n: create(url, n), range(args.count)))
        arrivals = wait_for(sink, args.count, 600)
        latencies = []
        for path, received in arrivals.items():
            with open(path, "rb") as f:
                parsed = email.message_from_binary_file(f, policy=email.policy.default)
            text = parsed.get_body(("plain",)).get_content()
            found = re.search(r"/pets/([0-9a-f-]{36})", text)
            latencies.append(received - created[found.group(1)])
        summary("burst of %d creates" % args.count, latencies, max(arrivals.values()) - first, args.count)
        stop(process)
    finally:
        if sink:
            sink.close()
        if postgres:
            postgres.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
