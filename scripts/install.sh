#!/usr/bin/env bash
# Installs PetSpot from the release build (`swift build -c release`, the README's first line):
#   PREFIX/bin/petspot                     the CLI (runs photo inspect/prepare itself)
#   PREFIX/libexec/petspot/petspot-full    every other petspot command (petspot execs it)
#   PREFIX/bin/petspot-server              the server
#   PREFIX/share/man/man1/petspot.1, petspot-server.1
#   bash, zsh and fish completions under PREFIX/share
# Running it again upgrades in place: each file is copied beside its target and renamed over it,
# so a petspot running meanwhile keeps its old binary and the next start gets the new one.
#
# Usage: scripts/install.sh [--prefix DIR] [--build-dir DIR]   (defaults: /usr/local, .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
build=.build/release
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --build-dir) build=${2:?--build-dir needs a folder}; shift 2 ;;
    --build-dir=*) build=${1#--build-dir=}; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
for binary in petspot petspot-full petspot-server; do
  if [ ! -x "$build/$binary" ]; then
    echo "install.sh: $build/$binary is missing; build first: swift build -c release" >&2
    exit 66
  fi
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac

# put SOURCE TARGET MODE: copy next to TARGET, then rename over it (atomic on one file system).
put() {
  local target=$2
  mkdir -p "$(dirname "$target")"
  local temporary
  temporary=$(mktemp "$(dirname "$target")/.install.XXXXXX")
  cat "$1" > "$temporary"
  chmod "$3" "$temporary"
  mv -f "$temporary" "$target"
}

# generated FILE COMMAND...: the command's output into FILE, through put.
generated() {
  local target=$1
  shift
  local scratch
  scratch=$(mktemp)
  "$@" > "$scratch"
  put "$scratch" "$target" 0644
  rm -f "$scratch"
}

put "$build/petspot-full" "$prefix/libexec/petspot/petspot-full" 0755
put "$build/petspot" "$prefix/bin/petspot" 0755
put "$build/petspot-server" "$prefix/bin/petspot-server" 0755

petspot="$prefix/bin/petspot"
generated "$prefix/share/bash-completion/completions/petspot" "$petspot" --generate-completion-script bash
generated "$prefix/share/zsh/site-functions/_petspot" "$petspot" --generate-completion-script zsh
generated "$prefix/share/fish/vendor_completions.d/petspot.fish" "$petspot" --generate-completion-script fish
generated "$prefix/share/man/man1/petspot.1" python3 scripts/man-page.py "$petspot"
generated "$prefix/share/man/man1/petspot-server.1" python3 scripts/man-page.py "$prefix/bin/petspot-server"

echo "Installed PetSpot $("$petspot" --version) into $prefix:"
echo "  $prefix/bin/petspot, $prefix/bin/petspot-server, $prefix/libexec/petspot/petspot-full,"
echo "  man pages (man petspot) and bash, zsh and fish completions."
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "Add $prefix/bin to PATH to run petspot by name." ;;
esac
