"""Measure the live table end to end: daphne workers on PostgreSQL + Redis, real WebSocket
clients (dealer, observer and inspector screens of K tables), rounds driven through the
protocol. Prints commands/s, latency from sending a command to each screen receiving the
new version (p50/p95/p99), and lost or out-of-order updates. A benchmark, not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python manage.py bench_live --tables 50 --rate 2 --seconds 30 --workers 2

It works in its own database (``<name>_bench``, dropped and made again), never in yours.
"""

import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import uuid
from decimal import Decimal
from urllib.parse import urlparse, urlunparse

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from staff.models import User
from staff.roles import TableRole
from staff.services import assignment_start, user_grant_roles
from tables.models import Pit, Table

LIVE = re.compile(r'<section id="table-live"[^>]*>')
ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')
ERROR = re.compile(r'id="table-error"[^>]*data-code="([^"]+)"')


PACK_RESERVE = 104  # shuffle when a third of the pack is left, as the cut card would say


def _shuffled_pack(rng: random.Random) -> list[str]:
    pack = [rank + suit for rank in "A23456789TJQK" for suit in "shdc"] * 6
    rng.shuffle(pack)
    return pack


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Screen:
    """One WebSocket screen; records when each version arrived and any disorder."""

    def __init__(self, kind: str):
        self.kind = kind
        self.arrivals: dict[int, float] = {}
        self.last = -1
        self.out_of_order = 0
        self.state: dict = {}
        self.errors: list[str] = []
        self.new_state = asyncio.Event()

    async def listen(self, socket_) -> None:
        async for message in socket_:
            now = time.perf_counter()
            error = ERROR.search(message)
            if error:
                self.errors.append(error.group(1))
                self.new_state.set()
            live = LIVE.search(message)
            if not live:
                continue
            state = dict(ATTR.findall(live.group(0)))
            version = int(state["version"])
            if version < self.last:
                self.out_of_order += 1
                continue
            self.arrivals.setdefault(version, now)
            self.last = version
            self.state = state
            self.new_state.set()


class Bench:
    def __init__(self, urls: list[str], tables: list[dict], rate: float, seconds: float):
        self.urls = urls
        self.tables = tables
        self.period = 1.0 / rate
        self.seconds = seconds
        self.sent: list[tuple[int, int, float]] = []  # (table, resulting version, sent at)
        self.screens: dict[int, dict[str, Screen]] = {}
        self.refused: dict[str, int] = {}

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        sockets = []
        listeners = []
        for n, table in enumerate(self.tables):
            base = self.urls[n % len(self.urls)]  # spread the screens over the workers
            self.screens[table["id"]] = {}
            for kind in ("dealer", "observer", "inspector"):
                url = base.replace("http", "ws", 1) + f"/ws/tables/{table['id']}/"
                ws = await connect(
                    url,
                    origin=base,
                    proxy=None,
                    max_size=2**22,
                    compression=None,
                    additional_headers={"Cookie": table["cookies"][kind]},
                )
                screen = Screen(kind)
                self.screens[table["id"]][kind] = screen
                sockets.append(ws)
                listeners.append(asyncio.create_task(screen.listen(ws)))
            table["socket"] = sockets[-3]
        await asyncio.sleep(1.0)  # every screen has its first full state
        self.started = time.perf_counter()
        await asyncio.gather(*(self.drive(table) for table in self.tables))
        self.elapsed = time.perf_counter() - self.started
        await asyncio.sleep(1.0)  # let the last updates arrive
        for ws in sockets:
            await ws.close()
        for task in listeners:
            task.cancel()

    async def drive(self, table) -> None:
        dealer = self.screens[table["id"]]["dealer"]
        ws = table["socket"]
        deadline = self.started + self.seconds
        tick = self.started + (hash(table["id"]) % 100) / 100 * self.period
        while True:
            tick += self.period
            if tick > deadline:
                return
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            action, fields = self.next_command(table, dealer.state)
            version = int(dealer.state["version"])
            dealer.new_state.clear()
            sent_at = time.perf_counter()
            await ws.send(
                json.dumps(
                    {
                        "id": str(uuid.uuid4()),
                        "expected_version": version,
                        "action": action,
                        **fields,
                    }
                )
            )
            try:
                while int(dealer.state["version"]) <= version and not dealer.errors:
                    await asyncio.wait_for(dealer.new_state.wait(), timeout=5)
                    dealer.new_state.clear()
            except TimeoutError:
                self.refused["timeout"] = self.refused.get("timeout", 0) + 1
                continue
            if dealer.errors:
                for code in dealer.errors:
                    self.refused[code] = self.refused.get(code, 0) + 1
                dealer.errors.clear()
                continue
            self.sent.append((table["id"], version + 1, sent_at))

    @staticmethod
    def next_command(table: dict, state: dict) -> tuple[str, dict]:
        """What a croupier would do next, with cards from the client's own shuffled pack
        (the manual mode of a real table: the server checks each card against its shoe)."""
        legal = set(state.get("legal", "").split())
        phase = state.get("phase")
        pack = table["pack"]
        if phase in ("idle", "closed", "voided") and (
            "open-round" not in legal or len(pack) < PACK_RESERVE
        ):
            table["pack"] = _shuffled_pack(table["rng"])
            return "shuffle", {"reason": "cut_card", "cards_behind_cut": 90}
        if "open-round" in legal:
            return "open-round", {}
        if phase == "betting":
            if "close-bets" in legal:
                return "close-bets", {"occupancy_acknowledged": "1"}  # one player, by design
            return "bet", {"box": 1, "seat": "P1", "stake": "100"}
        if "insurance-closed" in legal:
            return "insurance-closed", {}
        if "stand" in legal:
            return "stand", {}
        if "confirm-settlement" in legal:
            return "confirm-settlement", {}
        return "card", {"card": pack.pop()}

    def report(self) -> dict:
        latencies = {"dealer": [], "observer": [], "inspector": []}
        lost = 0
        for table_id, version, sent_at in self.sent:
            for kind, screen in self.screens[table_id].items():
                arrived = screen.arrivals.get(version)
                if arrived is None:
                    lost += 1
                else:
                    latencies[kind].append((arrived - sent_at) * 1000)
        out = {
            "tables": len(self.tables),
            "workers": len(self.urls),
            "seconds": round(self.elapsed, 1),
            "commands": len(self.sent),
            "commands_per_second": round(len(self.sent) / self.elapsed, 1),
            "lost_updates": lost,
            "out_of_order": sum(
                s.out_of_order for screens in self.screens.values() for s in screens.values()
            ),
            "refused": self.refused,
        }
        for kind, values in latencies.items():
            out[f"{kind}_ms"] = {
                "p50": round(_percentile(values, 0.50), 1),
                "p95": round(_percentile(values, 0.95), 1),
                "p99": round(_percentile(values, 0.99), 1),
                "mean": round(statistics.fmean(values), 1) if values else None,
            }
        return out


class Command(BaseCommand):
    help = "Benchmark the live table over real WebSockets on PostgreSQL + Redis."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--rate", type=float, default=2.0, help="commands/s per table")
        parser.add_argument("--seconds", type=float, default=30.0)
        parser.add_argument("--workers", type=int, default=2, help="daphne processes")

    def handle(self, *args, **options):
        db = settings.DATABASES["default"]
        if db["ENGINE"] != "django.db.backends.postgresql" or not settings.REDIS_URL:
            raise CommandError("bench_live needs DATABASE_URL (PostgreSQL) and REDIS_URL set.")
        bench_url = self._bench_database(os.environ["DATABASE_URL"])
        tables = self._floor(options["tables"])
        env = {
            **os.environ,
            "DATABASE_URL": bench_url,
            "DEBUG": "0",
            "SECRET_KEY": settings.SECRET_KEY,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "STATIC_MANIFEST": "0",
            "LOG_LEVEL": "WARNING",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # One bench inspector watches every table's screen: lift the per-person cap.
            "SCREENS_PER_PERSON": str(options["tables"] + 10),
        }
        ports = [_free_port() for _ in range(options["workers"])]
        workers = [
            subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "casino.asgi:application",
                ],
                env=env,
                cwd=settings.BASE_DIR,
                stdout=subprocess.DEVNULL,
            )
            for port in ports
        ]
        try:
            for port in ports:
                self._wait_for(port)
            bench = Bench(
                [f"http://127.0.0.1:{p}" for p in ports],
                tables,
                options["rate"],
                options["seconds"],
            )
            asyncio.run(bench.run())
            self.stdout.write(json.dumps(bench.report(), indent=2))
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=10)

    def _bench_database(self, url: str) -> str:
        import psycopg

        parsed = urlparse(url)
        name = f"{parsed.path.lstrip('/') or 'casino'}_bench"
        with psycopg.connect(
            urlunparse(parsed._replace(path="/postgres")), autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        connections["default"].close()
        settings.DATABASES["default"]["NAME"] = name
        connections["default"].settings_dict["NAME"] = name
        call_command("migrate", verbosity=0)
        return urlunparse(parsed._replace(path=f"/{name}"))

    def _floor(self, count: int) -> list[dict]:
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        pit = Pit.objects.create(name="Bench pit")
        inspector = User.objects.create_user("bench-inspector")
        user_grant_roles(user=inspector, roles=[TableRole.INSPECTOR])
        tables = []
        for number in range(1, count + 1):
            table = Table.objects.create(
                pit=pit,
                number=number,
                name=f"B{number}",
                min_bet=Decimal(10),
                max_bet=Decimal(1000),
                rules={"preset": "standard"},
                status=Table.Status.OPEN,
            )
            people = {"inspector": inspector}
            for kind, role in (
                ("dealer", TableRole.DEALING_CROUPIER),
                ("observer", TableRole.OBSERVING_CROUPIER),
            ):
                people[kind] = User.objects.create_user(f"bench-{kind}-{number}")
                user_grant_roles(user=people[kind], roles=[role])
                assignment_start(table=table, user=people[kind], role=role)
            assignment_start(table=table, user=inspector, role=TableRole.INSPECTOR)
            cookies = {}
            for kind, user in people.items():
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                cookies[kind] = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
            tables.append(
                {"id": table.pk, "cookies": cookies, "pack": [], "rng": random.Random(number)}
            )
        return tables

    @staticmethod
    def _wait_for(port: int) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError(f"daphne on port {port} did not start")
