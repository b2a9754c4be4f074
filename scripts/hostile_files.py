#!/usr/bin/env python3
"""Hostile photos for scripts/attack-hostile.py, made here without any codec but for one small HEVC
tile (pillow_heif) and Pillow's JPEG writer:

- HEICs built from one 64×64 HEVC tile: a grid naming that tile 4096 times, a grid of 4096 tile
  items all pointing at the same bytes, and a single image whose `ispe` says 8×8;
- a JPEG the server would keep as prepared (JFIF and a colour profile only) whose profile is
  Display P3 with text in a private tag padded to 1 MiB, and whose JFIF header holds a thumbnail
  of other pixels;
- the costliest progressive JPEG the scan-cost check accepts: 8192×6100 4:4:4, a DC scan and nine
  refinement scans of end-of-band runs (17.5 of the 18 units a block allowed).

    python3 scripts/hostile_files.py OUTDIR    # writes them all, for a look or a manual upload
"""
import io
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages"))
import progressive_scans  # noqa: E402

SECRET = b"GPS 52.2297,21.0122 the owner's home"


# ------------------------------------------------------------------------------------------
# ISO-BMFF
# ------------------------------------------------------------------------------------------

def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, version, flags, payload):
    return box(kind, bytes([version]) + flags.to_bytes(3, "big") + payload)


def children(data, start=0, end=None):
    """(kind, payload start, payload end) of the boxes in data[start:end]."""
    end = len(data) if end is None else end
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[start + 8:start + 16])[0], 16
        elif size == 0:
            size = end - start
        yield kind, start + header, start + size
        start += size


def find(data, path, start=0, end=None):
    for kind, body, stop in children(data, start, end):
        if kind == path[0]:
            if len(path) == 1:
                return body, stop
            inner = body + (4 if kind in (b"meta", b"iinf", b"iref") else 0)
            return find(data, path[1:], inner, stop)
    return None


def one_tile():
    """(hvcC box, coded tile) of a 64×64 HEIC pillow_heif writes."""
    import pillow_heif
    from PIL import Image
    pillow_heif.register_heif_opener()
    picture = Image.new("RGB", (64, 64), (200, 120, 40))
    buffer = io.BytesIO()
    picture.save(buffer, format="HEIF", quality=50)
    data = buffer.getvalue()
    body, stop = find(data, [b"meta", b"iprp", b"ipco"])
    hvcc = next(data[b - 8:e] for k, b, e in children(data, body, stop) if k == b"hvcC")
    body, stop = find(data, [b"meta", b"iloc"])
    version = data[body]
    offset_size, length_size = data[body + 4] >> 4, data[body + 4] & 15
    base_size = data[body + 5] >> 4
    position = body + 6
    count = struct.unpack(">H", data[position:position + 2])[0]
    position += 2
    assert count >= 1 and version in (0, 1)
    position += 2 + (2 if version == 1 else 0) + 2 + base_size   # item id, construction method, data ref, base offset
    extents = struct.unpack(">H", data[position:position + 2])[0]
    position += 2
    assert extents == 1
    offset = int.from_bytes(data[position:position + offset_size], "big")
    length = int.from_bytes(data[position + offset_size:position + offset_size + length_size], "big")
    return hvcc, data[offset:offset + length]


def heic(items, primary, properties, associations, references, payloads):
    """A HEIC: `items` [(id, type)], property boxes, {id: [property indexes (1-based)]},
    {from: [to]} dimg references, {id: bytes} stored in mdat."""
    ftyp = box(b"ftyp", b"heic" + b"\0\0\0\0" + b"mif1heic")
    hdlr = full_box(b"hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", primary))
    infe = b"".join(full_box(b"infe", 2, 0, struct.pack(">HH", item, 0) + kind + b"\0") for item, kind in items)
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", len(items)) + infe)
    iref = full_box(b"iref", 0, 0, b"".join(
        box(b"dimg", struct.pack(">HH", source, len(targets)) + b"".join(struct.pack(">H", t) for t in targets))
        for source, targets in references.items())) if references else b""
    ipco = box(b"ipco", b"".join(properties))
    ipma = full_box(b"ipma", 0, 0, struct.pack(">I", len(associations)) + b"".join(
        struct.pack(">HB", item, len(indexes)) + bytes(0x80 | index for index in indexes)
        for item, indexes in associations.items()))
    iprp = box(b"iprp", ipco + ipma)

    def build(mdat_offset):
        # iloc v0: offset and length 4 bytes, no base offset; equal payloads are stored once.
        placed, data, entries = {}, b"", b""
        for item, payload in payloads.items():
            if payload not in placed:
                placed[payload] = mdat_offset + 8 + len(data)
                data += payload
            entries += struct.pack(">HHHII", item, 0, 1, placed[payload], len(payload))
        iloc = full_box(b"iloc", 0, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(payloads)) + entries)
        meta = full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp)
        return meta, box(b"mdat", data)
    meta, _ = build(0)
    meta, mdat = build(len(ftyp) + len(meta))
    return ftyp + meta + mdat


def ispe(width, height):
    return full_box(b"ispe", 0, 0, struct.pack(">II", width, height))


def grid_payload(rows, columns, width, height):
    return bytes([0, 0, rows - 1, columns - 1]) + struct.pack(">HH", width, height)


def heif_bombs():
    """name → bytes."""
    hvcc, tile = one_tile()
    side = 64
    tiles = list(range(2, 2 + side * side))
    grid = grid_payload(side, side, 64 * side, 64 * side)
    properties = [hvcc, ispe(64, 64), ispe(64 * side, 64 * side)]
    same_tile = heic([(1, b"grid"), (2, b"hvc1")], 1, properties, {1: [3], 2: [1, 2]}, {1: [2] * (side * side)},
                     {1: grid, 2: tile})
    shared = heic([(1, b"grid")] + [(t, b"hvc1") for t in tiles], 1, properties,
                  {1: [3], **{t: [1, 2] for t in tiles}}, {1: tiles}, {1: grid, **{t: tile for t in tiles}})
    lying = heic([(1, b"hvc1")], 1, [hvcc, ispe(8, 8)], {1: [1, 2]}, {}, {1: tile})
    return {"grid-one-tile-4096-times.heic": same_tile, "grid-4096-items-one-tile.heic": shared,
            "ispe-8x8-for-64x64.heic": lying}


# ------------------------------------------------------------------------------------------
# JPEG
# ------------------------------------------------------------------------------------------

def icc_profile(padding):
    """Display P3 (matrix/TRC, v2) with a private 'zzzz' tag of SECRET and `padding` spaces."""
    def s15(value):
        return struct.pack(">i", round(value * 65536))

    def xyz(values):
        return b"XYZ \0\0\0\0" + b"".join(s15(v) for v in values)
    curve = b"para\0\0\0\0\0\x03\0\0" + b"".join(s15(v) for v in [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
    tags = [(b"desc", b"desc\0\0\0\0" + struct.pack(">I", 11) + b"Display P3\0" + b"\0" * 78),
            (b"wtpt", xyz([0.9642, 1, 0.8249])), (b"rXYZ", xyz([0.5151, 0.2412, -0.0011])),
            (b"gXYZ", xyz([0.2920, 0.6922, 0.0419])), (b"bXYZ", xyz([0.1571, 0.0666, 0.7841])),
            (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve), (b"zzzz", b"text\0\0\0\0" + SECRET + b" " * padding + b"\0")]
    header = bytearray(128)
    header[8:12] = b"\x02\x10\0\0"
    header[12:24] = b"mntrRGB XYZ "
    header[36:40] = b"acsp"
    header[68:80] = b"\0\0\xf6\xd6\0\x01\0\0\0\0\xd3\x2d"
    table, data = struct.pack(">I", len(tags)), b""
    start = 128 + 4 + 12 * len(tags)
    for signature, content in tags:
        table += signature + struct.pack(">II", start + len(data), len(content))
        data += content + b"\0" * (-len(content) % 4)
    profile = bytes(header) + table + data
    return struct.pack(">I", len(profile)) + profile[4:]


def hostile_icc_jpeg():
    """A 1024×768 JPEG, JFIF and ICC only, the profile ~1 MiB of Display P3 and text, the JFIF
    header carrying a 16×16 thumbnail whose bytes spell THUMBNAIL."""
    from PIL import Image
    picture = Image.radial_gradient("L").resize((1024, 768)).convert("RGB")
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", quality=85, icc_profile=icc_profile((1 << 20) - 4096))
    data = buffer.getvalue()
    assert data[2:4] == b"\xff\xe0"
    end = 4 + struct.unpack(">H", data[4:6])[0]
    thumbnail = (b"THUMBNAIL" * 86)[:16 * 16 * 3]
    payload = b"JFIF\0\x01\x01\0\0\x01\0\x01" + bytes([16, 16]) + thumbnail
    return data[:2] + b"\xff\xe0" + struct.pack(">H", len(payload) + 2) + payload + data[end:]


def costliest_accepted_jpeg():
    return progressive_scans.make(8192, 6100, 9, "refine")


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    files = {**heif_bombs(), "icc-1mib-with-text-and-thumbnail.jpg": hostile_icc_jpeg(),
             "costliest-accepted-8192x6100.jpg": costliest_accepted_jpeg()}
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as file:
            file.write(data)
        print(f"{len(data):>9}  {name}")
