#!/usr/bin/env python3
"""How close `petspot photo prepare --quality auto:T` lands to its target on the whole picture, and
what it costs: for each photo, size and target, the output's butteraugli distance (libjxl's 3-norm,
the whole picture) from the resized photo (the same prepare written as PNG), the quality chosen,
the bytes of the last target against a fixed quality's (--against, 85 by default), and with --time the wall time against a plain prepare (hyperfine).

    scripts/bench-auto-quality.py --bin .build-rel/release/petspot [--targets 0.8,1.1,1.5]
        [--sizes 2048,1024] [--format jpeg|webp] [--against 85] [--time] PHOTO...

Needs libjxl0.7 (Debian), numpy and Pillow; --time needs hyperfine. Photos with transparency are
left out: a JPEG's alpha is composited while the picture is resized, so no PNG of ours is its
reference.
"""
import argparse
import ctypes
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image


class PixelFormat(ctypes.Structure):
    _fields_ = [("num_channels", ctypes.c_uint32), ("data_type", ctypes.c_int),
                ("endianness", ctypes.c_int), ("align", ctypes.c_size_t)]


jxl = ctypes.CDLL("libjxl.so.0.7")
jxl.JxlButteraugliApiCreate.restype = ctypes.c_void_p
jxl.JxlButteraugliApiCreate.argtypes = [ctypes.c_void_p]
jxl.JxlButteraugliCompute.restype = ctypes.c_void_p
jxl.JxlButteraugliCompute.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32,
                                      ctypes.POINTER(PixelFormat), ctypes.c_void_p, ctypes.c_size_t,
                                      ctypes.POINTER(PixelFormat), ctypes.c_void_p, ctypes.c_size_t]
jxl.JxlButteraugliResultGetDistance.restype = ctypes.c_float
jxl.JxlButteraugliResultGetDistance.argtypes = [ctypes.c_void_p, ctypes.c_float]
jxl.JxlButteraugliResultDestroy.argtypes = [ctypes.c_void_p]
api = jxl.JxlButteraugliApiCreate(None)


def butteraugli(reference, distorted):
    a = np.ascontiguousarray(reference, dtype=np.uint8)
    b = np.ascontiguousarray(distorted, dtype=np.uint8)
    height, width, _ = a.shape
    rgb8 = PixelFormat(3, 2, 0, 0)  # JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN
    result = jxl.JxlButteraugliCompute(api, width, height, ctypes.byref(rgb8), a.ctypes.data, a.nbytes,
                                       ctypes.byref(rgb8), b.ctypes.data, b.nbytes)
    distance = jxl.JxlButteraugliResultGetDistance(result, 3.0)
    jxl.JxlButteraugliResultDestroy(result)
    return distance


def prepare(binary, photo, out, size, *extra):
    run = subprocess.run([binary, "photo", "prepare", photo, "-o", out, "--force", "--max-dimension", str(size),
                          "--json", *extra], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{photo}: {run.stderr}")
    return json.loads(run.stdout)[0]


def wall_ratio(binary, photo, size, fmt):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        out = os.path.join(tempfile.gettempdir(), "bench-auto-quality-time." + ("webp" if fmt == "webp" else "jpg"))
        base = f"{binary} photo prepare {photo} -o {out} --force --max-dimension {size} --format {fmt}"
        subprocess.run(["hyperfine", "-N", "-w", "3", "-r", "20", "--export-json", report.name, base,
                        base + " --quality auto"], check=True, capture_output=True)
        plain, auto = (r["median"] for r in json.load(open(report.name))["results"])
        return plain, auto


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--targets", default="0.8,1.1,1.5")
    parser.add_argument("--sizes", default="2048,1024")
    parser.add_argument("--format", default="jpeg", choices=["jpeg", "webp"])
    parser.add_argument("--against", type=int, default=85)
    parser.add_argument("--time", action="store_true")
    parser.add_argument("photos", nargs="+")
    args = parser.parse_args()
    targets = [float(t) for t in args.targets.split(",")]
    ratios, byte_ratios = [], []
    print(f"| photo | px | " + " | ".join(f"auto:{t}: q, whole-picture distance (÷ target)" for t in targets)
          + f" | bytes of auto:{targets[-1]} against q{args.against} |" + (" plain ms | auto ms | ratio |" if args.time else ""))
    print("|---" * (3 + len(targets) + (3 if args.time else 0)) + "|")
    with tempfile.TemporaryDirectory() as work:
        extension = "webp" if args.format == "webp" else "jpg"
        for size in (int(s) for s in args.sizes.split(",")):
            for photo in args.photos:
                reference_path = os.path.join(work, "reference.png")
                prepare(args.bin, photo, reference_path, size)
                reference = Image.open(reference_path)
                if reference.mode in ("RGBA", "LA"):
                    continue
                reference = np.asarray(reference.convert("RGB"))
                cells = []
                for target in targets:
                    out = os.path.join(work, f"auto.{extension}")
                    record = prepare(args.bin, photo, out, size, "--quality", f"auto:{target}", "--format", args.format)
                    distance = butteraugli(reference, np.asarray(Image.open(out).convert("RGB")))
                    ratios.append(distance / target)
                    cells.append(f"q{record['quality']}, {distance:.2f} ({distance / target:.2f})")
                auto = prepare(args.bin, photo, os.path.join(work, f"a.{extension}"), size, "--quality", f"auto:{targets[-1]}",
                               "--format", args.format)
                fixed = prepare(args.bin, photo, os.path.join(work, f"f.{extension}"), size, "--quality", str(args.against),
                                "--format", args.format)
                byte_ratios.append(auto["bytes"] / fixed["bytes"])
                row = f"| {os.path.basename(photo)} | {size} | " + " | ".join(cells) + f" | {auto['bytes'] / fixed['bytes']:.3f} |"
                if args.time:
                    plain, timed = wall_ratio(args.bin, photo, size, args.format)
                    row += f" {plain * 1000:.0f} | {timed * 1000:.0f} | {timed / plain:.2f}× |"
                print(row, flush=True)
    geomean = math.exp(sum(math.log(r) for r in byte_ratios) / len(byte_ratios))
    print(f"\nwhole picture ÷ target: {min(ratios):.3f}–{max(ratios):.3f}; bytes of auto:{targets[-1]} against q{args.against}, "
          f"geometric mean: {geomean:.3f}")


if __name__ == "__main__":
    main()
