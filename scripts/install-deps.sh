#!/usr/bin/env bash
# Installs what building and running PetSpot needs (Debian/Ubuntu): the C libraries it links
# (libcurl for the server's mail among them), the fonts flyers and share cards are set in (Latin,
# Greek, Cyrillic, Arabic, Hebrew, CJK) and the time-zone database the server reads; only what is
# missing. The test suite's engines and tools
# come from scripts/install-test-deps.sh.
set -euo pipefail
"$(dirname "$0")/apt-install-missing.sh" libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev liblcms2-dev libjxl-dev libheif-dev libde265-dev libdav1d-dev zlib1g-dev libsqlite3-dev libedit-dev libcairo2-dev libpango1.0-dev libqrencode-dev libcurl4-openssl-dev fonts-dejavu-core fonts-noto-core fonts-noto-cjk pkg-config tzdata
# The C++ runtime the CLI binaries link in (Package.swift finds `-lstdc++` in scripts/static-cxx
# first): the archive of the GCC installation Swift's clang links against, so its version is the
# one the Swift runtime was built for. Without it the link takes the shared library, as before.
archive=$("$(dirname "$(readlink -f "$(command -v swift)")")/clang" -print-file-name=libstdc++.a 2>/dev/null || true)
here=$(dirname "$0")
if [ -n "$archive" ] && [ -f "$archive" ]; then
  ln -sfn "$archive" "$here/static-cxx/libstdc++.a"
else
  rm -f "$here/static-cxx/libstdc++.a"
fi
