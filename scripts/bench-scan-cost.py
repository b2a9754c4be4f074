#!/usr/bin/env python3
"""CPU per prepare of JPEGs of one pixel count (8192×6100): baseline photos, a real progressive one,
the costliest file the scan-cost check accepts, and the scan bomb it refuses — through the CLI
(`petspot photo prepare`, user + system CPU of the process) and through the server (an upload's
user + system CPU of the server process, from /proc). Timings mean something only on a quiet machine.

    swift build -c release --product petspot --product petspot-server
    scripts/bench-scan-cost.py --bin .build/release [--runs 5]
"""
import argparse
import os
import importlib.util
import re
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import hostile_files  # noqa: E402

SIZE = (8192, 6100)


def make_files(folder, corpus):
    """name → path: baselines made from a real camera photo scaled to SIZE, and the hostile files."""
    from PIL import Image
    source = os.path.join(corpus, "photos", "olympus-ep3_4032x3024.jpg")
    picture = Image.open(source).convert("RGB").resize(SIZE, Image.LANCZOS)
    ppm = os.path.join(folder, "source.ppm")
    picture.save(ppm)
    files = {}
    for name, options in [("baseline 4:2:0 q85", ["-quality", "85"]), ("baseline 4:4:4 q90", ["-quality", "90", "-sample", "1x1"]),
                          ("progressive 4:4:4 q90 (cjpeg)", ["-quality", "90", "-sample", "1x1", "-progressive"])]:
        path = os.path.join(folder, re.sub(r"\W+", "-", name) + ".jpg")
        with open(path, "wb") as output:
            subprocess.run(["cjpeg", *options, ppm], stdout=output, check=True)
        files[name] = path
    os.unlink(ppm)
    for name, data in [("costliest accepted (DC + 9 refinement scans, 4:4:4)", hostile_files.costliest_accepted_jpeg())]:
        path = os.path.join(folder, "costliest.jpg")
        open(path, "wb").write(data)
        files[name] = path
    files["scan bomb (463 scans, refused)"] = os.path.join(ROOT, "TestImages", "bomb-jpeg-scans-8192x6100.jpg")
    return files


def cli_cpu(binary, path, output):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    status = subprocess.run([binary, "photo", "prepare", path, "-o", output], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if os.path.exists(output):
        os.unlink(output)
    return status, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="folder with petspot and petspot-server")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", default=os.environ.get("PETSPOT_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = make_files(folder, arguments.corpus)
        output = os.path.join(folder, "out.jpg")
        print(f"{'file':<56} {'bytes':>10} {'CLI CPU s':>10} {'server CPU s':>13}")
        spec = importlib.util.spec_from_file_location("attack_hostile", os.path.join(HERE, "attack-hostile.py"))
        attack_hostile = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(attack_hostile)
        server = attack_hostile.Server(os.path.join(arguments.bin, "petspot-server"), "sqlite", extra=["--max-photo-bytes", "40MB"])
        try:
            for name, path in files.items():
                runs = [cli_cpu(os.path.join(arguments.bin, "petspot"), path, output) for _ in range(arguments.runs)]
                data = open(path, "rb").read()
                server_runs = []
                for index in range(arguments.runs):
                    owner = server.create(f"198.51.100.{100 + index}")
                    (status, _, _), cpu, _ = attack_hostile.timed_cpu(server, lambda: server.upload(owner, data, f"198.51.100.{100 + index}"))
                    server_runs.append((status, cpu))
                print(f"{name:<56} {len(data):>10} {statistics.median(c for _, c in runs):>10.3f} "
                      f"{statistics.median(c for _, c in server_runs):>13.3f}   exit {runs[0][0]}, HTTP {server_runs[0][0]}", flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
