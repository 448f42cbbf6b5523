"""bench_live on a tiny floor (1 table, 1 worker, a few seconds): it runs end to end over
real daphne workers and sockets and writes the figures it promises. Nothing is timed: the
figures are only checked to be there, and nothing to be lost or out of order."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from benchmarks.management.commands.bench_live import JSON_KEYS

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.services,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="bench_live needs Redis"),
]

KEYS = set(JSON_KEYS)


def test_bench_live_on_one_table_writes_every_figure_and_loses_nothing(tmp_path: Path):
    out = tmp_path / "live.json"
    subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [
            sys.executable,
            "manage.py",
            "bench_live",
            "--tables",
            "1",
            "--rate",
            "1",
            "--seconds",
            "5",
            "--workers",
            "1",
            "--json",
            str(out),
        ],
        cwd=settings.BASE_DIR,
        # as a person runs it: DEBUG on, no key in the environment (the workers, run with
        # DEBUG off, get the chains' key from this process)
        env={**{k: v for k, v in os.environ.items() if not k.startswith("AUDIT_")}, "DEBUG": "1"},
        check=True,
        capture_output=True,
        timeout=300,
    )
    figures = json.loads(out.read_text())
    assert KEYS <= set(figures)
    assert (figures["tables"], figures["workers"], figures["rate"]) == (1, 1, 1.0)
    assert set(figures["latency_ms"]) == {"dealer", "observer", "inspector", "duty"}
    for kind in ("dealer", "observer", "inspector"):
        assert set(figures["latency_ms"][kind]) == {"p50", "p95", "p99", "max"}
        assert figures["latency_ms"][kind]["p99"] is not None
    assert figures["commands"] > 0
    assert figures["queries_per_command"] > 0
    assert figures["server_cpu_ms_per_command"] >= 0
    assert "postgres_cpu_ms_per_command" in figures
    assert "redis_cpu_ms_per_command" in figures
    assert figures["lost"] == 0
    # the cash desk's requests went through (a cash-in, its recount and a tip in 5 s)
    assert figures["money_records"] > 0 and figures["money_failed"] == 0
    assert figures["out_of_order"] == 0
    assert isinstance(figures["stale_refusals"], int)  # a loaded machine may make some
