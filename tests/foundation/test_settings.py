"""Settings come from the environment: production mode passes ``check --deploy``, refuses to
start without a secret, and DATABASE_URL / REDIS_URL switch the backends.

Each case runs in a fresh interpreter with an environment built from scratch: pytest-env
puts test defaults (SECURE_SSL_REDIRECT=0, STATIC_MANIFEST=0, ...) into this process's.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = """
import json
from django.conf import settings
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "host": settings.DATABASES["default"].get("HOST", ""),
    "redis": settings.REDIS_URL,
    "pool": settings.DATABASES["default"].get("OPTIONS", {}).get("pool"),
    "conn_max_age": settings.DATABASES["default"]["CONN_MAX_AGE"],
}))
"""


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        **env,
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _production(**extra: str) -> dict[str, str]:
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "AUDIT_CHAIN_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "pit.casino.example",
        **extra,
    }


def test_production_mode_passes_check_deploy_without_warnings():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **_production())

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_debug_off_without_a_secret_key_refuses_to_start():
    result = _run(["manage.py", "check"], DEBUG="0")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set" in result.stderr


def test_debug_off_without_an_audit_chain_key_refuses_to_start():
    """The chains' key is not derived from SECRET_KEY any more (issue 19, item 2)."""
    env = _production()
    del env["AUDIT_CHAIN_KEY"]
    result = _run(["manage.py", "check"], **env)

    assert result.returncode != 0
    assert "AUDIT_CHAIN_KEY must be set" in result.stderr


def test_check_deploy_refuses_a_short_audit_chain_key_or_one_equal_to_secret_key():
    short = _run(["manage.py", "check", "--deploy"], **_production(AUDIT_CHAIN_KEY="too-short"))
    assert short.returncode != 0 and "floor.E001" in short.stderr

    env = _production()
    env["AUDIT_CHAIN_KEY"] = env["SECRET_KEY"]
    same = _run(["manage.py", "check", "--deploy"], **env)
    assert same.returncode != 0 and "floor.E002" in same.stderr


def test_defaults_are_sqlite_and_one_process_without_redis():
    result = _run(["-c", "import django; django.setup()\n" + PRINT_SETTINGS], DEBUG="1")

    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["engine"] == "django.db.backends.sqlite3"
    assert shown["name"] == str(ROOT / "db.sqlite3")
    assert shown["redis"] == ""  # the live feed stays in this process
    assert shown["pool"] is None


def test_database_url_and_redis_url_switch_to_postgresql_and_redis():
    result = _run(
        ["-c", "import django; django.setup()\n" + PRINT_SETTINGS],
        DEBUG="1",
        DATABASE_URL="postgres://casino@db.internal:5432/casino",
        REDIS_URL="redis://cache.internal:6379/2",
    )

    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["engine"] == "django.db.backends.postgresql"
    assert (shown["name"], shown["host"]) == ("casino", "db.internal")
    assert shown["redis"] == "redis://cache.internal:6379/2"  # the live feed's bus
    # PostgreSQL: each worker borrows connections from a pool instead of opening one per call.
    assert shown["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10}
    assert shown["conn_max_age"] == 0


def _postgres_settings(**env: str) -> subprocess.CompletedProcess:
    return _run(
        ["-c", "import django; django.setup()\n" + PRINT_SETTINGS],
        DEBUG="1",
        DATABASE_URL="postgres://casino@db.internal:5432/casino",
        **env,
    )


def test_db_pool_sets_the_pool_size_and_zero_turns_it_off():
    sized = _postgres_settings(DB_POOL="8")
    off = _postgres_settings(DB_POOL="0")

    assert sized.returncode == 0 and off.returncode == 0, sized.stderr + off.stderr
    assert json.loads(sized.stdout)["pool"] == {"min_size": 2, "max_size": 8, "timeout": 10}
    assert json.loads(off.stdout)["pool"] is None


def test_persistent_connections_turn_the_pool_off_and_refuse_an_explicit_one():
    persistent = _postgres_settings(DB_CONN_MAX_AGE="60")
    both = _postgres_settings(DB_CONN_MAX_AGE="60", DB_POOL="10")

    assert persistent.returncode == 0, persistent.stderr
    shown = json.loads(persistent.stdout)
    assert (shown["pool"], shown["conn_max_age"]) == (None, 60)
    assert both.returncode != 0
    assert "DB_POOL needs DB_CONN_MAX_AGE=0" in both.stderr


def test_production_mode_with_postgresql_and_its_pool_passes_check_deploy():
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        **_production(DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused"),
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
