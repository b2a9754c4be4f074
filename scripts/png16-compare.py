#!/usr/bin/env python3
"""16-bit PNG colours: petspot against Pillow and libvips.

For untagged 16-bit files of every colour type (made here: gradients, no gAMA/sRGB/iCCP) and
PngSuite's 16-bit files (gAMA 1.0), prints the mean difference per 8-bit colour sample between
each tool's 8-bit result and the file's own values (16-bit value / 257), over pixels with
alpha > 0. petspot runs `photo prepare --format png`; Pillow and libvips (pyvips) decode.

Usage: scripts/png16-compare.py [--petspot .build/debug/petspot] [--corpus ../shared/corpus]
"""
import argparse, os, struct, subprocess, tempfile, zlib
import numpy as np
from PIL import Image

def png16(path, samples, color_type, gamma=None):
    h, w = samples.shape[:2]
    raw = b"".join(b"\0" + samples[y].astype(">u2").tobytes() for y in range(h))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    extra = chunk(b"gAMA", struct.pack(">I", gamma)) if gamma else b""
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, color_type, 0, 0, 0))
                + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def own_values(path):
    """The file's samples as 8-bit (16-bit / 257), RGBA."""
    im = Image.open(path)
    im.load()
    arr = np.asarray(im).astype(np.float64)
    if arr.ndim == 2:  # I;16 grey
        arr = np.stack([arr] * 3 + [np.full(arr.shape, 65535.0)], axis=-1)
    elif im.mode in ("RGB", "RGBA", "LA"):
        # Pillow reduces 16-bit colour to 8 bits on open; read the 16-bit samples from the IDAT instead.
        arr = None
    return arr

def read16(path):
    data = open(path, "rb").read()
    o, idat, ihdr = 8, b"", None
    while o < len(data):
        n = struct.unpack(">I", data[o:o + 4])[0]; t = data[o + 4:o + 8]; d = data[o + 8:o + 8 + n]
        if t == b"IHDR": ihdr = struct.unpack(">IIBBBBB", d)
        if t == b"IDAT": idat += d
        o += 12 + n
    w, h, depth, ct, _, _, interlace = ihdr
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ct]
    if interlace or depth != 16: return None
    raw = zlib.decompress(idat); stride = w * ch * 2; bpp = ch * 2
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]; line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(np.frombuffer(bytes(line), dtype=">u2").reshape(w, ch)); prev = line
    s = np.stack(rows).astype(np.float64)
    grey = ch <= 2
    rgb = np.repeat(s[..., :1], 3, axis=-1) if grey else s[..., :3]
    alpha = s[..., -1:] if ch in (2, 4) else np.full(s.shape[:2] + (1,), 65535.0)
    return np.concatenate([rgb, alpha], axis=-1) / 257.0

def rgba8(arr):
    arr = arr.astype(np.float64)
    if arr.ndim == 2: arr = arr[..., None]
    ch = arr.shape[-1]
    rgb = np.repeat(arr[..., :1], 3, axis=-1) if ch <= 2 else arr[..., :3]
    alpha = arr[..., -1:] if ch in (2, 4) else np.full(arr.shape[:2] + (1,), 255.0)
    return np.concatenate([rgb, alpha], axis=-1)

def error(result, truth):
    mask = truth[..., 3] > 0
    return float(np.abs(result[..., :3] - truth[..., :3])[mask].mean())

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--petspot", default=".build/debug/petspot")
    p.add_argument("--corpus", default=os.environ.get("PETSPOT_CORPUS", "../shared/corpus"))
    a = p.parse_args()
    import pyvips
    tmp = tempfile.mkdtemp()
    files = []
    y, x = np.mgrid[0:48, 0:64]
    g = (x * 65535 // 63).astype(np.uint16); g2 = (y * 65535 // 47).astype(np.uint16)
    alpha = (96 * 257 + x * 159 * 257 // 63).astype(np.uint16)
    for name, arr, ct in [("untagged grey", g, 0), ("untagged grey+alpha", np.stack([g, alpha], -1), 4),
                          ("untagged RGB", np.stack([g, g2, (g // 2 + g2 // 2)], -1), 2),
                          ("untagged RGBA", np.stack([g, g2, (g // 2 + g2 // 2), alpha], -1), 6)]:
        path = os.path.join(tmp, name.replace(" ", "-").replace("+", "-") + ".png")
        png16(path, arr if arr.ndim == 3 else arr[..., None], ct)
        files.append((name, path))
    for f in ["basn0g16", "basn2c16", "basn4a16", "basn6a16"]:
        files.append((f + " (gAMA 1.0)", os.path.join(a.corpus, "pngsuite", f + ".png")))
    print("| file | petspot | Pillow | libvips %d.%d |" % (pyvips.version(0), pyvips.version(1)))
    print("|---|---|---|---|")
    for name, path in files:
        truth = read16(path)
        out = os.path.join(tmp, "out.png")
        subprocess.run([a.petspot, "photo", "prepare", path, "-o", out, "--force"], check=True, capture_output=True)
        ours = rgba8(np.asarray(Image.open(out)))
        pil = Image.open(path); pil = pil.convert("RGBA") if pil.mode not in ("I;16", "I;16B", "I") else pil
        pil_arr = np.asarray(pil).astype(np.float64)
        if pil_arr.ndim == 2: pil_arr = rgba8(pil_arr / 257.0)
        vips = pyvips.Image.new_from_file(path).cast("ushort") if False else pyvips.Image.new_from_file(path)
        v = vips.numpy().astype(np.float64)
        v = rgba8(v / 257.0 if vips.format == "ushort" else v)
        print(f"| {name} | {error(ours, truth):.2f} | {error(rgba8(pil_arr), truth):.2f} | {error(v, truth):.2f} |")

if __name__ == "__main__":
    main()
