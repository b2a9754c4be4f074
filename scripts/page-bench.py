#!/usr/bin/env python3
"""Figures for photo variants and the public pages, against a real petspot-server.

    scripts/page-bench.py [--binary .build/release/petspot-server] [--backend sqlite|postgres-s3]
                          [--photos ../shared/corpus/photos] [--clients 32] [--seconds 20] [--json]

1. Seeds 20 announcements with photos (scripts/seed-pages.py).
   (21 different photos made from the corpus by `petspot photo prepare`, up to 2048 px, q85.)
2. Bytes a phone downloads to show the first page: the 20 full photos (what a client that only
   knows photoUrl fetches) against what headless Chromium at 390 x 844, 3x density, fetched for `/`
   (srcset and sizes choosing; scripts/browser-check.py).
3. Variant generation: every variant of every photo requested cold, one at a time: time per
   variant (p50/p99), per photo (what making them all at upload would add to an upload), and the
   upload itself for comparison.
4. Single flight: 50 requests at once for a variant nobody asked for yet: latencies and how many
   times the server made it (its /metrics counter).
5. Page TTFB: `--clients` keep-alive clients GET / (and /pets/{id}) for `--seconds`: p50/p99 of
   the time to the first byte of the answer.
Run it on a quiet machine (check `uptime`).
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from petspot_stack import Stack  # noqa: E402


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def get(url, headers=None):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    start = time.perf_counter()
    connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    connection.close()
    return response.status, body, elapsed


def metric(metrics_url, name):
    _, body, _ = get(metrics_url)
    total = 0.0
    for line in body.decode().splitlines():
        if line.startswith(name) and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def distinct_photos(petspot, source, count, folder):
    """`count` different photos, as the petspot client uploads them (`photo prepare`, q85): the
    corpus photos in turn, each at its own long edge below 2048 px, so no two announcements
    share a stored photo or its variants."""
    names = sorted(n for n in os.listdir(source) if n.lower().endswith((".jpg", ".jpeg", ".png", ".webp")))
    for index in range(count):
        edge = 2048 - 24 * index
        subprocess.run([petspot, "photo", "prepare", os.path.join(source, names[index % len(names)]), "--quiet",
                        "--max-dimension", str(edge), "-o", os.path.join(folder, f"photo-{index:02d}.jpg")], check=True)
    return folder


def ttfb_run(url_paths, base, clients, seconds):
    parts = urllib.parse.urlsplit(base)
    deadline = time.monotonic() + seconds
    samples, errors, lock = [], [0], threading.Lock()

    def client(index):
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        mine, n = [], 0
        while time.monotonic() < deadline:
            path = url_paths[(index + n) % len(url_paths)]
            n += 1
            start = time.perf_counter()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                first = (time.perf_counter() - start) * 1000
                response.read()
                if response.status == 200:
                    mine.append(first)
                else:
                    with lock:
                        errors[0] += 1
            except (OSError, http.client.HTTPException):
                with lock:
                    errors[0] += 1
                connection.close()
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        with lock:
            samples.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples, errors[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(HERE, "..", ".build", "release", "petspot-server"))
    parser.add_argument("--petspot", default=os.path.join(HERE, "..", ".build", "debug", "petspot"),
                        help="the CLI that prepares the seeded photos")
    parser.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres-s3"])
    parser.add_argument("--photos", default=os.path.join(HERE, "..", "..", "shared", "corpus", "photos"))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    metrics_port = free_port()
    server_args = (f"--create-rate 100000 --upload-rate 100000 --list-rate 100000 --detail-rate 100000 --metrics-port {metrics_port}")
    results = {}
    with Stack(os.path.abspath(args.binary), backend=args.backend, server_args=server_args) as stack:
        base = stack.url
        metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
        photos = distinct_photos(os.path.abspath(args.petspot), args.photos, 21, tempfile.mkdtemp(prefix="petspot-page-bench-"))
        seed = subprocess.run([sys.executable, os.path.join(HERE, "seed-pages.py"), base, "--photos", photos,
                               "--count", "21"], check=True, capture_output=True, text=True)
        seeded = json.loads(seed.stdout)
        ids = seeded["ids"]
        spare = ids[0]  # the oldest: not on the first page; its photo is kept for the single-flight run
        details = {}
        for announcement in ids:
            _, body, _ = get(f"{base}/api/v1/announcements/{announcement}")
            details[announcement] = json.loads(body)
        first_page = ids[1:]

        # 2. Bytes for the first page at 390 px, 3x.
        full_bytes = sum(len(get(details[a]["photoUrl"])[1]) for a in first_page)
        with tempfile.TemporaryDirectory() as out:
            report_path = os.path.join(out, "report.json")
            subprocess.run([sys.executable, os.path.join(HERE, "browser-check.py"), base + "/", "--out", out,
                            "--viewport", "390x844@3", "--report", report_path], check=True)
            page = json.load(open(report_path))["pages"][0]
        # The browser's own fetch made the variants it chose; count what it downloaded.
        results["first_page_bytes"] = {
            "full_photos": full_bytes, "variants_at_390px_3x": page["image_bytes"],
            "ratio": round(page["image_bytes"] / full_bytes, 3), "images": len(page["images"]),
            "chosen": sorted({img["src"].rsplit("/", 1)[-1] for img in page["images"]}),
        }

        # 3. Every variant of every photo cold, one at a time (those the browser made are warm:
        # use the photos' variants nobody asked for yet, and all of the spare's siblings).
        made_before = metric(metrics_url, "petspot_variant_generation_seconds_count")
        per_variant, per_photo = [], []
        for announcement in first_page:
            total = 0.0
            for link in details[announcement].get("photoVariants") or []:
                name = link["url"].rsplit("/", 1)[-1]
                if name == "full.jpg" or name in results["first_page_bytes"]["chosen"]:
                    continue
                status, _, elapsed = get(link["url"])
                assert status == 200, (link["url"], status)
                per_variant.append(elapsed)
                total += elapsed
            per_photo.append(total)
        made = metric(metrics_url, "petspot_variant_generation_seconds_count") - made_before
        processing = metric(metrics_url, "petspot_photo_processing_seconds_sum")
        uploads = metric(metrics_url, "petspot_photo_processing_seconds_count")
        results["variant_generation_ms"] = {
            "variants": len(per_variant), "made_by_server": made,
            "p50": round(percentile(per_variant, 0.5), 1), "p99": round(percentile(per_variant, 0.99), 1),
            "per_photo_all_variants_p50": round(percentile(per_photo, 0.5), 1),
            "per_photo_all_variants_p99": round(percentile(per_photo, 0.99), 1),
            "upload_processing_mean_ms": round(1000 * processing / uploads, 1) if uploads else None,
        }

        # 4. Single flight: 50 at once for the spare photo's w640.webp.
        target = next(link["url"] for link in details[spare]["photoVariants"] if link["url"].endswith("/w640.webp"))
        made_before = metric(metrics_url, "petspot_variant_generation_seconds_count")
        with concurrent.futures.ThreadPoolExecutor(50) as pool:
            answers = list(pool.map(lambda _: get(target), range(50)))
        made = metric(metrics_url, "petspot_variant_generation_seconds_count") - made_before
        latencies = [elapsed for _, _, elapsed in answers]
        results["single_flight_50"] = {
            "statuses": sorted({status for status, _, _ in answers}), "distinct_bodies": len({body for _, body, _ in answers}),
            "made_by_server": made, "p50_ms": round(percentile(latencies, 0.5), 1),
            "p99_ms": round(percentile(latencies, 0.99), 1), "max_ms": round(max(latencies), 1),
        }

        # 5. TTFB at N clients.
        for name, paths in [("list_page", ["/"]), ("details_page", [f"/pets/{a}" for a in first_page])]:
            samples, errors = ttfb_run(paths, base, args.clients, args.seconds)
            results[f"ttfb_{name}_ms"] = {
                "clients": args.clients, "requests": len(samples), "errors": errors,
                "per_second": round(len(samples) / args.seconds, 1),
                "p50": round(percentile(samples, 0.5), 2), "p99": round(percentile(samples, 0.99), 2),
            }
    if args.json:
        print(json.dumps(results))
    else:
        for key, value in results.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
