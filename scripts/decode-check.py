#!/usr/bin/env python3
"""Decodes JPEG files in Pillow and in headless Chromium and checks both see the same picture.

    scripts/decode-check.py FILE.jpg[=REFERENCE.png] [FILE.jpg[=REFERENCE.png]…]

For every file: Pillow decodes it whole (its libjpeg-turbo, fancy upsampling), and Chromium
loads it in a page of its own (a data: URL), draws it on a canvas and hands back the mean colour
of every 16 × 16 square through the DevTools protocol (scripts/browser-check.py's Chromium). Each
file must decode in both at the size its header declares, and the squares must agree: within a
mean of 1 level, none more than 8 apart (decoders round a little differently; a damaged or
misplaced block moves a square by far more). With a reference (another decoder's pixels, e.g.
PetSpot's own), both must agree with it in the same way. Prints one JSON object and exits 1 when
any file fails, 2 when Chromium cannot be started.
"""
import base64
import importlib.util
import io
import json
import os
import sys
import time

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("browser_check", os.path.join(HERE, "browser-check.py"))
browser_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(browser_check)

TILE = 16

# The decoded picture's mean colour in each TILE × TILE square (partial squares at the right and
# bottom edges averaged over what they hold), drawn from the page's image onto a canvas.
TILES_JS = """(() => {
  const img = document.images[0];
  if (!img || !img.complete) return JSON.stringify({pending: true});
  if (img.naturalWidth === 0) return JSON.stringify({error: 'not decoded'});
  const w = img.naturalWidth, h = img.naturalHeight, t = %d;
  const canvas = document.createElement('canvas');
  canvas.width = w; canvas.height = h;
  const context = canvas.getContext('2d', {colorSpace: 'srgb'});
  context.drawImage(img, 0, 0);
  const data = context.getImageData(0, 0, w, h).data;
  const columns = Math.ceil(w / t), rows = Math.ceil(h / t);
  const sums = new Float64Array(columns * rows * 3), counts = new Float64Array(columns * rows);
  for (let y = 0; y < h; y++) {
    const row = Math.floor(y / t) * columns;
    for (let x = 0; x < w; x++) {
      const tile = row + Math.floor(x / t), i = (y * w + x) * 4;
      sums[3 * tile] += data[i]; sums[3 * tile + 1] += data[i + 1]; sums[3 * tile + 2] += data[i + 2];
      counts[tile]++;
    }
  }
  const means = Array.from(sums, (s, i) => s / counts[Math.floor(i / 3)]);
  return JSON.stringify({width: w, height: h, means: means});
})()""" % TILE


def chromium_tiles(browser, path):
    """Chromium's decode of `path` as tile means, or (None, why)."""
    with open(path, "rb") as handle:
        data = base64.b64encode(handle.read()).decode()
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    browser.send("Page.enable", session=session)
    frame = browser.send("Page.getFrameTree", session=session)["frameTree"]["frame"]["id"]
    browser.send("Page.setDocumentContent",
                 {"frameId": frame, "html": f'<!doctype html><img src="data:image/jpeg;base64,{data}">'}, session=session)
    deadline = time.monotonic() + 30
    while True:
        result = json.loads(browser.send("Runtime.evaluate", {"expression": TILES_JS, "returnByValue": True},
                                         session=session)["result"]["value"])
        if not result.get("pending"):
            break
        if time.monotonic() > deadline:
            result = {"error": "the image did not load in 30 s"}
            break
        browser.pump(0.05)
    browser.send("Target.closeTarget", {"targetId": target})
    if "error" in result:
        return None, result["error"]
    return result, None


def pillow_tiles(image):
    """A decoded picture's tile means, as TILES_JS computes them."""
    return [float(v) for v in image.reduce(TILE).tobytes()]


def agree(a, b):
    """Mean and largest difference of two lists of tile means, and whether they agree."""
    differences = [abs(x - y) for x, y in zip(a, b)]
    mean, largest = sum(differences) / len(differences), max(differences)
    return round(mean, 3), round(largest, 3), mean <= 1 and largest <= 8


def main():
    files = sys.argv[1:]
    if not files:
        sys.exit(__doc__)
    try:
        browser = browser_check.Chromium()
    except Exception as error:
        print(json.dumps({"error": f"Chromium could not be started: {error}"}))
        sys.exit(2)
    failures = 0
    results = []
    try:
        for argument in files:
            path, _, reference = argument.partition("=")
            entry = {"file": path}
            try:
                with Image.open(path) as image:
                    image.load()
                    pillow = image.convert("RGB")
                entry["pillow"] = list(pillow.size)
                chromium, problem = chromium_tiles(browser, path)
                if chromium is None:
                    entry["error"] = f"Chromium: {problem}"
                elif [chromium["width"], chromium["height"]] != entry["pillow"]:
                    entry["error"] = f"Chromium decodes {chromium['width']}×{chromium['height']}, Pillow {pillow.size}"
                else:
                    tiles = pillow_tiles(pillow)
                    mean, largest, same = agree(tiles, chromium["means"])
                    entry["chromium_vs_pillow"] = [mean, largest]
                    if not same:
                        entry["error"] = "Chromium's picture differs from Pillow's"
                    if reference:
                        with Image.open(reference) as image:
                            expected = image.convert("RGB")
                        if expected.size != pillow.size:
                            entry["error"] = f"the reference is {expected.size}, Pillow decodes {pillow.size}"
                        else:
                            mean, largest, same = agree(tiles, pillow_tiles(expected))
                            entry["pillow_vs_reference"] = [mean, largest]
                            if not same:
                                entry["error"] = "Pillow's picture differs from the reference"
            except Exception as error:  # a file that does not decode is a failure of that file
                entry["error"] = str(error)
            if "error" in entry:
                failures += 1
            results.append(entry)
    finally:
        browser.close()
    print(json.dumps({"files": results, "failures": failures}))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
