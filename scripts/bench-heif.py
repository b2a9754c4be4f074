#!/usr/bin/env python3
"""bench-heif.py — `petspot photo prepare` on 12 MP HEIC and AVIF photos, side by side with
vipsthumbnail (Debian's libvips 8.14, libheif inside) and, for AVIF, libvips 8.18 in-process
(pyvips-binary reads AVIF, not HEIC).

Inputs: the corpus's real iPhone HEIC (a grid of 512 px tiles, irot 3), plus one HEIC and one AVIF
made here from each >= 12 MP corpus photo with pillow-heif (x265 / libaom, quality 85, 4:2:0; a
single coded image each, as cameras other than iPhones write them; AVIF through Pillow's libavif). They are made in a temporary
folder and never kept.

Per photo and size: runs are interleaved (vips, petspot, [baseline], [libvips 8.18]) so every tool sees
the same machine; medians, the ratio to vipsthumbnail, peak RSS (one extra run under /usr/bin/time)
and SSIM of each output against a reference (pillow-heif's full decode, LANCZOS to the output's size).

usage: scripts/bench-heif.py --bin PETSPOT [--baseline OLD_PETSPOT] [--runs 9] [--sizes 2048,1024]
Needs: pip install pillow-heif pyvips pyvips-binary scikit-image; apt-get install libvips-tools time.
Run it on a quiet machine (check `uptime`).
"""
import argparse, glob, math, os, statistics, subprocess, sys, tempfile, time

import numpy as np
import pillow_heif
from PIL import Image
from skimage.metrics import structural_similarity

pillow_heif.register_heif_opener()  # Pillow itself reads and writes AVIF (libavif)

ap = argparse.ArgumentParser()
ap.add_argument("--bin", required=True)
ap.add_argument("--baseline")
ap.add_argument("--runs", type=int, default=9)
ap.add_argument("--sizes", default="2048,1024")
ap.add_argument("--quality", type=int, default=85)
ap.add_argument("--corpus", default=os.environ.get("PETSPOT_CORPUS", "../shared/corpus"))
a = ap.parse_args()

work = tempfile.mkdtemp(prefix="bench-heif-")
inputs = [os.path.join(a.corpus, "heif/pillowheif-arrow-iphone8plus.heic")]
for path in sorted(glob.glob(os.path.join(a.corpus, "photos/*.jp*g"))):
    with Image.open(path) as im:
        if im.width * im.height < 12e6:
            continue
        rgb = im.convert("RGB")
        stem = os.path.join(work, os.path.splitext(os.path.basename(path))[0])
        rgb.save(stem + ".heic", quality=a.quality, chroma=420)
        rgb.save(stem + ".avif", quality=a.quality, subsampling="4:2:0")
        inputs += [stem + ".heic", stem + ".avif"]

try:
    import pyvips
    pyvips.cache_set_max(0)
    newest = f"{pyvips.version(0)}.{pyvips.version(1)}"
except ImportError:
    pyvips = None


# pyvips-binary puts VIPSHOME=/target into the C environment (not os.environ); Debian's vipsthumbnail
# would then find no HEIF module. Children get os.environ as Python sees it.
ENV = dict(os.environ)


def run(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, env=ENV)
    took = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench-heif: failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode()[-400:]}")
    return took


def rss(cmd):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, env=ENV)
    return int(p.stderr.strip().splitlines()[-1]) / 1024


def ssim(src, dst):
    with Image.open(dst) as o:
        size = o.size
        got = np.asarray(o.convert("L"), dtype=np.float64)
    with Image.open(src) as i:
        ref = i.convert("RGB").resize(size, Image.LANCZOS).convert("L")
    return structural_similarity(np.asarray(ref, dtype=np.float64), got, data_range=255)


def tools(src, size):
    out = lambda name: os.path.join(work, f"out-{name}.jpg")
    petspot = lambda binary, name: [binary, "photo", "prepare", src, "-o", out(name), "--force",
                                    "--max-dimension", str(size), "--quality", str(a.quality), "--format", "jpeg"]
    result = {"vips": (["vipsthumbnail", src, "-s", f"{size}x{size}>", "-o", f"{out('vips')}[Q={a.quality},strip]"], out("vips")),
              "petspot": (petspot(a.bin, "petspot"), out("petspot"))}
    if a.baseline:
        result["before"] = (petspot(a.baseline, "before"), out("before"))
    return result


def newest_run(src, dst, size):
    t = time.perf_counter()
    pyvips.Image.thumbnail(src, size, height=size, size="down").write_to_file(f"{dst}[Q={a.quality},strip]")
    return time.perf_counter() - t


columns = ["vips"] + (["before"] if a.baseline else []) + ["petspot"]
print(f"# HEIC/AVIF prepare, {a.runs} interleaved runs, median ms; {os.cpu_count()} cores; load {os.getloadavg()[0]:.2f}\n")
head = "| size | photo | " + " | ".join(f"{c} ms" for c in columns) + " | petspot × vips"
head += (" | before × vips" if a.baseline else "") + f" | libvips {newest if pyvips else '-'} ms | petspot × it"
head += " | RSS petspot / vips MB | SSIM petspot / vips |"
print(head)
print("|" + "---|" * (head.count("|") - 1))
summary = {}
for size in [int(s) for s in a.sizes.split(",")]:
    for src in inputs:
        commands = tools(src, size)
        is_avif = src.endswith(".avif")
        times = {c: [] for c in columns}
        newest_times = []
        for c in columns:
            run(commands[c][0])  # warm-up
        for _ in range(a.runs):
            for c in columns:
                times[c].append(run(commands[c][0]))
            if pyvips and is_avif:
                newest_times.append(newest_run(src, os.path.join(work, "out-newest.jpg"), size))
        med = {c: statistics.median(v) * 1000 for c, v in times.items()}
        ratio = med["petspot"] / med["vips"]
        summary.setdefault((size, "petspot"), []).append(ratio)
        row = f"| {size} | {os.path.basename(src)} | " + " | ".join(f"{med[c]:.0f}" for c in columns) + f" | {ratio:.2f}"
        if a.baseline:
            summary.setdefault((size, "before"), []).append(med["before"] / med["vips"])
            row += f" | {med['before'] / med['vips']:.2f}"
        if newest_times:
            nm = statistics.median(newest_times) * 1000
            summary.setdefault((size, "newest"), []).append(med["petspot"] / nm)
            row += f" | {nm:.0f} | {med['petspot'] / nm:.2f}"
        else:
            row += " | - | -"
        row += f" | {rss(commands['petspot'][0]):.1f} / {rss(commands['vips'][0]):.1f}"
        row += f" | {ssim(src, commands['petspot'][1]):.4f} / {ssim(src, commands['vips'][1]):.4f} |"
        print(row, flush=True)
print()
for (size, what), ratios in sorted(summary.items()):
    name = {"petspot": "petspot/vipsthumbnail", "before": "before/vipsthumbnail", "newest": f"petspot/libvips {newest if pyvips else ''} (AVIF)"}[what]
    print(f"{size} px: {name} {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f} (geo-mean of {len(ratios)})")
