"""docker-compose.yml: PostgreSQL and Redis with health checks, a migrate step that runs
before the app, two daphne workers behind a proxy that passes WebSockets through, and
secrets that must be given. Validated by the compose CLI when one is installed."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
NGINX = ROOT / "docker" / "nginx.conf"
REQUIRED = {
    "SECRET_KEY": "s" * 50,
    "ALLOWED_HOSTS": "pit.casino.example",
    "POSTGRES_PASSWORD": "p" * 24,
}


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def _workers(services: dict) -> dict:
    return {
        name: service
        for name, service in services.items()
        if "daphne" in service.get("command", [])
    }


def _compose_cli() -> list[str] | None:
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def _config(env: dict[str, str]) -> subprocess.CompletedProcess:
    cli = _compose_cli()
    if cli is None:
        pytest.skip("no compose CLI here (neither `docker compose` nor `docker-compose`)")
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", **env}
    return subprocess.run(
        [*cli, "-f", str(COMPOSE), "config", "-q"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_compose_config_validates():
    result = _config(REQUIRED)

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_compose_refuses_to_start_without_the_secrets(missing):
    result = _config({k: v for k, v in REQUIRED.items() if k != missing})

    assert result.returncode != 0
    assert missing in result.stdout + result.stderr


def test_two_daphne_workers_sit_behind_the_proxy(services):
    workers = _workers(services)
    upstream = NGINX.read_text()

    assert len(workers) == 2
    for name, worker in workers.items():
        assert worker["command"][-1] == "casino.asgi:application"
        assert "ports" not in worker, f"{name} is reached only through the proxy"
        assert re.search(rf"server {name}:8000\b", upstream)
    assert set(services["proxy"]["depends_on"]) == set(workers)


def test_the_proxy_passes_websocket_upgrades_through():
    conf = NGINX.read_text()

    assert "proxy_http_version 1.1;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert "proxy_set_header X-Forwarded-Proto" in conf


def test_postgres_and_redis_have_health_checks(services):
    assert services["postgres"]["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["redis"]["image"].startswith("redis:7")
    assert services["redis"]["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]


def test_migrate_runs_once_before_the_workers(services):
    migrate = services["migrate"]

    assert "migrate" in migrate["command"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name, worker in _workers(services).items():
        conditions = {dep: spec["condition"] for dep, spec in worker["depends_on"].items()}
        assert conditions == {
            "postgres": "service_healthy",
            "redis": "service_healthy",
            "migrate": "service_completed_successfully",
        }, name
        assert "healthcheck" in worker, name


def test_app_runs_in_production_mode_on_postgres_and_redis(services):
    for name in ["migrate", *_workers(services)]:
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://")


def test_image_is_python_311_slim_with_static_files_collected():
    dockerfile = (ROOT / "Dockerfile").read_text()

    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.M)
    assert "pip install ." in dockerfile
    assert "manage.py collectstatic --noinput" in dockerfile
    assert re.search(r"^USER \w+", dockerfile, re.M), "the app does not run as root"


def test_a_reservation_worker_runs_the_expiry_loop(services):
    worker = services["reservations"]
    assert worker["command"] == ["python", "manage.py", "run_reservation_expiry"]
    assert worker["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "DATABASE_URL" in worker["environment"] and "REDIS_URL" in worker["environment"]
