#!/bin/sh
# Vendor a pinned axe-core build into tests/browser/vendor/axe-core-<version>/ for the
# browser tests' accessibility check only (it is never served to a person). Usage:
# scripts/vendor-axe.sh 4.14.1 — then point AXE in tests/browser/accessibility.py at the new
# folder, delete the old one and run the browser tests. Needs npm (the npm registry).
set -eu
version="${1:?usage: $0 VERSION}"
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "axe-core@$version" >/dev/null && tar xzf "axe-core-$version.tgz")
dest="$here/tests/browser/vendor/axe-core-$version"
mkdir -p "$dest"
cp "$work/package/axe.min.js" "$work/package/LICENSE" "$work/package/LICENSE-3RD-PARTY.txt" \
   "$work/package/package.json" "$dest/"
echo "vendored axe-core $version into $dest"
