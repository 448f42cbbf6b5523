#!/bin/sh
# Vendor a pinned Apache ECharts build into static/vendor/echarts-<version>/ (no CDN at run
# time). Usage: scripts/vendor-echarts.sh 6.1.0 — then point ECHARTS in
# cashdesk/charts.py at the new folder, delete the old one, run the browser tests and
# look at test-artifacts/cash-report-*.png. Needs npm (the npm registry).
set -eu
version="${1:?usage: $0 VERSION}"
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent --no-audit --no-fund --ignore-scripts "echarts@$version")
src="$work/node_modules/echarts"
dest="$here/static/vendor/echarts-$version"
mkdir -p "$dest"
# The "common" build: bar/line charts, grid, legend, tooltip, aria and the SVG renderer.
cp "$src/dist/echarts.common.min.js" "$src/LICENSE" "$src/NOTICE" "$dest/"
cp "$src/licenses/LICENSE-d3" "$dest/"
echo "vendored echarts $(node -p "require('$src/package.json').version") into $dest"
