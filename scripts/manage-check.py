#!/usr/bin/env python3
"""Drives an owner's round on a report's manage page in headless Chromium at 390 x 844, and reports what happened.

    PETSPOT_PASSWORD=DIGITS scripts/manage-check.py BASE_URL --id ID --out DIR [--report FILE]

(the management password from the environment, as `petspot` takes it: never on a command line)

1. /pets/ID: "Manage this report" followed; the sign-in page: axe-core, screenshot;
2. the password typed into the question labelled "Management password", "Sign in" pressed: the
   manage page (the session cookie as Chromium holds it, axe-core, screenshots at 390 and 1280);
3. "Our pet is home" pressed: the page in its new state and what it says;
4. "Sign out" pressed: the sign-in page again, and the session cookie gone from the browser.

The server's own HTML of the sign-in page, the manage page and the closed page go through the
Nu HTML Checker with their style sheets. Reuses scripts/report-form-check.py's page driver
(Page: DevTools over Chromium's pipe, axe-core from axe-selenium-python, vnu). Prints one JSON
object, or writes it to --report.
"""
import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("report_form_check", os.path.join(HERE, "report-form-check.py"))
forms = importlib.util.module_from_spec(spec)
spec.loader.exec_module(forms)

# What the page shows of the session: its status line, the banner, the buttons.
STATE = """JSON.stringify({
  path: location.pathname + location.search, title: document.title,
  heading: (document.querySelector('h1') || {}).textContent || '',
  banner: (document.querySelector('.banner p') || {}).textContent || '',
  notice: (document.querySelector('.notice') || {}).textContent || '',
  buttons: Array.from(document.querySelectorAll('button')).map(function (b) { return b.textContent.trim(); }),
  breed: (document.getElementById('breed') || {}).value || null,
  password_inputs: document.querySelectorAll('input[type=password]').length,
  scroll_width: document.documentElement.scrollWidth, width: window.innerWidth})"""


def press(page, text):
    """Clicks the button whose text is `text` and waits for the page that answers."""
    page.browser.events.clear()
    page.evaluate("Array.from(document.querySelectorAll('button')).find(function (b) { return b.textContent.trim() === "
                  + json.dumps(text) + "; }).click()")
    page.wait_load(f"the answer to {text!r}")


def session_cookie(page):
    cookies = page.send("Network.getCookies").get("cookies", [])
    found = [c for c in cookies if c["name"] == "petspot_owner"]
    return {k: found[0].get(k) for k in ("path", "httpOnly", "sameSite", "secure", "expires")} if found else None


def run(args):
    os.makedirs(args.out, exist_ok=True)
    base = args.base.rstrip("/")
    axe = forms.axe_source()
    report = {"axe": {}, "screenshots": [], "html": {}, "steps": {}}
    browser = forms.browser_check.Chromium()
    try:
        # Chromium answers once it has started: seconds on a quiet machine, a minute or more
        # while the rest of the test suite keeps both cores busy.
        browser.send("Browser.getVersion", timeout=120)
        page = forms.Page(browser, 390, 844)

        page.navigate(f"{base}/pets/{args.id}")
        page.browser.events.clear()
        page.evaluate("document.querySelector('a[href$=\"/manage\"]').click()")
        page.wait_load("the sign-in page")
        report["steps"]["sign_in_page"] = json.loads(page.evaluate(STATE))
        report["html"]["sign-in"] = page.document_html()
        report["axe"]["sign-in"] = page.axe(axe)
        report["screenshots"] += page.screenshot(os.path.join(args.out, "sign-in"), [390])

        page.evaluate(f"__fill('Management password', {json.dumps(os.environ['PETSPOT_PASSWORD'])})")
        press(page, "Sign in")
        report["steps"]["signed_in"] = json.loads(page.evaluate(STATE))
        report["steps"]["cookie_signed_in"] = session_cookie(page)
        report["html"]["manage"] = page.document_html()
        report["axe"]["manage"] = page.axe(axe)
        report["screenshots"] += page.screenshot(os.path.join(args.out, "manage"), [390, 1280])

        press(page, "Our pet is home")
        report["steps"]["reunited"] = json.loads(page.evaluate(STATE))
        report["html"]["reunited"] = page.document_html()
        report["axe"]["reunited"] = page.axe(axe)
        report["screenshots"] += page.screenshot(os.path.join(args.out, "reunited"), [390])

        press(page, "Sign out")
        report["steps"]["signed_out"] = json.loads(page.evaluate(STATE))
        report["steps"]["cookie_signed_out"] = session_cookie(page)
        report["errors"] = page.errors
        browser.send("Target.closeTarget", {"targetId": page.target})
    finally:
        browser.close()
    report["nu_errors"] = forms.nu_check(report["html"], base)
    for state in list(report["html"]):
        report["html"][state] = len(report["html"][state])
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--id", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--report", help="write the JSON report here instead of standard output")
    args = parser.parse_args()
    report = json.dumps(run(args), indent=1)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as handle:
            handle.write(report)
    else:
        print(report)


if __name__ == "__main__":
    sys.exit(main())
