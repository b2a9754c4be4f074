#!/usr/bin/env python3
"""Generate (and verify) PetSpot's own test-image set.

Usage (from the repository root or anywhere):

    python3 TestImages/generate.py           # (re)write every file next to this script
    python3 TestImages/generate.py --check   # re-open every file and assert its properties
    python3 TestImages/generate.py --heif    # only the HEIC/AVIF files (needs heif-enc)
    python3 TestImages/generate.py --scans   # only the scan bombs (progressive_scans.py)

Dependencies: python3 (>= 3.9), Pillow (>= 11, built with JPEG, WebP and littlecms2
support) and numpy.  `pip install Pillow numpy` if needed.  The only external program is
heif-enc (Debian `libheif-examples`) for the HEIC/AVIF files; no others (ImageMagick, cwebp,
exiftool, ...) are used; 16-bit RGB and Adam7-interlaced PNGs are
written by the small PNG writer below.

Everything is synthetic and deterministic: "noise" comes from an integer hash of the
pixel coordinates (no RNG), and the embedded ICC profile gets a fixed creation date,
so two runs with the same Pillow/libjpeg/libwebp produce byte-identical files.
Tests rely on the properties listed in README.md and asserted by `--check`; keep the
three in sync when changing anything here.
"""

import io
import struct
import sys
import zlib
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms, ImageFile, ImageOps, JpegImagePlugin, TiffImagePlugin

OUT = Path(__file__).resolve().parent

# --------------------------------------------------------------------------------------
# Shared constants (tests rely on these values)
# --------------------------------------------------------------------------------------

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
MARKER_W, MARKER_H = 96, 64  # upright marker; quadrants are 48x32

DATETIME_ORIGINAL = "2024:06:15 14:30:00"
OFFSET_TIME_ORIGINAL = "+02:00"
GPS_LAT_DMS = (52, 13, 48)  # 52 deg 13' 48.00" N  = 52.23
GPS_LON_DMS = (21, 0, 36)  # 21 deg  0' 36.00" E  = 21.01
GPS_LAT, GPS_LON = 52.23, 21.01
MAKE, MODEL = "PetSpotTest", "Generator"
JPEG_COMMENT = b"secret comment"
XMP_PACKET = (
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
    '  <rdf:Description rdf:about=""\n'
    '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n'
    '    xmlns:dc="http://purl.org/dc/elements/1.1/"\n'
    '    xmp:CreatorTool="PetSpotTest Generator"\n'
    '    xmp:CreateDate="2024-06-15T14:30:00+02:00">\n'
    '   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">secret xmp description</rdf:li></rdf:Alt></dc:description>\n'
    "  </rdf:Description>\n"
    " </rdf:RDF>\n"
    "</x:xmpmeta>\n"
    '<?xpacket end="w"?>'
).encode("utf-8")

# EXIF / TIFF tag numbers
T_ORIENTATION, T_MAKE, T_MODEL = 0x0112, 0x010F, 0x0110
IFD_EXIF, IFD_GPS = 0x8769, 0x8825
T_DATETIME_ORIGINAL, T_OFFSET_TIME_ORIGINAL = 0x9003, 0x9011
T_GPS_VERSION, T_GPS_LAT_REF, T_GPS_LAT, T_GPS_LON_REF, T_GPS_LON = 0, 1, 2, 3, 4

# Inverse of the transform ImageOps.exif_transpose applies for each orientation,
# i.e. stored = INVERSE[n](upright)  =>  exif_transpose(stored) == upright.
T = Image.Transpose
STORE_TRANSFORM = {
    1: None,
    2: T.FLIP_LEFT_RIGHT,  # displayed = mirror(stored)
    3: T.ROTATE_180,
    4: T.FLIP_TOP_BOTTOM,
    5: T.TRANSPOSE,  # self-inverse
    6: T.ROTATE_90,  # displayed = stored rotated 90 deg clockwise
    7: T.TRANSVERSE,  # self-inverse
    8: T.ROTATE_270,  # displayed = stored rotated 90 deg counter-clockwise
}
# Independent statement of the EXIF spec: colour of the *stored* image's corners
# (top-left, top-right, bottom-left, bottom-right) for each orientation value.
R_, G_, B_, W_ = "red", "green", "blue", "white"
STORED_CORNERS = {
    1: (R_, G_, B_, W_),
    2: (G_, R_, W_, B_),
    3: (W_, B_, G_, R_),
    4: (B_, W_, R_, G_),
    5: (R_, B_, G_, W_),
    6: (G_, W_, R_, B_),  # 0th row = visual right side, 0th column = visual top
    7: (W_, G_, B_, R_),
    8: (B_, R_, W_, G_),  # 0th row = visual left side, 0th column = visual bottom
}
COLOURS = {R_: RED, G_: GREEN, B_: BLUE, W_: WHITE}

# Progressive JPEGs whose scans are nothing but end-of-band runs (progressive_scans.py): name →
# (width, height, AC scans, kind). The large one is the file a review used against the server.
# A legal progression can cost as much: every coefficient on its own, refined bit by bit.
SCAN_BOMB_SHAPES = {
    "bomb-jpeg-scans-8192x6100.jpg": (8192, 6100, 463, "first", "repeat"),
    "bomb-jpeg-scans-1200x2048.jpg": (1200, 2048, 463, "refine", "repeat"),
    "bomb-jpeg-scans-legal-512x512.jpg": (512, 512, 400, "first", "valid"),
}
SCAN_BOMBS = list(SCAN_BOMB_SHAPES)

# Written by heif-enc (libheif-examples), the one external program: Pillow cannot write HEIF.
HEIF_FILES = ["sample-photo.heic", "sample-photo.avif", "heif-rgba-alpha.avif", "heif-rgb16-10bit.heic", "bad-truncated.heic"]

ALL_FILES = (
    [f"exif-orientation-{n}.jpg" for n in range(1, 9)]
    + [
        "jpeg-baseline.jpg",
        "jpeg-progressive.jpg",
        "jpeg-grayscale.jpg",
        "jpeg-cmyk.jpg",
        "jpeg-gps-date.jpg",
        "jpeg-icc-srgb.jpg",
        "png-gray8.png",
        "png-gray16.png",
        "png-palette.png",
        "png-palette-trns.png",
        "png-rgb16.png",
        "png-rgba-alpha.png",
        "png-interlaced.png",
        "png-gray-alpha.png",
        "png-stripes-1px.png",
        "webp-lossy.webp",
        "webp-lossless.webp",
        "webp-alpha.webp",
        "webp-lossless-alpha.webp",
        "bad-truncated.jpg",
        "bad-truncated.png",
        "bad-zero-bytes.jpg",
        "bad-not-an-image.jpg",
        "wrong-extension-png-named.jpg",
        "wrong-extension-jpeg-named.webp",
        "sample-photo.jpg",
        "bomb-png-10000x9999.png",
        "bomb-jpeg-progressive-10000x9999.jpg",
        "bomb-jpeg-baseline-10000x9999.jpg",
        "bomb-png-1000000x1000000.png",
        "bad-zero-height.jpg",
        "bad-scan-ends-early.jpg",
    ]
    + SCAN_BOMBS
    + HEIF_FILES
)

# --------------------------------------------------------------------------------------
# Synthetic pictures
# --------------------------------------------------------------------------------------


def hash_noise(w, h, seed):
    """Deterministic pseudo-noise in [-1, 1), shape (h, w): integer hash of (x, y, seed)."""
    y, x = np.mgrid[0:h, 0:w].astype(np.uint32)
    v = x * np.uint32(0x9E3779B1) ^ y * np.uint32(0x85EBCA77) ^ np.uint32(seed * 0xC2B2AE3D & 0xFFFFFFFF)
    v ^= v >> np.uint32(15)
    v *= np.uint32(0x2C1B3C6D)
    v ^= v >> np.uint32(12)
    v *= np.uint32(0x297A2D39)
    v ^= v >> np.uint32(15)
    return (v & np.uint32(0xFFFF)).astype(np.float64) / 32768.0 - 1.0


def marker():
    """The upright 96x64 orientation marker: red | green / blue | white quadrants."""
    a = np.zeros((MARKER_H, MARKER_W, 3), np.uint8)
    hw, hh = MARKER_W // 2, MARKER_H // 2
    a[:hh, :hw] = RED
    a[:hh, hw:] = GREEN
    a[hh:, :hw] = BLUE
    a[hh:, hw:] = WHITE
    return Image.fromarray(a, "RGB")


def photo(w, h, seed=1, noise=3.0):
    """Smooth colourful gradients + a few soft shapes + mild deterministic noise (RGB)."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = x / max(w - 1, 1), y / max(h - 1, 1)
    r = 40 + 180 * u + 25 * np.sin(6.0 * v + 1.0)
    g = 60 + 120 * v + 40 * np.cos(5.0 * u * v + 0.5)
    b = 200 - 140 * u * v + 30 * np.sin(4.0 * (u + v))
    img = np.stack([r, g, b], axis=-1)
    s = min(w, h)

    def disk(cx, cy, rad, colour, soft=2.0):
        d = np.hypot(x - cx * w, y - cy * h)
        a = np.clip((rad * s - d) / soft + 0.5, 0.0, 1.0)[..., None]
        img[:] = img * (1 - a) + np.array(colour, np.float64) * a

    disk(0.30, 0.40, 0.22, (250, 210, 60))  # "sun"
    disk(0.70, 0.62, 0.16, (30, 90, 40))
    disk(0.55, 0.30, 0.08, (240, 240, 235))
    # a rectangle with a vertical shade
    rx0, rx1, ry0, ry1 = int(0.10 * w), int(0.45 * w), int(0.70 * h), int(0.90 * h)
    img[ry0:ry1, rx0:rx1] = np.stack(
        [120 + 0 * v[ry0:ry1, rx0:rx1], 60 + 100 * v[ry0:ry1, rx0:rx1], 150 + 0 * v[ry0:ry1, rx0:rx1]], -1
    )
    img += noise * hash_noise(w, h, seed)[..., None]
    return Image.fromarray(np.clip(np.rint(img), 0, 255).astype(np.uint8), "RGB")


def sample_upright():
    """1200x1600 portrait scene (as it should be *displayed*); orientation squares in the corners."""
    w, h = 1200, 1600
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = x / (w - 1), y / (h - 1)
    sky = np.stack([90 + 80 * v, 150 + 60 * v, 235 - 20 * u], -1)
    grass = np.stack([50 + 30 * u, 140 - 40 * (v - 0.6), 50 + 0 * u], -1)
    img = np.where((v < 0.6)[..., None], sky, grass)

    def ellipse(cx, cy, rx, ry, colour, soft=2.0):
        d = np.hypot((x - cx) / rx, (y - cy) / ry)
        a = np.clip((1.0 - d) * min(rx, ry) / soft + 0.5, 0.0, 1.0)[..., None]
        img[:] = img * (1 - a) + np.array(colour, np.float64) * a

    ellipse(950, 250, 110, 110, (255, 220, 80))  # sun, upper right
    ellipse(600, 1150, 300, 170, (150, 95, 50))  # "pet" body
    ellipse(820, 930, 130, 120, (160, 105, 60))  # head
    ellipse(760, 830, 35, 60, (120, 70, 35))  # ear
    ellipse(880, 830, 35, 60, (120, 70, 35))  # ear
    ellipse(860, 910, 14, 14, (20, 20, 20))  # eye
    img += 1.5 * hash_noise(w, h, 42)[..., None]
    img = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    # 100x100 orientation squares in the displayed corners: red TL, green TR, blue BL, white BR
    img[:100, :100] = RED
    img[:100, -100:] = GREEN
    img[-100:, :100] = BLUE
    img[-100:, -100:] = WHITE
    return Image.fromarray(img, "RGB")


def gray8():
    a = np.tile(np.rint(np.arange(64) * 255 / 63), (48, 1))
    return Image.fromarray(a.astype(np.uint8), "L")


def gray16_array():
    # every pixel distinct; 0 at (0,0), 65535 at (63,47); row-major ramp
    return np.rint(np.arange(64 * 48).reshape(48, 64) * 65535 / (64 * 48 - 1)).astype(np.uint16)


PALETTE16 = [
    (0, 0, 0), (128, 0, 0), (0, 128, 0), (128, 128, 0),
    (0, 0, 128), (128, 0, 128), (0, 128, 128), (192, 192, 192),
    (128, 128, 128), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (0, 0, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]  # fmt: skip


def palette16():
    """64x48 P image: 16 vertical bands of 4 px, band i = palette index i."""
    a = np.tile(np.arange(64) // 4, (48, 1)).astype(np.uint8)
    im = Image.frombytes("P", (64, 48), a.tobytes())
    im.putpalette([c for rgb in PALETTE16 for c in rgb])
    return im


TRNS_PALETTE = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]


def palette_trns():
    """64x48 P image, 4 colours; index 0 fully transparent and fills the left half (x < 32);
    right half: horizontal bands of index 1 (red, y<16), 2 (green, y<32), 3 (blue)."""
    a = np.zeros((48, 64), np.uint8)
    a[:16, 32:] = 1
    a[16:32, 32:] = 2
    a[32:, 32:] = 3
    im = Image.frombytes("P", (64, 48), a.tobytes())
    im.putpalette([c for rgb in TRNS_PALETTE for c in rgb])
    return im


def rgb16_array():
    y, x = np.mgrid[0:48, 0:64].astype(np.float64)
    r = np.rint(x * 65535 / 63)
    g = np.rint(y * 65535 / 47)
    b = np.rint((63 - x) * (47 - y) * 65535 / (63 * 47))
    return np.stack([r, g, b], -1).astype(np.uint16)


def rgba_alpha():
    """96x64 RGBA: opaque red disk (centre 32,32, r=24, 2 px anti-aliased edge) on a fully
    transparent (0,0,0,0) background + semi-transparent green bar (0,255,0,128) x 72..87, y 8..55."""
    y, x = np.mgrid[0:64, 0:96].astype(np.float64)
    d = np.hypot(x + 0.5 - 32, y + 0.5 - 32)
    alpha = np.rint(np.clip((24 - d) / 2 + 0.5, 0, 1) * 255).astype(np.uint8)
    a = np.zeros((64, 96, 4), np.uint8)
    a[..., 0] = np.where(alpha > 0, 255, 0)
    a[..., 3] = alpha
    a[8:56, 72:88] = (0, 255, 0, 128)
    return Image.fromarray(a, "RGBA")


def gray_alpha():
    """64x48 LA: L = horizontal ramp 0..255, A = vertical ramp 0 (top row) .. 255 (bottom row)."""
    y, x = np.mgrid[0:48, 0:64]
    la = np.stack([np.rint(x * 255 / 63), np.rint(y * 255 / 47)], -1).astype(np.uint8)
    return Image.frombytes("LA", (64, 48), la.tobytes())


def stripes():
    """400x400 RGB; even columns black, odd columns white."""
    a = np.zeros((400, 400, 3), np.uint8)
    a[:, 1::2] = 255
    return Image.fromarray(a, "RGB")


# --------------------------------------------------------------------------------------
# Minimal PNG writer (for 16-bit RGB and Adam7 interlacing, which Pillow can't write)
# --------------------------------------------------------------------------------------

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, arr, bit_depth, colour_type, interlace=False):
    """arr: (h, w, channels) uint8 (bit_depth 8) or uint16 (bit_depth 16). Filter type 0 rows."""
    h, w = arr.shape[:2]
    arr = arr.astype(">u2" if bit_depth == 16 else np.uint8)
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = bytearray()
    for xs, ys, xstep, ystep in passes:
        sub = arr[ys::ystep, xs::xstep]
        if sub.shape[0] == 0 or sub.shape[1] == 0:
            continue  # empty passes contribute nothing (PNG spec 8.2)
        for row in sub:
            raw += b"\x00" + row.tobytes()
    ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, colour_type, 0, 0, 1 if interlace else 0)
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    path.write_bytes(data + _chunk(b"IEND", b""))


def patch_sof(jpeg, width, height):
    """The JPEG with its SOF0/SOF2 header declaring `width`×`height` instead."""
    sof = next(i for i in range(len(jpeg) - 1) if jpeg[i] == 0xFF and jpeg[i + 1] in (0xC0, 0xC2))
    return jpeg[: sof + 5] + struct.pack(">HH", height, width) + jpeg[sof + 9 :]


def png_chunks(data):
    """[(type, offset_of_data, length)] for a PNG byte string."""
    out, pos = [], 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        out.append((kind, pos + 8, length))
        pos += 12 + length
    return out


# --------------------------------------------------------------------------------------
# EXIF helpers
# --------------------------------------------------------------------------------------


def _rat(n, d=1):
    return TiffImagePlugin.IFDRational(n, d)


def make_exif(size, orientation=None, gps=False, datetime=False, camera=False):
    """EXIF block; also writes most tags EXIF 2.32 marks as required, so strict readers are happy
    (not ComponentsConfiguration: Pillow would write it with the wrong TIFF type).
    size = stored (width, height) of the JPEG."""
    exif = Image.Exif()
    if camera:
        exif[T_MAKE] = MAKE
        exif[T_MODEL] = MODEL
    if orientation is not None:
        exif[T_ORIENTATION] = orientation
    exif[0x011A] = exif[0x011B] = _rat(72)  # X/YResolution
    exif[0x0128] = 2  # ResolutionUnit = inch
    exif[0x0213] = 1  # YCbCrPositioning = centred
    if datetime:
        sub = exif.get_ifd(IFD_EXIF)
        sub[0x9000] = b"0232"  # ExifVersion
        sub[0xA000] = b"0100"  # FlashpixVersion
        sub[0xA001] = 1  # ColorSpace = sRGB
        sub[0xA002], sub[0xA003] = size  # PixelX/YDimension
        sub[T_DATETIME_ORIGINAL] = DATETIME_ORIGINAL
        sub[T_OFFSET_TIME_ORIGINAL] = OFFSET_TIME_ORIGINAL
    if gps:
        g = exif.get_ifd(IFD_GPS)
        g[T_GPS_VERSION] = b"\x02\x02\x00\x00"
        g[T_GPS_LAT_REF] = "N"
        g[T_GPS_LAT] = tuple(_rat(v) for v in GPS_LAT_DMS)
        g[T_GPS_LON_REF] = "E"
        g[T_GPS_LON] = tuple(_rat(v) for v in GPS_LON_DMS)
    return exif.tobytes()


def srgb_icc():
    """lcms2's built-in sRGB profile with its creation date pinned (bytes 24..35) for reproducibility."""
    icc = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    icc[24:36] = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)
    return bytes(icc)


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------


def generate():
    p = lambda name: OUT / name  # noqa: E731

    # 1. EXIF orientation set
    up = marker()
    for n in range(1, 9):
        t = STORE_TRANSFORM[n]
        stored = up if t is None else up.transpose(t)
        stored.save(p(f"exif-orientation-{n}.jpg"), quality=95, subsampling=0, exif=make_exif(stored.size, orientation=n))

    # 2. JPEG variants
    pic = photo(640, 480, seed=1)
    pic.save(p("jpeg-baseline.jpg"), quality=90, subsampling=2)
    pic.save(p("jpeg-progressive.jpg"), quality=90, subsampling=2, progressive=True)
    photo(320, 240, seed=2).convert("L").save(p("jpeg-grayscale.jpg"), quality=90)
    rb = np.zeros((120, 160, 3), np.uint8)
    rb[:, :80] = RED
    rb[:, 80:] = BLUE
    Image.fromarray(rb, "RGB").convert("CMYK").save(p("jpeg-cmyk.jpg"), quality=95, subsampling=0)

    # 3. EXIF date/GPS/camera + XMP + COM
    photo(320, 240, seed=3).save(
        p("jpeg-gps-date.jpg"),
        quality=90,
        exif=make_exif((320, 240), orientation=1, gps=True, datetime=True, camera=True),
        xmp=XMP_PACKET,
        comment=JPEG_COMMENT,
    )

    # 4. ICC
    photo(128, 96, seed=4).save(p("jpeg-icc-srgb.jpg"), quality=90, icc_profile=srgb_icc())

    # 5. PNGs
    gray8().save(p("png-gray8.png"))
    Image.frombytes("I;16", (64, 48), gray16_array().astype("<u2").tobytes()).save(p("png-gray16.png"))
    palette16().save(p("png-palette.png"))
    palette_trns().save(p("png-palette-trns.png"), transparency=0)
    write_png(p("png-rgb16.png"), rgb16_array(), 16, 2)
    rgba_alpha().save(p("png-rgba-alpha.png"))
    write_png(p("png-interlaced.png"), np.asarray(photo(64, 48, seed=5)), 8, 2, interlace=True)
    gray_alpha().save(p("png-gray-alpha.png"))
    stripes().save(p("png-stripes-1px.png"))

    # 6. WebP
    photo(320, 240, seed=6).save(p("webp-lossy.webp"), quality=80)
    up.save(p("webp-lossless.webp"), lossless=True)
    rgba_alpha().save(p("webp-alpha.webp"), quality=80, alpha_quality=100)
    rgba_alpha().save(p("webp-lossless-alpha.webp"), lossless=True, exact=True)

    # 7. Bad / mislabelled files
    base = p("jpeg-baseline.jpg").read_bytes()
    p("bad-truncated.jpg").write_bytes(base[: len(base) * 60 // 100])
    rgba = p("png-rgba-alpha.png").read_bytes()
    (_, idat_off, idat_len) = next(c for c in png_chunks(rgba) if c[0] == b"IDAT")
    p("bad-truncated.png").write_bytes(rgba[: idat_off + idat_len // 2])
    p("bad-zero-bytes.jpg").write_bytes(b"")
    p("bad-not-an-image.jpg").write_bytes("This is not a photo.\n".encode("utf-8"))
    p("wrong-extension-png-named.jpg").write_bytes(p("png-palette.png").read_bytes())
    p("wrong-extension-jpeg-named.webp").write_bytes(p("exif-orientation-1.jpg").read_bytes())

    # 9. Hostile headers: a huge declared size over a few bytes of data, a zero height, and a scan
    #    whose data stops early in a file that still ends with EOI (djpeg: "Corrupt JPEG data:
    #    premature end of data segment", and a grey lower half).
    rows = zlib.compress(b"\x00" * (1 + 10000 * 3) * 4, 9)
    ihdr = struct.pack(">IIBBBBB", 10000, 9999, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", rows) + _chunk(b"IEND", b"")
    p("bomb-png-10000x9999.png").write_bytes(png)
    ihdr = struct.pack(">IIBBBBB", 1000000, 1000000, 8, 6, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(b"\x00" * 1000, 9))
    p("bomb-png-1000000x1000000.png").write_bytes(png + _chunk(b"IEND", b""))
    small = photo(96, 64, seed=7)
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=90, subsampling=2, progressive=True)
    p("bomb-jpeg-progressive-10000x9999.jpg").write_bytes(patch_sof(buffer.getvalue(), 10000, 9999))
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=90, subsampling=2)
    p("bomb-jpeg-baseline-10000x9999.jpg").write_bytes(patch_sof(buffer.getvalue(), 10000, 9999))
    p("bad-zero-height.jpg").write_bytes(patch_sof(buffer.getvalue(), 96, 0))
    scan = base.index(b"\xff\xda")
    cut = scan + (len(base) - scan) // 2
    p("bad-scan-ends-early.jpg").write_bytes(base[:cut] + b"\xff\xd9")

    # 8. README demo input: stored 1600x1200 landscape, Orientation 6 -> displays 1200x1600 portrait
    sample_upright().transpose(STORE_TRANSFORM[6]).save(
        p("sample-photo.jpg"),
        quality=90,
        exif=make_exif((1600, 1200), orientation=6, gps=True, datetime=True, camera=True),
    )

    generate_scan_bombs()
    generate_heif()

    total = 0
    for name in ALL_FILES:
        size = p(name).stat().st_size
        total += size
        print(f"{size:>9,}  {name}")
    print(f"{total:>9,}  total")


def generate_scan_bombs():
    """Progressive JPEGs costing the decoder hundreds of passes over their blocks (a DC scan, then
    463 AC scans of end-of-band runs), made by progressive_scans.py without any codec."""
    import progressive_scans

    for name, (width, height, scans, kind, script) in SCAN_BOMB_SHAPES.items():
        (OUT / name).write_bytes(progressive_scans.make(width, height, scans, kind, script))


def generate_heif():
    """HEIC/AVIF inputs, encoded by Debian's heif-enc 1.15 (x265, aom) from files made above.

    heif-enc copies the JPEG's EXIF (Orientation 6) but writes no irot, so the sample photo's
    HEIC/AVIF are landscape 1600x1200 as stored: HEIF readers never apply the EXIF tag.
    """
    import subprocess

    p = lambda name: OUT / name  # noqa: E731

    def enc(source, target, *args):
        subprocess.run(["heif-enc", "-q", "50", *args, "-o", str(p(target)), str(p(source))], check=True,
                       stdout=subprocess.DEVNULL)

    enc("sample-photo.jpg", "sample-photo.heic")
    enc("sample-photo.jpg", "sample-photo.avif")
    enc("png-rgba-alpha.png", "heif-rgba-alpha.avif")
    enc("png-rgb16.png", "heif-rgb16-10bit.heic", "-b", "10")
    heic = p("sample-photo.heic").read_bytes()
    p("bad-truncated.heic").write_bytes(heic[: len(heic) * 60 // 100])


# --------------------------------------------------------------------------------------
# Verification (--check)
# --------------------------------------------------------------------------------------


def near(px, expected, tol=10):
    return all(abs(int(a) - int(b)) <= tol for a, b in zip(px, expected))


def jpeg_markers(data):
    """Set of JPEG marker bytes (e.g. 0xC0 for SOF0) found before the scan data."""
    out, pos = set(), 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        m = data[pos + 1]
        out.add(m)
        if m == 0xDA:
            break
        pos += 2 + struct.unpack(">H", data[pos + 2 : pos + 4])[0]
    return out


def webp_chunks(data):
    """[fourcc, ...] of a WebP file's RIFF chunks."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    out, pos = [], 12
    while pos + 8 <= len(data):
        kind, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        out.append(kind)
        pos += 8 + size + (size & 1)
    return out


def vp8l_alpha_flag(data):
    """alpha_is_used bit of the VP8L header (file must be a simple-format lossless WebP)."""
    assert data[12:16] == b"VP8L" and data[20] == 0x2F
    return bool((struct.unpack("<I", data[21:25])[0] >> 28) & 1)


def dms_to_deg(dms):
    d, m, s = (float(v) for v in dms)
    return d + m / 60 + s / 3600


def check():
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    p = lambda name: OUT / name  # noqa: E731
    failures = []

    def ok(cond, msg):
        if not cond:
            failures.append(msg)

    def opened(name):
        im = Image.open(p(name))
        im.load()
        return im

    total = 0
    for name in ALL_FILES:
        ok(p(name).exists(), f"{name}: missing")
        if p(name).exists():
            total += p(name).stat().st_size
            ok(p(name).stat().st_size <= 400_000, f"{name}: larger than 400 kB")
    ok(total < 2_000_000, f"folder total {total} >= 2 MB")
    if failures:
        return failures

    # 1. orientation
    up = np.asarray(marker())
    for n in range(1, 9):
        name = f"exif-orientation-{n}.jpg"
        im = opened(name)
        ok(im.format == "JPEG" and im.mode == "RGB", f"{name}: not an RGB JPEG")
        ok(im.getexif().get(T_ORIENTATION) == n, f"{name}: Orientation != {n}")
        ok(im.size == ((96, 64) if n <= 4 else (64, 96)), f"{name}: stored size {im.size}")
        ok(JpegImagePlugin.get_sampling(im) == 0, f"{name}: chroma subsampled")
        w, h = im.size
        corners = [im.getpixel(c) for c in [(2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3)]]
        for got, want in zip(corners, STORED_CORNERS[n]):
            ok(near(got, COLOURS[want]), f"{name}: stored corner {got} != {want}")
        disp = ImageOps.exif_transpose(im)
        ok(disp.size == (96, 64), f"{name}: displayed size {disp.size}")
        for (x, y), col in [((24, 16), RED), ((72, 16), GREEN), ((24, 48), BLUE), ((72, 48), WHITE)]:
            ok(near(disp.getpixel((x, y)), col), f"{name}: displayed ({x},{y}) {disp.getpixel((x, y))} != {col}")
        ok(np.abs(np.asarray(disp).astype(int) - up).max() <= 40, f"{name}: displayed picture differs")

    # 2. JPEG variants
    for name, sof, prog in [("jpeg-baseline.jpg", 0xC0, False), ("jpeg-progressive.jpg", 0xC2, True)]:
        im = opened(name)
        ok((im.format, im.mode, im.size) == ("JPEG", "RGB", (640, 480)), f"{name}: {im.format} {im.mode} {im.size}")
        ok(sof in jpeg_markers(p(name).read_bytes()), f"{name}: SOF{sof - 0xC0} marker missing")
        ok(bool(im.info.get("progressive")) == prog, f"{name}: progressive flag")
        ok(JpegImagePlugin.get_sampling(im) == 2, f"{name}: not 4:2:0")
        ok(not im.getexif(), f"{name}: unexpected EXIF")
    a, b = np.asarray(opened("jpeg-baseline.jpg")), np.asarray(opened("jpeg-progressive.jpg"))
    ok(np.abs(a.astype(int) - b).mean() < 1.0, "baseline vs progressive: pictures differ")
    im = opened("jpeg-grayscale.jpg")
    ok((im.format, im.mode, im.size, im.layers) == ("JPEG", "L", (320, 240), 1), f"jpeg-grayscale: {im.mode} {im.size}")
    im = opened("jpeg-cmyk.jpg")
    ok((im.format, im.mode, im.size) == ("JPEG", "CMYK", (160, 120)), f"jpeg-cmyk: {im.mode} {im.size}")
    ok(0xEE in jpeg_markers(p("jpeg-cmyk.jpg").read_bytes()) and "adobe" in im.info, "jpeg-cmyk: no Adobe APP14")
    ok(im.layers == 4, "jpeg-cmyk: not 4 components")
    rgb = im.convert("RGB")
    ok(near(rgb.getpixel((40, 60)), RED), f"jpeg-cmyk: left {rgb.getpixel((40, 60))} != red")
    ok(near(rgb.getpixel((120, 60)), BLUE), f"jpeg-cmyk: right {rgb.getpixel((120, 60))} != blue")
    ok(near(im.getpixel((40, 60)), (0, 255, 255, 0)), f"jpeg-cmyk: left CMYK {im.getpixel((40, 60))}")
    ok(near(im.getpixel((120, 60)), (255, 255, 0, 0)), f"jpeg-cmyk: right CMYK {im.getpixel((120, 60))}")

    # 3 + 8. EXIF metadata
    def check_meta(name, orientation, size, xmp_com):
        im = opened(name)
        ok((im.format, im.mode, im.size) == ("JPEG", "RGB", size), f"{name}: {im.mode} {im.size}")
        ex = im.getexif()
        ok(ex.get(T_ORIENTATION) == orientation, f"{name}: Orientation {ex.get(T_ORIENTATION)}")
        ok(ex.get(T_MAKE) == MAKE and ex.get(T_MODEL) == MODEL, f"{name}: Make/Model")
        sub = ex.get_ifd(IFD_EXIF)
        ok(sub.get(T_DATETIME_ORIGINAL) == DATETIME_ORIGINAL, f"{name}: DateTimeOriginal {sub.get(T_DATETIME_ORIGINAL)}")
        ok(sub.get(T_OFFSET_TIME_ORIGINAL) == OFFSET_TIME_ORIGINAL, f"{name}: OffsetTimeOriginal")
        g = ex.get_ifd(IFD_GPS)
        ok(g.get(T_GPS_VERSION) == b"\x02\x02\x00\x00", f"{name}: GPSVersionID {g.get(T_GPS_VERSION)!r}")
        ok(g.get(T_GPS_LAT_REF) == "N" and g.get(T_GPS_LON_REF) == "E", f"{name}: GPS refs")
        ok(tuple(float(v) for v in g.get(T_GPS_LAT, ())) == GPS_LAT_DMS, f"{name}: GPSLatitude {g.get(T_GPS_LAT)}")
        ok(tuple(float(v) for v in g.get(T_GPS_LON, ())) == GPS_LON_DMS, f"{name}: GPSLongitude {g.get(T_GPS_LON)}")
        ok(abs(dms_to_deg(g[T_GPS_LAT]) - GPS_LAT) < 1e-9, f"{name}: latitude != {GPS_LAT}")
        ok(abs(dms_to_deg(g[T_GPS_LON]) - GPS_LON) < 1e-9, f"{name}: longitude != {GPS_LON}")
        if xmp_com:
            ok(im.info.get("xmp") == XMP_PACKET, f"{name}: XMP packet")
            ok(b"http://ns.adobe.com/xap/1.0/\x00" in p(name).read_bytes(), f"{name}: XMP APP1 header")
            ok(im.info.get("comment") == JPEG_COMMENT, f"{name}: COM {im.info.get('comment')!r}")
        ok("icc_profile" not in im.info, f"{name}: unexpected ICC profile")
        return im

    check_meta("jpeg-gps-date.jpg", 1, (320, 240), True)
    im = check_meta("sample-photo.jpg", 6, (1600, 1200), False)
    ok("xmp" not in im.info and "comment" not in im.info, "sample-photo: unexpected XMP/COM")
    disp = ImageOps.exif_transpose(im)
    ok(disp.size == (1200, 1600), f"sample-photo: displayed size {disp.size}")
    for (x, y), col in [((50, 50), RED), ((1150, 50), GREEN), ((50, 1550), BLUE), ((1150, 1550), WHITE)]:
        ok(near(disp.getpixel((x, y)), col), f"sample-photo: displayed ({x},{y}) {disp.getpixel((x, y))} != {col}")

    # 4. ICC
    im = opened("jpeg-icc-srgb.jpg")
    ok((im.mode, im.size) == ("RGB", (128, 96)), f"jpeg-icc-srgb: {im.mode} {im.size}")
    icc = im.info.get("icc_profile")
    ok(icc == srgb_icc(), "jpeg-icc-srgb: ICC profile missing or different")
    if icc:
        prof = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        desc = ImageCms.getProfileDescription(prof).strip()
        ok("sRGB" in desc, f"jpeg-icc-srgb: profile description {desc!r}")
        ok(icc[12:20] == b"mntrRGB ", "jpeg-icc-srgb: not an RGB display profile")
    ok(not im.getexif(), "jpeg-icc-srgb: unexpected EXIF")

    # 5. PNGs
    def ihdr(name):
        data = p(name).read_bytes()
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
        return w, h, depth, ctype, interlace

    im = opened("png-gray8.png")
    ok((im.mode, im.size, ihdr("png-gray8.png")) == ("L", (64, 48), (64, 48, 8, 0, 0)), "png-gray8: header")
    ok(np.array_equal(np.asarray(im), np.asarray(gray8())), "png-gray8: pixels")
    im = opened("png-gray16.png")
    ok(ihdr("png-gray16.png") == (64, 48, 16, 0, 0), f"png-gray16: IHDR {ihdr('png-gray16.png')}")
    ok(im.mode in ("I;16", "I", "I;16B"), f"png-gray16: mode {im.mode}")
    g16 = np.asarray(im).astype(np.int64)
    ok(np.array_equal(g16, gray16_array()), "png-gray16: pixels")
    ok(g16.min() == 0 and g16.max() == 65535, "png-gray16: range")
    im = opened("png-palette.png")
    ok((im.mode, im.size) == ("P", (64, 48)), f"png-palette: {im.mode} {im.size}")
    ok(len(im.getcolors()) == 16 and ihdr("png-palette.png")[3] == 3, "png-palette: not 16 colours / type 3")
    ok(ihdr("png-palette.png")[2] == 4, f"png-palette: bit depth {ihdr('png-palette.png')[2]}")
    ok(np.array_equal(np.asarray(im.convert("RGB")), np.asarray(palette16().convert("RGB"))), "png-palette: pixels")
    ok("transparency" not in im.info, "png-palette: unexpected tRNS")
    im = opened("png-palette-trns.png")
    ok((im.mode, im.size, im.info.get("transparency")) == ("P", (64, 48), 0), f"png-palette-trns: {im.info}")
    ok(any(c[0] == b"tRNS" for c in png_chunks(p("png-palette-trns.png").read_bytes())), "png-palette-trns: no tRNS")
    idx = np.asarray(im)
    ok((idx[:, :32] == 0).all() and (idx[:, 32:] != 0).all(), "png-palette-trns: index layout")
    rgba = np.asarray(im.convert("RGBA"))
    ok((rgba[:, :32, 3] == 0).all() and (rgba[:, 32:, 3] == 255).all(), "png-palette-trns: alpha")
    ok(tuple(rgba[8, 48]) == (255, 0, 0, 255) and tuple(rgba[40, 48]) == (0, 0, 255, 255), "png-palette-trns: colours")
    im = opened("png-rgb16.png")
    ok(ihdr("png-rgb16.png") == (64, 48, 16, 2, 0), f"png-rgb16: IHDR {ihdr('png-rgb16.png')}")
    ok((im.mode, im.size) == ("RGB", (64, 48)), f"png-rgb16: Pillow sees {im.mode} {im.size}")
    ok(np.array_equal(np.asarray(im), (rgb16_array() >> 8).astype(np.uint8)), "png-rgb16: high bytes")
    data = p("png-rgb16.png").read_bytes()
    raw = zlib.decompress(b"".join(data[o : o + n] for k, o, n in png_chunks(data) if k == b"IDAT"))
    rows = np.frombuffer(raw, np.uint8).reshape(48, 1 + 64 * 6)[:, 1:]
    ok(np.array_equal(rows.copy().view(">u2").reshape(48, 64, 3), rgb16_array()), "png-rgb16: 16-bit samples")
    im = opened("png-rgba-alpha.png")
    ok((im.mode, im.size) == ("RGBA", (96, 64)), f"png-rgba-alpha: {im.mode} {im.size}")
    a = np.asarray(im)
    ok(np.array_equal(a, np.asarray(rgba_alpha())), "png-rgba-alpha: pixels")
    ok(tuple(a[0, 0]) == (0, 0, 0, 0) and tuple(a[32, 32]) == (255, 0, 0, 255), "png-rgba-alpha: bg/disk")
    ok(tuple(a[32, 80]) == (0, 255, 0, 128), "png-rgba-alpha: green bar")
    edge = a[..., 3][(a[..., 0] == 255)]
    ok(((edge > 0) & (edge < 255)).sum() >= 50, "png-rgba-alpha: no soft edge")
    im = opened("png-interlaced.png")
    ok(ihdr("png-interlaced.png") == (64, 48, 8, 2, 1), f"png-interlaced: IHDR {ihdr('png-interlaced.png')}")
    ok(im.info.get("interlace") == 1 and im.mode == "RGB", f"png-interlaced: {im.info} {im.mode}")
    ok(np.array_equal(np.asarray(im), np.asarray(photo(64, 48, seed=5))), "png-interlaced: pixels != source")
    im = opened("png-gray-alpha.png")
    ok((im.mode, im.size, ihdr("png-gray-alpha.png")[3]) == ("LA", (64, 48), 4), f"png-gray-alpha: {im.mode}")
    ok(np.array_equal(np.asarray(im), np.asarray(gray_alpha())), "png-gray-alpha: pixels")
    im = opened("png-stripes-1px.png")
    s = np.asarray(im)
    ok((im.mode, im.size) == ("RGB", (400, 400)), f"png-stripes-1px: {im.mode} {im.size}")
    ok((s[:, 0::2] == 0).all() and (s[:, 1::2] == 255).all(), "png-stripes-1px: stripes")

    # 6. WebP
    def webp(name, mode, size, chunk_set):
        im = opened(name)
        ok((im.format, im.mode, im.size) == ("WEBP", mode, size), f"{name}: {im.format} {im.mode} {im.size}")
        ch = webp_chunks(p(name).read_bytes())
        ok(set(ch) == chunk_set, f"{name}: chunks {ch}")
        return im

    webp("webp-lossy.webp", "RGB", (320, 240), {b"VP8 "})
    im = webp("webp-lossless.webp", "RGB", (96, 64), {b"VP8L"})
    ok(np.array_equal(np.asarray(im), up), "webp-lossless: pixels != marker")
    ok(not vp8l_alpha_flag(p("webp-lossless.webp").read_bytes()), "webp-lossless: alpha flag set")
    im = webp("webp-alpha.webp", "RGBA", (96, 64), {b"VP8X", b"ALPH", b"VP8 "})
    a = np.asarray(im).astype(int)
    ok(a[0, 0, 3] == 0 and a[32, 32, 3] == 255 and abs(a[32, 80, 3] - 128) <= 2, "webp-alpha: alpha values")
    ok(near(a[32, 32, :3], RED, 20) and near(a[32, 80, :3], GREEN, 30), f"webp-alpha: colours {a[32, 32]} {a[32, 80]}")
    im = webp("webp-lossless-alpha.webp", "RGBA", (96, 64), {b"VP8L"})  # simple format; alpha bit in VP8L header
    ok(vp8l_alpha_flag(p("webp-lossless-alpha.webp").read_bytes()), "webp-lossless-alpha: alpha flag not set")
    ok(np.array_equal(np.asarray(im), np.asarray(rgba_alpha())), "webp-lossless-alpha: pixels != png-rgba-alpha")

    # 7. Bad / mislabelled files
    for name in ["bad-truncated.jpg", "bad-truncated.png"]:
        try:
            Image.open(p(name)).load()
            ok(False, f"{name}: loaded completely")
        except Exception:  # OSError "image file is truncated", zlib errors, ...
            pass
    base = p("jpeg-baseline.jpg").read_bytes()
    ok(p("bad-truncated.jpg").read_bytes() == base[: len(base) * 60 // 100], "bad-truncated.jpg: not 60% prefix")
    rgba_png = p("png-rgba-alpha.png").read_bytes()
    cut = p("bad-truncated.png").read_bytes()
    (_, idat_off, idat_len) = next(c for c in png_chunks(rgba_png) if c[0] == b"IDAT")
    ok(rgba_png.startswith(cut) and idat_off < len(cut) < idat_off + idat_len, "bad-truncated.png: not cut inside IDAT")
    im = Image.open(p("bad-truncated.png"))
    ok((im.format, im.size) == ("PNG", (96, 64)), "bad-truncated.png: header unreadable")
    ok(p("bad-zero-bytes.jpg").stat().st_size == 0, "bad-zero-bytes.jpg: not empty")
    ok(p("bad-not-an-image.jpg").read_bytes() == b"This is not a photo.\n", "bad-not-an-image.jpg: content")
    for name in ["bad-zero-bytes.jpg", "bad-not-an-image.jpg"]:
        try:
            Image.open(p(name))
            ok(False, f"{name}: Pillow identified it")
        except Image.UnidentifiedImageError:
            pass
    im = opened("wrong-extension-png-named.jpg")
    same = p("wrong-extension-png-named.jpg").read_bytes() == p("png-palette.png").read_bytes()
    ok(im.format == "PNG" and same, "wrong-extension-png-named.jpg: not a copy of png-palette.png")
    im = opened("wrong-extension-jpeg-named.webp")
    same = p("wrong-extension-jpeg-named.webp").read_bytes() == p("exif-orientation-1.jpg").read_bytes()
    ok(im.format == "JPEG" and same, "wrong-extension-jpeg-named.webp: not a copy of exif-orientation-1.jpg")

    # 8. Scan bombs: byte for byte what progressive_scans.py makes, and libjpeg decodes them (flat grey).
    import progressive_scans

    for name, (width, height, scans, kind, script) in SCAN_BOMB_SHAPES.items():
        made = progressive_scans.make(width, height, scans, kind, script)
        ok(p(name).read_bytes() == made, f"{name}: not what progressive_scans.py makes")
        im = opened(name)
        ok(im.size == (width, height) and im.info.get("progressive") == 1, f"{name}: {im.size}, not progressive")
    im = Image.open(p("bomb-jpeg-scans-1200x2048.jpg"))
    im.draft("RGB", (150, 256))
    ok(np.asarray(im).min() == np.asarray(im).max() == 128, "bomb-jpeg-scans-1200x2048.jpg: not flat grey")

    known = set(ALL_FILES) | {"generate.py", "progressive_scans.py", "README.md"}
    extra = sorted(f.name for f in OUT.iterdir() if f.name not in known)
    ok(not extra, f"unexpected files in TestImages/: {extra}")
    print(f"checked {len(ALL_FILES)} files, {total:,} bytes total")
    return failures


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        errs = check()
        for e in errs:
            print("FAIL:", e)
        print("OK" if not errs else f"{len(errs)} failure(s)")
        sys.exit(1 if errs else 0)
    if "--scans" in sys.argv[1:]:
        generate_scan_bombs()
    elif "--heif" in sys.argv[1:]:
        generate_heif()  # only the heif-enc files, from the files already here
    else:
        generate()
