"""docker-compose.yml as the compose CLI reads it (its normalised ``config``, with the
secrets given): PostgreSQL and Redis with health checks, a migrate step that runs before the
app, two daphne workers on PostgreSQL and Redis behind a proxy that passes WebSockets
through, healthy only when /healthz says so, and secrets that must be given. Without a
compose CLI the tests are skipped locally and fail in CI (.ci/run installs one)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
REQUIRED = {
    "SECRET_KEY": "s" * 50,
    "AUDIT_CHAIN_KEY": "a" * 48,
    "ALLOWED_HOSTS": "pit.casino.example",
    "POSTGRES_PASSWORD": "p" * 24,
}


def _compose_cli() -> list[str]:
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    require_service("no compose CLI here (neither `docker compose` nor `docker-compose`)")


def _config(env: dict[str, str], *, quiet: bool = False) -> subprocess.CompletedProcess:
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", **env}
    return subprocess.run(
        [*_compose_cli(), "-f", str(COMPOSE), "config", *(["-q"] if quiet else [])],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def services() -> dict:
    """The services as the compose CLI resolves them (variables interpolated, anchors and
    merge keys expanded)."""
    result = _config(REQUIRED)
    assert result.returncode == 0, result.stdout + result.stderr
    return yaml.safe_load(result.stdout)["services"]


def _workers(services: dict) -> dict:
    return {n: s for n, s in services.items() if "daphne" in (s.get("command") or [])}


def _env(service: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):  # some CLIs print KEY=value lines
        env = dict(item.split("=", 1) for item in env)
    return env


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_compose_refuses_to_start_without_the_secrets(missing):
    result = _config({k: v for k, v in REQUIRED.items() if k != missing}, quiet=True)
    assert result.returncode != 0
    assert missing in result.stdout + result.stderr


def test_the_secrets_given_reach_every_app_container(services):
    for name in ["migrate", "reservations", "floor-watch", *_workers(services)]:
        env = _env(services[name])
        assert env["SECRET_KEY"] == REQUIRED["SECRET_KEY"], name
        assert env["ALLOWED_HOSTS"] == REQUIRED["ALLOWED_HOSTS"], name
        assert env["DATABASE_URL"] == (
            f"postgres://casino:{REQUIRED['POSTGRES_PASSWORD']}@postgres:5432/casino"
        ), name
        assert env["REDIS_URL"] == "redis://redis:6379/0", name
        assert str(env["DEBUG"]) == "0", name


def test_two_daphne_workers_reached_only_through_the_proxy(services):
    workers = _workers(services)
    assert len(workers) == 2
    for name, worker in workers.items():
        assert worker["command"][-1] == "casino.asgi:application"
        assert "--proxy-headers" in worker["command"], "the proxy states the client's address"
        assert not worker.get("ports"), f"{name} is reached only through the proxy"
    proxy = services["proxy"]
    assert {n: d["condition"] for n, d in proxy["depends_on"].items()} == dict.fromkeys(
        workers, "service_healthy"
    )
    assert proxy.get("ports"), "the proxy is the one way in"


def test_a_worker_is_healthy_only_when_healthz_says_so(services):
    for name, worker in _workers(services).items():
        check = " ".join(worker["healthcheck"]["test"])
        assert '"/healthz"' in check and "!= 200" in check, name


def test_postgres_and_redis_have_health_checks_and_redis_keeps_nothing(services):
    assert services["postgres"]["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["redis"]["image"].startswith("redis:7")
    assert services["redis"]["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    command = services["redis"]["command"]
    assert command[command.index("--save") + 1] == ""  # no snapshots
    assert command[command.index("--appendonly") + 1] == "no"


def test_migrate_runs_once_before_the_workers_and_the_loops(services):
    migrate = services["migrate"]
    assert "migrate" in migrate["command"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in [*_workers(services), "reservations", "floor-watch"]:
        conditions = {d: spec["condition"] for d, spec in services[name]["depends_on"].items()}
        assert conditions["migrate"] == "service_completed_successfully", name
        assert conditions["postgres"] == "service_healthy", name
        assert conditions["redis"] == "service_healthy", name


def test_the_background_loops_run_once_each(services):
    assert services["reservations"]["command"] == ["python", "manage.py", "run_reservation_expiry"]
    assert services["floor-watch"]["command"] == ["python", "manage.py", "run_floor_watch"]


def test_the_proxy_config_passes_websockets_and_keeps_metrics_inside():
    conf = "\n".join(p.read_text() for p in (ROOT / "docker").glob("nginx*"))
    assert "proxy_http_version 1.1;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert re.search(r"location = /metrics \{\s*return 404;", conf)
    assert re.search(r"location = /healthz \{[^}]*deny all;", conf)


def test_image_is_python_311_slim_with_static_files_collected():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.M)
    assert "pip install ." in dockerfile
    assert "manage.py collectstatic --noinput" in dockerfile
    assert re.search(r"^USER \w+", dockerfile, re.M), "the app does not run as root"
