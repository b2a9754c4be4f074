#!/usr/bin/env python3
"""Hand-made progressive JPEGs whose scans cost the decoder far more than their bytes.

A flat grey picture coded as one DC scan (a bit per block) followed by as many AC scans as asked,
each nothing but end-of-band runs: a scan of a whole component costs a few dozen bytes however
large the picture, but the decoder still visits every block of the component in it. libjpeg-turbo
warns about the repeated bands ("bogus progression") and decodes on.

    python3 TestImages/progressive_scans.py OUT.jpg --width 8192 --height 6100 --scans 463
    python3 TestImages/progressive_scans.py OUT.jpg --width 1200 --height 2048 --scans 463 --kind refine
    python3 TestImages/progressive_scans.py OUT.jpg --width 4000 --height 3000 --script valid

`--kind first` repeats first AC scans (Ah = 0), `refine` repeats refinement scans (Ah = 1, Al = 0;
libjpeg checks every coefficient of the band in each block for a correction bit), and `--script
valid` writes a legal progression instead of repeats: every coefficient of every component on its
own, refined bit by bit from Al = 13 (each band and bit coded once, and still thousands of scans).
`TestImages/generate.py` makes the test files with it; deterministic, no dependencies.
"""
import argparse
import struct
import sys


class BitWriter:
    """Entropy-coded bytes: most significant bit first, 0xFF followed by a stuffed 0x00, padded with 1s."""

    def __init__(self):
        self.out = bytearray()
        self.value = 0
        self.bits = 0

    def write(self, code, length):
        for shift in range(length - 1, -1, -1):
            self.value = (self.value << 1) | ((code >> shift) & 1)
            self.bits += 1
            if self.bits == 8:
                self.out.append(self.value)
                if self.value == 0xFF:
                    self.out.append(0)
                self.value = 0
                self.bits = 0

    def zeros(self, count):
        """`count` zero bits, quickly (the DC scan of a large picture is millions of them)."""
        while count and self.bits:
            self.write(0, 1)
            count -= 1
        self.out += bytes(count // 8)
        for _ in range(count % 8):
            self.write(0, 1)

    def finish(self):
        if self.bits:
            self.write((1 << (8 - self.bits)) - 1, 8 - self.bits)
        return bytes(self.out)


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def huffman_table(table_class, table_id, symbols_by_length):
    counts = bytes(len(symbols_by_length.get(length, [])) for length in range(1, 17))
    symbols = bytes(s for length in range(1, 17) for s in symbols_by_length.get(length, []))
    return segment(0xC4, bytes([(table_class << 4) | table_id]) + counts + symbols)


# DC: one symbol (category 0, a difference of 0), code "0". AC: the 15 end-of-band-run symbols
# EOB0 … EOB14 (0x00, 0x10, …, 0xE0), four bits each, canonical codes 0000 … 1110.
EOB_SYMBOLS = [r << 4 for r in range(15)]
EOB_CODES = {symbol: index for index, symbol in enumerate(EOB_SYMBOLS)}


def eob_runs(writer, blocks):
    """End-of-band runs covering `blocks` blocks: EOBn says 2^n + n extra bits blocks, at most 32767."""
    while blocks:
        run = min(blocks, 32767)
        n = run.bit_length() - 1
        writer.write(EOB_CODES[n << 4], 4)
        if n:
            writer.write(run - (1 << n), n)
        blocks -= run


def scan_header(components, ss, se, ah, al):
    body = bytes([len(components)])
    for component in components:
        body += bytes([component + 1, 0x00])  # DC table 0, AC table 0
    return segment(0xDA, body + bytes([ss, se, (ah << 4) | al]))


def make(width, height, scans, kind="first", script="repeat", components=3):
    """The file's bytes: SOI, tables, a 4:4:4 (or grey) progressive frame, the DC scan, the AC scans, EOI."""
    blocks_wide, blocks_high = (width + 7) // 8, (height + 7) // 8
    blocks = blocks_wide * blocks_high
    out = bytearray(b"\xff\xd8")
    out += segment(0xDB, bytes([0]) + bytes([1] * 64))
    frame = struct.pack(">BHHB", 8, height, width, components)
    for component in range(components):
        frame += bytes([component + 1, 0x11, 0])
    out += segment(0xC2, frame)
    out += huffman_table(0, 0, {1: [0]})
    out += huffman_table(1, 0, {4: EOB_SYMBOLS})
    # The DC scan of every component at once (interleaved): one "0" per block.
    out += scan_header(list(range(components)), 0, 0, 0, 0)
    writer = BitWriter()
    writer.zeros(blocks * components)
    out += writer.finish()
    for ss, se, ah, al, component in ac_scans(scans, kind, script, components):
        out += scan_header([component], ss, se, ah, al)
        writer = BitWriter()
        eob_runs(writer, blocks)
        out += writer.finish()
    out += b"\xff\xd9"
    return bytes(out)


def ac_scans(scans, kind, script, components):
    """(Ss, Se, Ah, Al, component) of each AC scan."""
    if script == "valid":
        result = []
        for component in range(components):
            for k in range(1, 64):
                result.append((k, k, 0, 13, component))
                result += [(k, k, bit + 1, bit, component) for bit in range(12, -1, -1)]
        return result[:scans] if scans else result
    ah, al = (1, 0) if kind == "refine" else (0, 0)
    return [(1, 63, ah, al, index % components) for index in range(scans)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--width", type=int, default=8192)
    parser.add_argument("--height", type=int, default=6100)
    parser.add_argument("--scans", type=int, default=463, help="AC scans after the DC scan (0 with --script valid: all)")
    parser.add_argument("--kind", choices=["first", "refine"], default="first")
    parser.add_argument("--script", choices=["repeat", "valid"], default="repeat")
    parser.add_argument("--grey", action="store_true", help="one component instead of three")
    arguments = parser.parse_args()
    data = make(arguments.width, arguments.height, arguments.scans, arguments.kind, arguments.script,
                1 if arguments.grey else 3)
    with open(arguments.output, "wb") as file:
        file.write(data)
    print(f"{arguments.output}: {len(data)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
