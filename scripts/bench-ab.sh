#!/bin/sh
# The A/B of docs/performance.md: daphne CPU per accepted command (server_cpu_ms_per_command)
# at 20 tables x 1 command/s, 2 workers, PostgreSQL + Redis — this tree against a base commit
# checked out in another worktree, interleaved base, new, base, new (a loaded machine slows
# both alike), then the ratio. Usage:
#
#   git worktree add --detach ../kernel-base 0dc1b1d
#   DATABASE_URL=postgres://... REDIS_URL=redis://... scripts/bench-ab.sh ../kernel-base [out-dir]
#
# Both trees run with this tree's .venv (the base also needs channels-redis, which this tree
# no longer uses: .venv/bin/pip install 'channels-redis>=4.3,<4.4'). SECONDS_EACH (120) and
# TABLES (20) may be set in the environment.
set -eu
base="$(cd "${1:?usage: $0 BASE_WORKTREE [OUT_DIR]}" && pwd)"
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${2:-$here/bench-ab}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
py="$here/.venv/bin/python"
: "${DATABASE_URL:?set DATABASE_URL (PostgreSQL)}" "${REDIS_URL:?set REDIS_URL (Redis)}"
tables="${TABLES:-20}"
seconds="${SECONDS_EACH:-120}"
for round in 1 2; do
  for side in base new; do
    tree="$here"; [ "$side" = base ] && tree="$base"
    echo "== $side, run $round ($(uptime))"
    (cd "$tree" && DEBUG=1 "$py" manage.py bench_live --tables "$tables" --rate 1 \
      --seconds "$seconds" --workers 2 --json "$out/$side-$round.json")
  done
done
"$py" - "$out" <<'PY'
import json, pathlib, statistics, sys
out = pathlib.Path(sys.argv[1])
runs = {s: [json.loads((out / f"{s}-{n}.json").read_text()) for n in (1, 2)] for s in ("base", "new")}
for side, rs in runs.items():
    cpu = [r["server_cpu_ms_per_command"] for r in rs]
    print(side, "server_cpu_ms_per_command", cpu, "load", [r.get("load_average") for r in rs])
base = statistics.mean(r["server_cpu_ms_per_command"] for r in runs["base"])
new = statistics.mean(r["server_cpu_ms_per_command"] for r in runs["new"])
print(f"new / base = {new:.2f} / {base:.2f} = {new / base:.3f} (target <= 0.333)")
PY
