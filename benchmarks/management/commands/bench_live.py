"""A floor at human pace, measured from outside: daphne workers on PostgreSQL + Redis, real
WebSocket screens, real HTTP for the cash desk. A benchmark, not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python manage.py bench_live --tables 60 --rate 1 --seconds 120 --workers 2 \\
        --json live.json

K open tables, each with its dealer's, observer's and inspector's table screen; one inspector
(and his dashboard, ``/ws/inspector/``) per 4 tables; two duty administrators' screens
(``/ws/duty/``). Each dealer sends ``--rate`` commands/s in an **open loop** (command n is
due at start + offset + n/rate whatever happened before), always with the round version on
his own screen, choosing what a croupier would do next from what his screen shows. Meanwhile,
per table, a cash-in (HTTP POST as the tablet's cash page does) and its blind recount by the
observer once a minute, and a tip every three minutes. Every screen sends ``sync`` every 20 s
as ``static/js/live.js`` does. ``--closed-loop`` instead sends each dealer's next command as
soon as the previous one's fragment is on his screen (or its refusal came back): saturation.

Latency of a command to a screen: from the moment it was due (open loop; equal to the moment
it was sent in the closed loop) to that screen receiving the first fragment with the round
version the command made (an accepted command carrying version v makes v + 1; the dealer is
the only one moving the round). Duty screens: from sending a cash-in, recount or tip to a
duty fragment showing it (the table's row counts cash-ins, recounts and tips). A screen that
never showed that version or a newer one (by the time the screens are quiet again) counts one
``lost``; one that showed a newer one first (a full state answering its ``sync``, which makes
the consumer drop the older broadcast) counts one ``superseded``, its latency taken when the
newer state arrived. A fragment whose sequence is below the previous one on the same screen is
``out_of_order``.

Server CPU: utime + stime of the daphne worker processes (``/proc/<pid>/stat``) over the
timed window. PostgreSQL and Redis CPU the same way, over their processes (the postmaster
with its exited children's time, and every live backend; every redis-server) — on a shared
machine those include other databases' work. Queries: every SQL statement the workers sent
in the window (an execute wrapper in each worker, ``_bench_worker``, summed by the app's
``/metrics``) — commands, their publishes, cash desk requests, syncs — divided by commands.

It works in its own database (``<name>_bench``, dropped and made again), never in yours.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from decimal import Decimal
from urllib.parse import urlparse, urlunparse

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from cashdesk.models import CashIn
from staff.models import User
from staff.roles import Role, TableRole
from staff.services import assignment_start, user_grant_roles
from tables.models import Pit, Table

LIVE = re.compile(r'<section id="table-live"[^>]*>')
TILE = re.compile(r'<article id="tile-(\d+)"[^>]*>')
DUTY = re.compile(r'<span id="duty-feed" data-topic="duty" data-seq="(\d+)"')
DUTY_ROW = re.compile(r'<tr id="duty-row-\d+" data-table="(\d+)">(.*?)</tr>', re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')
ERROR = re.compile(r'id="table-error"[^>]*data-code="([^"]*)"')
METRIC = re.compile(r"^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$", re.M)

PACK_RESERVE = 104  # shuffle when a third of the pack is left, as the cut card would say
SYNC_SECONDS = 20  # static/js/feed.js
CASH_IN_EVERY = 60.0
TIP_EVERY = 180.0
TIP = Decimal(5)
NOTE = 100  # a cash-in of 3 notes of 100, for 3 chips of 100
# The JSON object's keys in the order (extra keys follow them).
JSON_KEYS = (
    "tables",
    "rate",
    "seconds",
    "workers",
    "commands",
    "commands_per_s",
    "server_cpu_ms_per_command",
    "queries_per_command",
    "latency_ms",
    "lost",
    "out_of_order",
    "stale_refusals",
)
KINDS = ("dealer", "observer", "inspector", "duty")
TICK = os.sysconf("SC_CLK_TCK")


def _shuffled_pack(rng: random.Random) -> list[str]:
    pack = [rank + suit for rank in "A23456789TJQK" for suit in "shdc"] * 6
    rng.shuffle(pack)
    return pack


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return round(ordered[index], 1)


def _money(text: str) -> Decimal:
    """A money cell in either language (``1,500.00`` / ``1 500,00``)."""
    digits = re.sub(r"[^0-9.,]", "", text)
    if len(digits) > 3 and digits[-3] in ".,":
        return Decimal(re.sub(r"[.,]", "", digits[:-3]) + "." + digits[-2:])
    return Decimal(re.sub(r"[.,]", "", digits) or "0")


def _first_at_least(arrivals: dict[int, float]):
    """version -> when the screen first showed that version or a newer one (None: never)."""
    versions = sorted(arrivals)
    earliest, best = [], None
    for v in reversed(versions):
        best = arrivals[v] if best is None else min(best, arrivals[v])
        earliest.append(best)
    earliest.reverse()

    def at(version: int) -> float | None:
        i = bisect.bisect_left(versions, version)
        return earliest[i] if i < len(versions) else None

    return at


# -- CPU from /proc ------------------------------------------------------------------------


def _proc_stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the state on (field 3)


def _cpu_ticks(pid: int, children: bool = False) -> int:
    fields = _proc_stat(pid)
    if fields is None:
        return 0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime: reaped children
    return ticks


def _processes(name: str) -> list[tuple[int, int]]:
    """(pid, parent pid) of every process whose command is ``name``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                if f.read().strip() != name:
                    continue
        except OSError:
            continue
        fields = _proc_stat(int(entry))
        if fields is not None:
            out.append((int(entry), int(fields[1])))
    return out


def service_cpu_ticks() -> dict[str, int]:
    """CPU ticks so far of PostgreSQL (each postmaster with its reaped backends, plus every
    live backend) and of Redis (every redis-server)."""
    postgres = _processes("postgres")
    pids = {pid for pid, _ in postgres}
    pg = 0
    for pid, parent in postgres:
        pg += _cpu_ticks(pid, children=parent not in pids)
    redis = sum(_cpu_ticks(pid) for pid, _ in _processes("redis-server"))
    return {"postgres": pg, "redis": redis}


# -- the screens ---------------------------------------------------------------------------


class TableScreen:
    """A table screen (``/ws/tables/<id>/``): when each round version first arrived, the
    sequence order, and (the dealer's) the answers to his commands."""

    def __init__(self, kind: str, table_id: int):
        self.kind = kind
        self.topic = f"table.{table_id}"
        self.arrivals: dict[int, float] = {}
        self.seq = -1
        self.out_of_order = 0
        self.state: dict = {}
        self.answers: list[str] = []
        self.changed = asyncio.Event()

    def receive(self, message: str, now: float) -> None:
        error = ERROR.search(message)
        if error:
            self.answers.append(error.group(1))
        live = LIVE.search(message)
        if live:
            state = dict(ATTR.findall(live.group(0)))
            seq = int(state.get("seq", 0))
            if seq < self.seq:
                self.out_of_order += 1
            else:
                self.seq = seq
                self.state = state
                self.arrivals.setdefault(int(state["version"]), now)
        self.changed.set()

    def sync(self) -> dict:
        return {"action": "sync", "known": {self.topic: self.seq}}


class Dashboard:
    """An inspector's dashboard (``/ws/inspector/``): one tile per table."""

    kind = "inspector"

    def __init__(self):
        self.arrivals: dict[int, dict[int, float]] = {}
        self.seqs: dict[int, int] = {}
        self.out_of_order = 0

    def receive(self, message: str, now: float) -> None:
        for match in TILE.finditer(message):
            table_id = int(match.group(1))
            state = dict(ATTR.findall(match.group(0)))
            seq = int(state.get("seq", 0))
            if seq < self.seqs.get(table_id, -1):
                self.out_of_order += 1
                continue
            self.seqs[table_id] = seq
            self.arrivals.setdefault(table_id, {}).setdefault(int(state["version"]), now)

    def sync(self) -> dict:
        return {"action": "sync", "known": {f"table.{t}": s for t, s in self.seqs.items()}}


class DutyScreen:
    """A duty administrator's screen (``/ws/duty/``): per table (by number), when it first
    showed n money records (cash-ins + recounts + tips)."""

    kind = "duty"

    def __init__(self):
        self.arrivals: dict[int, dict[int, float]] = {}
        self.shown: dict[int, int] = {}
        self.seq = -1
        self.out_of_order = 0

    def receive(self, message: str, now: float) -> None:
        head = DUTY.search(message)
        if not head:
            return
        seq = int(head.group(1))
        if seq < self.seq:
            self.out_of_order += 1
            return
        self.seq = seq
        for number, row in DUTY_ROW.findall(message):
            cells = [re.sub(r"<[^>]+>", "", c) for c in CELL.findall(row)]
            if len(cells) < 8:
                continue
            count, awaiting = int(_money(cells[4])), int(_money(cells[5]))
            records = count + (count - awaiting) + int(_money(cells[7]) / TIP)
            table = int(number)
            for n in range(self.shown.get(table, 0) + 1, records + 1):
                self.arrivals.setdefault(table, {}).setdefault(n, now)
            self.shown[table] = max(self.shown.get(table, 0), records)

    def sync(self) -> dict:
        return {"action": "sync", "known": {"duty": self.seq}}


# -- the floor -----------------------------------------------------------------------------


class Bench:
    def __init__(self, urls, tables, inspectors, duty, options):
        self.urls = urls
        self.tables = tables
        self.inspectors = inspectors
        self.duty_cookies = duty
        self.rate = options["rate"]
        self.seconds = options["seconds"]
        self.closed_loop = options["closed_loop"]
        self.commands: list[tuple[int, int, float]] = []  # (table, version made, due at)
        self.money: list[tuple[int, int, float]] = []  # (table number, records, sent at)
        self.refused: dict[str, int] = {}
        self.stale = 0
        self.money_failed = 0
        self.lag = 0.0  # how late the client sent a command after it was due (worst)
        self.csrf = secrets.token_hex(16)
        self.sockets = []
        self.stopping = False
        self.received: dict[str, tuple[int, int]] = {}  # per screen: messages, bytes
        self.last_message = 0.0

    async def connect(self, base: str, path: str, cookie: str, screen):
        from websockets.asyncio.client import connect

        ws = await connect(
            base.replace("http", "ws", 1) + path,
            origin=base,
            proxy=None,
            max_size=2**24,
            compression=None,
            open_timeout=60,
            additional_headers={"Cookie": cookie},
        )
        self.sockets.append((ws, screen))
        return ws

    async def listen(self, ws, screen) -> None:
        try:
            async for message in ws:
                self.last_message = time.perf_counter()
                screen.receive(message, self.last_message)
                kind = screen.kind if isinstance(screen, TableScreen) else type(screen).__name__
                count, size = self.received.get(kind, (0, 0))
                self.received[kind] = (count + 1, size + len(message.encode()))
        except Exception:  # noqa: BLE001 - a closed socket ends the listener; counted as lost
            return

    async def syncing(self, ws, screen) -> None:
        await asyncio.sleep(random.uniform(0, SYNC_SECONDS))
        while not self.stopping:
            try:
                await ws.send(json.dumps(screen.sync()))
            except Exception:  # noqa: BLE001
                return
            await asyncio.sleep(SYNC_SECONDS)

    async def run(self) -> None:
        tasks = []
        n = 0

        def base():
            nonlocal n
            n += 1
            return self.urls[n % len(self.urls)]  # spread the screens over the workers

        for table in self.tables:
            table["screens"] = {}
            for kind in ("dealer", "observer", "inspector"):
                screen = TableScreen(kind, table["id"])
                ws = await self.connect(
                    base(), f"/ws/tables/{table['id']}/", table["cookies"][kind], screen
                )
                table["screens"][kind] = screen
                if kind == "dealer":
                    table["socket"] = ws
        self.dashboards = []
        for inspector in self.inspectors:
            screen = Dashboard()
            await self.connect(base(), "/ws/inspector/", inspector["cookie"], screen)
            for table_id in inspector["tables"]:
                self.by_id[table_id]["dashboard"] = screen
            self.dashboards.append(screen)
        self.duty = []
        for cookie in self.duty_cookies:
            screen = DutyScreen()
            await self.connect(base(), "/ws/duty/", cookie, screen)
            self.duty.append(screen)
        for ws, screen in self.sockets:
            tasks.append(asyncio.create_task(self.listen(ws, screen)))
            tasks.append(asyncio.create_task(self.syncing(ws, screen)))
        await asyncio.sleep(2.0)  # every screen has its first full state
        await self.on_start()
        self.started = time.perf_counter()
        drivers = [self.drive(t) for t in self.tables] + [self.cash(t) for t in self.tables]
        await asyncio.gather(*drivers)
        self.elapsed = time.perf_counter() - self.started
        await self.on_stop()
        # The last fragments arrive: until the screens have been quiet for 2 s (at most 60 s,
        # then what has not arrived is lost).
        quiet_until = time.perf_counter() + 60
        while time.perf_counter() < quiet_until:
            await asyncio.sleep(0.5)
            if time.perf_counter() - self.last_message > 2.0:
                break
        self.stopping = True
        for ws, _screen in self.sockets:
            await ws.close()
        for task in tasks:
            task.cancel()

    async def on_start(self) -> None:  # the command sets these
        pass

    async def on_stop(self) -> None:
        pass

    @property
    def by_id(self) -> dict:
        if not hasattr(self, "_by_id"):
            self._by_id = {t["id"]: t for t in self.tables}
        return self._by_id

    # -- the dealer ------------------------------------------------------------------------

    async def drive(self, table) -> None:
        dealer = table["screens"]["dealer"]
        ws = table["socket"]
        deadline = self.started + self.seconds
        period = 1.0 / self.rate
        due = self.started + table["rng"].random() * period
        pending = []  # (expected version, due, action, undo) awaiting their answer
        while True:
            if self.closed_loop:
                due = time.perf_counter()
            if due > deadline:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            self._answers(table, pending)
            state = dealer.state
            version = int(state["version"])
            action, fields, undo = self.next_command(table, state)
            sent = time.perf_counter()
            self.lag = max(self.lag, sent - due)
            pending.append((version, due, action, undo))
            await ws.send(
                json.dumps(
                    {"id": str(uuid.uuid4()), "expected_version": version, "action": action}
                    | fields
                )
            )
            if self.closed_loop:
                await self._wait(table, pending, version)
            else:
                due += period
        end = time.perf_counter() + 5
        while pending and time.perf_counter() < end:
            dealer.changed.clear()
            self._answers(table, pending)
            if pending:
                try:
                    await asyncio.wait_for(dealer.changed.wait(), timeout=end - time.perf_counter())
                except TimeoutError:
                    break
        self.refused["unanswered"] = self.refused.get("unanswered", 0) + len(pending)

    async def _wait(self, table, pending, version) -> None:
        """Closed loop: until the answer came, and when accepted, the new version is shown."""
        dealer = table["screens"]["dealer"]
        end = time.perf_counter() + 10
        accepted = None
        while time.perf_counter() < end:
            dealer.changed.clear()
            if pending:
                answered = self._answers(table, pending)
                if not pending:
                    accepted = answered > 0
            if accepted is not None and (not accepted or int(dealer.state["version"]) > version):
                return
            try:
                await asyncio.wait_for(dealer.changed.wait(), timeout=end - time.perf_counter())
            except TimeoutError:
                return

    def _answers(self, table, pending) -> int:
        """Match the dealer's answers, in order, to his commands; returns how many were
        accepted."""
        dealer = table["screens"]["dealer"]
        accepted = 0
        while dealer.answers and pending:
            code = dealer.answers.pop(0)
            version, due, action, undo = pending.pop(0)
            if code == "":
                self.commands.append((table["id"], version + 1, due))
                accepted += 1
                continue
            if code == "stale":
                self.stale += 1
            else:
                self.refused[code] = self.refused.get(code, 0) + 1
            undo()
        return accepted

    @staticmethod
    def next_command(table: dict, state: dict):
        """What a croupier would do next from what his screen shows, with cards from his
        own shuffled pack (a manual table: the server checks each card against its shoe);
        and how to take it back if it is refused."""
        legal = set(state.get("legal", "").split())
        phase = state.get("phase")
        pack = table["pack"]
        if phase in ("idle", "closed", "voided") and (
            "open-round" not in legal or len(pack) < PACK_RESERVE
        ):
            table["pack"] = _shuffled_pack(table["rng"])
            return (
                "shuffle",
                {"reason": "cut_card", "cards_behind_cut": 90},
                lambda: table.update(pack=pack),
            )
        nothing = lambda: None  # noqa: E731
        if "open-round" in legal:
            return "open-round", {}, nothing
        if phase == "betting":
            if "close-bets" in legal:
                return "close-bets", {"lone_player": "shared", "limits_announced": "told"}, nothing
            return "bet", {"box": 1, "seat": "P1", "stake": "100"}, nothing
        if "insurance-closed" in legal:
            return "insurance-closed", {}, nothing
        if "stand" in legal:
            return "stand", {}, nothing
        if "confirm-settlement" in legal:
            return "confirm-settlement", {}, nothing
        card = pack.pop()
        return "card", {"card": card}, lambda: pack.append(card)

    # -- the cash desk ---------------------------------------------------------------------

    async def cash(self, table) -> None:
        """Once a minute a cash-in and, a few seconds later, its blind recount; every three
        minutes a tip — one after the other, so each is the table's next money record."""
        rng = table["rng"]
        events = []
        at = rng.uniform(0, min(CASH_IN_EVERY, self.seconds))
        while at < self.seconds:
            events += [(at, "cash-in"), (at + rng.uniform(3, 8), "recount")]
            at += CASH_IN_EVERY
        at = rng.uniform(0, min(TIP_EVERY, self.seconds))
        while at < self.seconds:
            events.append((at, "tip"))
            at += TIP_EVERY
        records = 0
        for at, what in sorted(events):
            if at > self.seconds:
                break
            await asyncio.sleep(max(0.0, self.started + at - time.perf_counter()))
            sent = time.perf_counter()
            if await asyncio.to_thread(self._money_request, table, what):
                records += 1
                self.money.append((table["number"], records, sent))
            else:
                self.money_failed += 1

    def _money_request(self, table, what: str) -> bool:
        cookies = table["cookies"]
        if what == "cash-in":
            path, cookie = "cash-in", cookies["dealer"]
            data = {f"note-{NOTE}": "3", f"chip-{NOTE}": "3", "destination": "cash_box"}
        elif what == "recount":
            row = (
                CashIn.objects.filter(table_id=table["id"], status=CashIn.Status.AWAITING_RECOUNT)
                .order_by("-pk")
                .values_list("pk", flat=True)
                .first()
            )
            connections.close_all()
            if row is None:
                return False
            path, cookie = "recount", cookies["observer"]
            data = {"cash_in": str(row), f"note-{NOTE}": "3"}
        else:
            path, cookie = "tip", cookies["dealer"]
            # a tip from a box that may not have won the last round carries its note
            data = {"box": "1", "amount": str(TIP), "note": "bench"}
        # every money form carries its idempotency token, as the page's hidden field does
        data["submission"] = uuid.uuid4().hex
        request = urllib.request.Request(  # noqa: S310 - our own http:// worker
            f"{table['base']}/cash/tables/{table['id']}/{path}/",
            data=urllib.parse.urlencode(data).encode(),
            headers={
                "Cookie": f"{cookie}; {settings.CSRF_COOKIE_NAME}={self.csrf}",
                "X-CSRFToken": self.csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        try:
            _NO_REDIRECT.open(request, timeout=30)
        except urllib.error.HTTPError as answer:
            return answer.code == 302  # the page a browser would load next is not timed
        except OSError:
            return False
        return False

    # -- the figures -----------------------------------------------------------------------

    def report(self) -> dict:
        latencies = {kind: [] for kind in KINDS}
        detail = {"inspector_table_screen": [], "inspector_dashboard": []}
        lost = superseded = 0
        shown = {}  # per screen: when it first showed each version or a newer one
        for table_id, version, due in self.commands:
            table = self.by_id[table_id]
            arrivals = [(s.kind, s.arrivals) for s in table["screens"].values()]
            arrivals.append(("dashboard", table["dashboard"].arrivals.get(table_id, {})))
            for kind, seen in arrivals:
                if id(seen) not in shown:
                    shown[id(seen)] = _first_at_least(seen)
                arrived = shown[id(seen)](version)
                if arrived is None:
                    lost += 1
                    continue
                if version not in seen:
                    superseded += 1  # a newer state came first (a sync's full state)
                latency = (arrived - due) * 1000
                if kind == "dashboard":
                    latencies["inspector"].append(latency)
                    detail["inspector_dashboard"].append(latency)
                    continue
                latencies[kind].append(latency)
                if kind == "inspector":
                    detail["inspector_table_screen"].append(latency)
        for number, records, sent in self.money:
            for screen in self.duty:
                arrived = screen.arrivals.get(number, {}).get(records)
                if arrived is None:
                    lost += 1
                else:
                    latencies["duty"].append((arrived - sent) * 1000)
        screens = [s for t in self.tables for s in t["screens"].values()]
        screens += self.dashboards + self.duty

        def summary(values):
            return {
                "p50": _percentile(values, 0.50),
                "p95": _percentile(values, 0.95),
                "p99": _percentile(values, 0.99),
                "max": round(max(values), 1) if values else None,
            }

        return {
            "tables": len(self.tables),
            "rate": self.rate,
            "seconds": self.seconds,
            "workers": len(self.urls),
            "commands": len(self.commands),
            "commands_per_s": round(len(self.commands) / self.elapsed, 1),
            "latency_ms": {kind: summary(values) for kind, values in latencies.items()},
            "lost": lost,
            "out_of_order": sum(s.out_of_order for s in screens),
            "stale_refusals": self.stale,
            # beyond the specified keys
            "closed_loop": self.closed_loop,
            "superseded": superseded,
            "latency_ms_inspector_detail": {k: summary(v) for k, v in detail.items()},
            "money_records": len(self.money),
            "money_failed": self.money_failed,
            "other_refusals": {k: v for k, v in self.refused.items() if v},
            "client_lag_max_ms": round(self.lag * 1000, 1),
            "screens": len(screens),
            "received": {
                kind: {"messages": n, "mean_bytes": round(size / max(n, 1))}
                for kind, (n, size) in sorted(self.received.items())
            },
        }


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_NO_REDIRECT = urllib.request.build_opener(_NoRedirect)


class Command(BaseCommand):
    help = "Benchmark a floor at human pace over real WebSockets on PostgreSQL + Redis."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=60)
        parser.add_argument("--rate", type=float, default=1.0, help="commands/s per dealer")
        parser.add_argument("--seconds", type=float, default=60.0)
        parser.add_argument("--workers", type=int, default=2, help="daphne processes")
        parser.add_argument("--json", help="write the figures to this file")
        parser.add_argument(
            "--closed-loop",
            action="store_true",
            help="each dealer sends his next command when the previous one is answered",
        )

    def handle(self, *args, **options):
        db = settings.DATABASES["default"]
        if db["ENGINE"] != "django.db.backends.postgresql" or not settings.REDIS_URL:
            raise CommandError("bench_live needs DATABASE_URL (PostgreSQL) and REDIS_URL set.")
        if options["tables"] < 1 or options["rate"] <= 0 or options["workers"] < 1:
            raise CommandError("--tables and --workers at least 1, --rate above 0.")
        bench_url = self._bench_database(os.environ["DATABASE_URL"])
        # The run's own keys and channels in Redis (the feed, presence), removed at the end:
        # nothing an earlier run left there is seen by this one.
        run = f"bench-{uuid.uuid4().hex[:8]}"
        settings.FEED_PREFIX = f"{run}:feed"
        tables, inspectors, duty = self._floor(options["tables"])
        metrics_dir = tempfile.mkdtemp(prefix="bench-live-metrics-")
        env = {
            **os.environ,
            "DATABASE_URL": bench_url,
            "DEBUG": "0",
            "SECRET_KEY": settings.SECRET_KEY,
            # the workers make chain links with this process's key (the dev key with DEBUG)
            "AUDIT_CHAIN_KEY": settings.AUDIT_CHAIN_KEY,
            "AUDIT_CHAIN_KEY_ID": settings.AUDIT_CHAIN_KEY_ID,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "STATIC_MANIFEST": "0",
            "LOG_LEVEL": "WARNING",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # One bench inspector watches every table's screen: lift the per-person cap.
            "SCREENS_PER_PERSON": str(options["tables"] + 10),
            "PROMETHEUS_MULTIPROC_DIR": metrics_dir,
            "FEED_PREFIX": settings.FEED_PREFIX,
        }
        ports = [_free_port() for _ in range(options["workers"])]
        workers = [
            subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                [
                    sys.executable,
                    "-m",
                    "benchmarks.management.commands._bench_worker",
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
        urls = [f"http://127.0.0.1:{p}" for p in ports]
        for n, table in enumerate(tables):
            table["base"] = urls[n % len(urls)]
        try:
            for port in ports:
                self._wait_for(port)
            bench = Bench(urls, tables, inspectors, duty, options)
            marks = {}

            async def on_start():
                marks["start"] = await asyncio.to_thread(self._counters, urls[0], workers)

            async def on_stop():
                marks["stop"] = await asyncio.to_thread(self._counters, urls[0], workers)

            bench.on_start, bench.on_stop = on_start, on_stop
            asyncio.run(bench.run())
            out = bench.report()
            out.update(self._costs(marks["start"], marks["stop"], out["commands"]))
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=10)
            self._forget(run)
            shutil.rmtree(metrics_dir, ignore_errors=True)
        ordered = {key: out.pop(key) for key in JSON_KEYS}
        ordered.update(out)
        ordered["load_average"] = [round(x, 2) for x in os.getloadavg()]
        self._print(ordered)
        if options["json"]:
            with open(options["json"], "w") as f:
                json.dump(ordered, f, indent=2)
                f.write("\n")

    @staticmethod
    def _forget(run: str) -> None:
        """Remove the run's keys from Redis."""
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        for key in client.scan_iter(f"{run}:*", count=1000):
            client.delete(key)

    def _counters(self, url: str, workers) -> dict:
        """CPU ticks (workers, PostgreSQL, Redis, this client) and the workers' counters."""
        with urllib.request.urlopen(f"{url}/metrics", timeout=30) as answer:  # noqa: S310
            text = answer.read().decode()
        sums: dict[str, float] = {}
        for name, _labels, value in METRIC.findall(text):
            sums[name] = sums.get(name, 0.0) + float(value)
        own = os.times()
        return {
            "workers": sum(_cpu_ticks(w.pid) for w in workers),
            **service_cpu_ticks(),
            "client": own.user + own.system,
            "queries": sums.get("bench_db_queries_total", 0.0),
            "server_commands": sums.get("pit_commands_total", 0.0),
            "server_stale": sums.get("pit_stale_refusals_total", 0.0),
            "healed": sums.get("pit_sync_resends_total", 0.0),
            "at": time.perf_counter(),
        }

    @staticmethod
    def _costs(start: dict, stop: dict, commands: int) -> dict:
        per = max(commands, 1)
        ms = 1000 / TICK

        def delta(key):
            return stop[key] - start[key]

        return {
            "server_cpu_ms_per_command": round(delta("workers") * ms / per, 2),
            "queries_per_command": round(delta("queries") / per, 1),
            "postgres_cpu_ms_per_command": round(delta("postgres") * ms / per, 2),
            "redis_cpu_ms_per_command": round(delta("redis") * ms / per, 2),
            "client_cpu_ms_per_command": round(delta("client") * 1000 / per, 2),
            "server_cpu_percent": round(delta("workers") / TICK / delta("at") * 100, 1),
            "server_commands_handled": int(delta("server_commands")),
            "server_stale_refusals": int(delta("server_stale")),
            "healed_by_sync": int(delta("healed")),
        }

    def _print(self, out: dict) -> None:
        self.stdout.write(
            f"{out['tables']} tables x {out['rate']}/s, {out['workers']} workers, "
            f"{out['seconds']} s{' (closed loop)' if out['closed_loop'] else ''}: "
            f"{out['commands']} commands, {out['commands_per_s']}/s"
        )
        self.stdout.write(f"{'screen':<10}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}  ms")
        for kind, row in out["latency_ms"].items():
            cells = "".join(f"{'-' if v is None else v:>9}" for v in row.values())
            self.stdout.write(f"{kind:<10}{cells}")
        self.stdout.write(
            f"lost {out['lost']}, out of order {out['out_of_order']}, "
            f"stale refusals {out['stale_refusals']}, other refusals {out['other_refusals']}"
        )
        self.stdout.write(
            f"CPU ms/command: daphne {out['server_cpu_ms_per_command']}, PostgreSQL "
            f"{out['postgres_cpu_ms_per_command']}, Redis {out['redis_cpu_ms_per_command']}, "
            f"client {out['client_cpu_ms_per_command']}; queries/command "
            f"{out['queries_per_command']}; load average {out['load_average']}"
        )

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

    def _floor(self, count: int):
        """K open tables with their croupiers, an inspector per 4 tables, two duty
        administrators — and a signed-in session for each."""
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        def cookie(user) -> str:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"

        pit = Pit.objects.create(name="Bench pit")
        tables, inspectors = [], []
        for number in range(1, count + 1):
            if (number - 1) % 4 == 0:
                inspector = User.objects.create_user(f"bench-inspector-{number // 4 + 1}")
                user_grant_roles(user=inspector, roles=[TableRole.INSPECTOR])
                inspectors.append({"cookie": cookie(inspector), "tables": []})
            table = Table.objects.create(
                pit=pit,
                number=number,
                name=f"B{number}",
                min_bet=Decimal(10),
                max_bet=Decimal(1000),
                rules={"preset": "standard"},
                chip_denominations=["5", "25", "100", "500"],
                status=Table.Status.OPEN,
            )
            cookies = {"inspector": inspectors[-1]["cookie"]}
            for kind, role in (
                ("dealer", TableRole.DEALING_CROUPIER),
                ("observer", TableRole.OBSERVING_CROUPIER),
            ):
                person = User.objects.create_user(f"bench-{kind}-{number}")
                user_grant_roles(user=person, roles=[role])
                assignment_start(table=table, user=person, role=role)
                cookies[kind] = cookie(person)
            assignment_start(table=table, user=inspector, role=TableRole.INSPECTOR)
            inspectors[-1]["tables"].append(table.pk)
            tables.append(
                {
                    "id": table.pk,
                    "number": number,
                    "cookies": cookies,
                    "pack": [],
                    "rng": random.Random(number),
                }
            )
        duty = []
        for n in (1, 2):
            person = User.objects.create_user(f"bench-duty-{n}")
            user_grant_roles(user=person, roles=[Role.DUTY_ADMINISTRATOR])
            duty.append(cookie(person))
        connections.close_all()
        return tables, inspectors, duty

    @staticmethod
    def _wait_for(port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError(f"daphne on port {port} did not start")
