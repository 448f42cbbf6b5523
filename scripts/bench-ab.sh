#!/bin/sh
# The A/B of docs/performance.md: daphne CPU per accepted command (server_cpu_ms_per_command)
# at 20 tables x 1 command/s, 2 workers, PostgreSQL + Redis — this tree against a base commit
# checked out in another worktree, interleaved base, new, base, new (a loaded machine slows
# both alike), then the ratio. Usage:
#
#   git worktree add --detach ../kernel-base 0dc1b1d
#   DATABASE_URL=postgres://... REDIS_URL=redis://... scripts/bench-ab.sh ../kernel-base [out-dir]
#
# Both trees run with this tree's .venv (PY overrides it; BASE_PY for the base, e.g. the
# base worktree's own .venv), and on DATABASE_URL (BASE_DATABASE_URL for the base; each run
# drops and makes its own <name>_bench database anyway). NEW_WORKTREE (default: this tree)
# names the "new" side — a detached worktree of a commit, so that editing this tree while it
# runs cannot change what is measured. SECONDS_EACH (120), TABLES (20), WORKERS (2) and
# RATE (1) may be set in the environment.
set -eu
base="$(cd "${1:?usage: $0 BASE_WORKTREE [OUT_DIR]}" && pwd)"
here="$(cd "$(dirname "$0")/.." && pwd)"
new="$(cd "${NEW_WORKTREE:-$here}" && pwd)"
out="${2:-$here/bench-ab}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
py="${PY:-$here/.venv/bin/python}"
: "${DATABASE_URL:?set DATABASE_URL (PostgreSQL)}" "${REDIS_URL:?set REDIS_URL (Redis)}"
tables="${TABLES:-20}"
workers="${WORKERS:-2}"
rate="${RATE:-1}"
seconds="${SECONDS_EACH:-120}"
for round in 1 2; do
  for side in base new; do
    tree="$new" python="$py" database="$DATABASE_URL"
    if [ "$side" = base ]; then
      tree="$base" python="${BASE_PY:-$py}" database="${BASE_DATABASE_URL:-$DATABASE_URL}"
    fi
    echo "== $side, run $round ($(uptime))"
    (cd "$tree" && DEBUG=1 DATABASE_URL="$database" "$python" manage.py bench_live --tables "$tables" --rate "$rate" \
      --seconds "$seconds" --workers "$workers" --json "$out/$side-$round.json")
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
