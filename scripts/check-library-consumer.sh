#!/usr/bin/env bash
# Another package depending on this one's PhotoPipeline product by a version tag, as a stranger
# would: a throwaway clone of this repository's HEAD, tagged, and a package in a temporary folder
# that depends on it by that tag, built with plain `swift build` (no flags) and run on the sample
# photo. Fails if SwiftPM refuses the dependency (unsafe build flags, say), if it does not build,
# or if the photo it prepares is not a 1024 px JPEG.
#   scripts/check-library-consumer.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks "$root" "$work/petspot"
git -C "$work/petspot" -c user.name=check -c user.email=check@localhost tag -a 1.0.0 -m "consumer check" HEAD

mkdir -p "$work/consumer/Sources/Thumbnail"
cat > "$work/consumer/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(url: "file://$work/petspot", exact: "1.0.0")],
    targets: [
        .executableTarget(name: "Thumbnail", dependencies: [.product(name: "PhotoPipeline", package: "petspot")]),
    ]
)
MANIFEST
# The example a consumer starts from (Sources/PhotoPipeline/PhotoPipeline.docc/PhotoPipeline.md).
cat > "$work/consumer/Sources/Thumbnail/main.swift" <<'SWIFT'
import PhotoPipeline

let photo = try PhotoPipeline.prepare(contentsOf: CommandLine.arguments[1], options: PrepareOptions(maxDimension: 1024))
print(photo.size, photo.format, photo.byteCount, photo.data.prefix(2) == [0xFF, 0xD8] ? "starts-with-SOI" : "not-a-jpeg")
SWIFT

cd "$work/consumer"
# As a stranger builds it: without the variable our own test builds set (Package.swift).
env -u PETSPOT_OPTIMIZED_DEBUG swift build 2>&1 | tail -n 5
output=$(.build/debug/Thumbnail "$root/TestImages/sample-photo.jpg")
echo "consumer prepared: $output"
case "$output" in
  *"jpeg"*"starts-with-SOI") ;;
  *) echo "check-library-consumer: unexpected output" >&2; exit 1 ;;
esac
read -r size _ <<<"$output"
width=${size%%×*}
height=${size##*×}
if [ "$width" -ne 1024 ] && [ "$height" -ne 1024 ]; then
  echo "check-library-consumer: the long edge is not 1024 px ($size)" >&2
  exit 1
fi
echo "check-library-consumer: ok"
