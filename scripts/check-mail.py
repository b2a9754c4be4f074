#!/usr/bin/env python3
"""Reads mail messages with Python's own `email` package and says what a mail program would
find in them, as JSON on standard output (one object per file, in a list):

    check-mail.py FILE.eml...

Each object: "headers" (every field, decoded: name -> list of values), "raw_headers" (the
fields as sent), "content_type", "parts" (each leaf part: type, charset, transfer encoding,
disposition, decoded text), "html_errors" (html5lib's strict parser on the HTML part: empty when
valid), "links" (every href and img src in the HTML), "images" (img src and alt), "text_links"
(URLs in the plain text), "defects" (what the parser found wrong, per part).
"""
import json
import re
import sys
from email import policy
from email.parser import BytesParser
from html.parser import HTMLParser

import html5lib


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.images, self.linked_images = [], [], []
        self.open_link = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
            self.open_link = attrs["href"]
        if tag == "img":
            self.images.append({"src": attrs.get("src"), "alt": attrs.get("alt")})
            self.links.append(attrs.get("src"))
            if self.open_link:
                self.linked_images.append({"href": self.open_link, "src": attrs.get("src")})

    def handle_endtag(self, tag):
        if tag == "a":
            self.open_link = None


def check(path):
    with open(path, "rb") as handle:
        raw = handle.read()
    message = BytesParser(policy=policy.default).parsebytes(raw)
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii", "replace")
    result = {
        "file": path,
        "headers": {},
        "raw_headers": head,
        "content_type": message.get_content_type(),
        "parts": [],
        "defects": [str(defect) for defect in message.defects],
        "html_errors": [],
        "links": [],
        "images": [],
        "linked_images": [],
        "text_links": [],
        "non_ascii_header_bytes": any(byte > 127 for byte in raw.split(b"\r\n\r\n", 1)[0]),
        "longest_line": max(len(line) for line in raw.split(b"\r\n")),
    }
    for name, value in message.items():
        result["headers"].setdefault(name, []).append(str(value))
    for part in message.walk():
        result["defects"] += [str(defect) for defect in part.defects]
        if part.is_multipart():
            continue
        text = part.get_content()
        entry = {
            "type": part.get_content_type(),
            "charset": part.get_content_charset(),
            "transfer_encoding": part.get("Content-Transfer-Encoding"),
            "disposition": part.get_content_disposition(),
            "text": text if isinstance(text, str) else None,
        }
        result["parts"].append(entry)
        if entry["type"] == "text/html":
            parser = html5lib.HTMLParser(strict=True)
            try:
                parser.parse(text)
            except Exception as error:
                result["html_errors"].append(str(error))
            result["html_errors"] += [str(error) for error in parser.errors]
            links = Links()
            links.feed(text)
            result["links"], result["images"], result["linked_images"] = links.links, links.images, links.linked_images
        if entry["type"] == "text/plain":
            result["text_links"] = re.findall(r"https?://[^\s<>\"]+", text)
    return result


if __name__ == "__main__":
    json.dump([check(path) for path in sys.argv[1:]], sys.stdout)
