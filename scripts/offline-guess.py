#!/usr/bin/env python3
"""Tries every six-digit management password against the password forms in a copy of a
PetSpot database, with only what the copy holds: the way an attacker with a leaked SQLite file
or pg_dump would. Prints the matches found as ID PASSWORD lines (none is the expected outcome).

Usage: scripts/offline-guess.py DUMP ID... [--key BASE64]

Forms `hmac-sha256$vN$MAC` are tried with the keys a copy offers (none: an empty key, or each
id); `--key` adds a key from outside, so that a test can show the search finds the password
once the key is known. bcrypt hashes (`$2…$`), if any are left, are reported as such: each would
fall to this search in about a core-day.
"""
import base64
import hashlib
import hmac
import re
import struct
import sys


def mac_input(announcement_id, password):
    data = b"petspot-password-v1"
    for field in (announcement_id.encode(), password.encode()):
        data += struct.pack(">I", len(field)) + field
    return data


def main():
    args = sys.argv[1:]
    keys = []
    if "--key" in args:
        at = args.index("--key")
        keys.append(base64.b64decode(args[at + 1]))
        del args[at:at + 2]
    dump_path, ids = args[0], args[1:]
    dump = open(dump_path, "rb").read()
    macs = {base64.b64decode(m) for m in re.findall(rb"hmac-sha256\$v[0-9]+\$([A-Za-z0-9+/]{43}=)", dump)}
    bcrypts = re.findall(rb"\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}", dump)
    for b in bcrypts:
        print(f"bcrypt {b.decode()}")
    for announcement_id in ids:
        candidates = keys or [b"", announcement_id.encode()]
        for key in candidates:
            for n in range(1_000_000):
                password = f"{n:06d}"
                if hmac.new(key, mac_input(announcement_id, password), hashlib.sha256).digest() in macs:
                    print(f"{announcement_id} {password}")


if __name__ == "__main__":
    main()
