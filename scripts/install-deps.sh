#!/usr/bin/env bash
# Installs the C libraries PetSpot links (Debian/Ubuntu), only when one is missing.
set -euo pipefail
packages=(libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev zlib1g-dev libsqlite3-dev pkg-config)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
