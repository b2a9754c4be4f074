#!/usr/bin/env python3
"""Progressive JPEGs as real encoders write them, for the scan-cost tests: libjpeg-turbo's cjpeg
(its standard script, as Pillow and libvips without mozjpeg write it) and mozjpeg through libvips
(pyvips-binary's libvips is built with mozjpeg: `optimize_scans` picks the scans, `trellis_quant`
as its max-compression profile does), each 4:2:0, 4:4:4 and grey, from TestImages/sample-photo.jpg
at 320×240.

    python3 Tests/PhotoPipelineTests/Fixtures/progressive/make.py   # needs cjpeg (libjpeg-turbo-progs) and pyvips-binary

jpegli is not here: PyPI's pyjpegli writes baseline files only.
"""
import subprocess
import tempfile
from pathlib import Path

import pyvips
from PIL import Image

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[3] / "TestImages" / "sample-photo.jpg"


def main():
    picture = Image.open(SOURCE).convert("RGB").resize((320, 240), Image.LANCZOS)
    with tempfile.TemporaryDirectory() as scratch:
        ppm, pgm = Path(scratch) / "in.ppm", Path(scratch) / "in.pgm"
        picture.save(ppm)
        picture.convert("L").save(pgm)
        png, grey_png = Path(scratch) / "in.png", Path(scratch) / "grey.png"
        picture.save(png)
        picture.convert("L").save(grey_png)
        for name, source, options in [("cjpeg-420", ppm, []), ("cjpeg-444", ppm, ["-sample", "1x1"]),
                                      ("cjpeg-grey", pgm, [])]:
            output = subprocess.run(["cjpeg", "-progressive", "-quality", "85", *options, str(source)],
                                    check=True, capture_output=True).stdout
            (HERE / f"{name}.jpg").write_bytes(output)
        for name, source, subsample in [("mozjpeg-420", png, "on"), ("mozjpeg-444", png, "off"), ("mozjpeg-grey", grey_png, "auto")]:
            image = pyvips.Image.new_from_file(str(source))
            image.jpegsave(str(HERE / f"{name}.jpg"), Q=85, interlace=True, optimize_coding=True, trellis_quant=True,
                           overshoot_deringing=True, optimize_scans=True, subsample_mode=subsample, keep="none")
            plain = HERE / f"{name.replace('mozjpeg', 'mozjpeg-plain')}.jpg"
            image.jpegsave(str(plain), Q=85, interlace=True, subsample_mode=subsample, keep="none")
    for path in sorted(HERE.glob("*.jpg")):
        print(f"{path.stat().st_size:>7}  {path.name}")


if __name__ == "__main__":
    main()
