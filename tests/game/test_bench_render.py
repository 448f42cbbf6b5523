"""``manage.py bench_render`` (benchmarks/) runs from a clean environment and prints its
figures — for each set of screens, the CPU per message with the shared part rendered once and
with every kind rendered whole. Its figures are recorded in docs/performance.md, never
asserted."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_render_benchmark_runs_in_its_own_database_and_prints_its_figures():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DEBUG"] = "1"
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_render", "--repeat", "1", "--trials", "1", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(figures) == {"dealer", "crew", "crew+tile"}
    for row in figures.values():
        assert row["shared_ms"] > 0 and row["whole_ms"] > 0
