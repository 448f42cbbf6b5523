#!/bin/sh
# Vendor a pinned idiomorph build into static/vendor/idiomorph-<version>/ (no CDN at run
# time): the DOM morphing the live screens swap with (static/js/feed.js registers it as the
# htmx "morph" swap style). Usage: scripts/vendor-idiomorph.sh 0.7.3 — then point the
# templates that load it (grep idiomorph templates/) at the new folder, delete the old one
# and run the browser tests. Needs npm (the npm registry).
set -eu
version="${1:?usage: $0 VERSION}"
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "idiomorph@$version" >/dev/null && tar xzf "idiomorph-$version.tgz")
dest="$here/static/vendor/idiomorph-$version"
mkdir -p "$dest"
cp "$work/package/dist/idiomorph.min.js" "$work/package/LICENSE" "$dest/"
echo "vendored idiomorph $version into $dest"
