"""Time the cash reports on a seeded month of a large floor (a benchmark, not a test).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \\
        .venv/bin/python manage.py bench_cashdesk --tables 100 --days 30

It works in its own database (``<name>_bench``, dropped and made again), never in yours:
the history (chip counts, cash-ins, tips, fill and credit slips, counted drops, closed
rounds with their results) is generated from ``--seed``, then the gaming-day report of the
whole floor and the month report are each timed ``--repeat`` times (the best and the median
are printed, in seconds, as JSON).
"""

import datetime as dt
import json
import os
import random
import statistics
import time
from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, transaction
from django.utils import timezone

from benchmarks.management.commands.bench_live import Command as LiveBench
from cashdesk import selectors
from cashdesk.gaming import day_window, gaming_day_of
from cashdesk.models import CashIn, DropCount, RoundResult, Slip, Tip
from game.configuration.services import house_edge
from game.models import Round, Shoe
from staff.models import User
from tables.models import ChipCount, Pit, Table


class Command(BaseCommand):
    help = "Seed a month of cash-desk history for a floor on PostgreSQL and time the reports."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument("--days", type=int, default=30)
        parser.add_argument("--rounds", type=int, default=100, help="rounds per table per day")
        parser.add_argument("--cash-ins", type=int, default=30, help="per table per day")
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--seed", type=int, default=2024)

    def handle(self, *args, **o):
        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            raise CommandError("bench_cashdesk needs DATABASE_URL (PostgreSQL).")
        LiveBench()._bench_database(os.environ["DATABASE_URL"])
        started = time.perf_counter()
        last_day = self._seed(o)
        seeded = time.perf_counter() - started
        with connections["default"].cursor() as cursor:
            cursor.execute("ANALYZE")
        first_day = last_day - dt.timedelta(days=o["days"] - 1)

        def day_report():
            report = selectors.cash_report(first=last_day, last=last_day)
            selectors.hourly(gaming_day=last_day)
            selectors.open_exceptions(gaming_day=last_day)
            return report

        def month_report():
            selectors.cash_report(first=first_day, last=last_day, group="day")
            return selectors.cash_report(first=first_day, last=last_day)

        result = {
            "tables": o["tables"],
            "days": o["days"],
            "rounds_per_table_day": o["rounds"],
            "cash_ins_per_table_day": o["cash_ins"],
            "seed_seconds": round(seeded, 1),
            "day_report": self._time(day_report, o["repeat"]),
            "month_report": self._time(month_report, o["repeat"]),
        }
        report = month_report()
        result["month_win"] = str(report["total"].win)
        result["month_lines"] = len(report["lines"])
        self.stdout.write(json.dumps(result, indent=2))

    def _time(self, fn, repeat: int) -> dict:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return {"best": round(min(times), 3), "median": round(statistics.median(times), 3)}

    def _seed(self, o) -> dt.date:

        rng = random.Random(o["seed"])
        edge = house_edge({"preset": "standard"})
        today = gaming_day_of(timezone.now())
        days = [today - dt.timedelta(days=o["days"] - i) for i in range(o["days"])]
        staff = [User.objects.create(username=f"bench{i}") for i in range(4)]
        dealer, observer, inspector, duty = staff
        pits = [Pit.objects.create(name=f"Pit {i + 1}") for i in range((o["tables"] + 9) // 10)]
        tables = Table.objects.bulk_create(
            Table(
                pit=pits[i // 10],
                number=i + 1,
                min_bet=Decimal(100),
                max_bet=Decimal(50000),
                rules={"preset": "standard"},
                status=Table.Status.OPEN,
                chip_denominations=["100", "500", "1000", "5000"],
            )
            for i in range(o["tables"])
        )
        shoes = Shoe.objects.bulk_create(
            Shoe(
                table=t,
                number=1,
                decks=6,
                reason=Shoe.Reason.NEW_SHOE,
                shuffled_by=dealer,
                cards_behind_cut=80,
            )
            for t in tables
        )
        round_number = {t.pk: 0 for t in tables}
        for day in days:
            start, _ = day_window(day)
            counts, cash_ins, tips, slips, drops, rounds = [], [], [], [], [], []
            for table, shoe in zip(tables, shoes, strict=True):
                opener = Decimal(500000)
                counts.append(
                    ChipCount(
                        table=table,
                        kind="opener",
                        counts={"1000": 500},
                        total=opener,
                        counted_by=inspector,
                        counted_at=start + dt.timedelta(minutes=5),
                    )
                )
                sold = Decimal(0)
                for _ in range(o["cash_ins"]):
                    amount = Decimal(rng.choice([1000, 2000, 5000, 10000, 20000]))
                    at = start + dt.timedelta(minutes=rng.randrange(10, 20 * 60))
                    sold += amount
                    cash_ins.append(
                        CashIn(
                            table=table,
                            gaming_day=day,
                            shift=1 + (at - start).seconds // (8 * 3600),
                            notes={"1000": int(amount // 1000)},
                            amount=amount,
                            chips={"1000": int(amount // 1000)},
                            chips_total=amount,
                            status=CashIn.Status.CONFIRMED,
                            entered_by=dealer,
                            entered_at=at,
                            recount_notes={"1000": int(amount // 1000)},
                            recount_amount=amount,
                            recounted_by=observer,
                            recounted_at=at,
                        )
                    )
                for _ in range(5):
                    at = start + dt.timedelta(minutes=rng.randrange(10, 20 * 60))
                    tips.append(
                        Tip(
                            table=table,
                            gaming_day=day,
                            shift=1,
                            box=rng.randint(1, 7),
                            amount=Decimal(100),
                            recorded_by=dealer,
                            recorded_at=at,
                        )
                    )
                net_total = Decimal(0)
                for _ in range(o["rounds"]):
                    round_number[table.pk] += 1
                    hands = rng.randint(1, 7)
                    bet = Decimal(rng.choice([100, 200, 500, 1000])) * hands
                    net = Decimal(rng.choice([-1, -1, 0, 1])) * bet
                    net_total += net
                    at = start + dt.timedelta(minutes=rng.randrange(10, 20 * 60))
                    rounds.append((table, shoe, round_number[table.pk], hands, bet, net, at))
                fill = Decimal(100000)
                closer = opener + fill - sold - net_total
                credit = Decimal(0)
                if closer > opener:
                    credit = ((closer - opener) // 1000) * 1000
                    closer -= credit
                for kind, total in (("fill", fill), ("credit", credit)):
                    if not total:
                        continue
                    at = start + dt.timedelta(hours=10)
                    slips.append(
                        Slip(
                            kind=kind,
                            gaming_day=day,
                            number=len(slips) + 1,
                            table=table,
                            counts={"1000": int(total // 1000)},
                            total=total,
                            requested_by=inspector,
                            requested_at=at,
                            issued_by=duty,
                            issued_at=at,
                            received_by=dealer,
                            received_at=at,
                            status=Slip.Status.RECEIVED,
                        )
                    )
                counts.append(
                    ChipCount(
                        table=table,
                        kind="closer",
                        counts={},
                        total=closer,
                        counted_by=inspector,
                        counted_at=start + dt.timedelta(hours=21),
                    )
                )
                drops.append(
                    DropCount(
                        table=table,
                        gaming_day=day,
                        amount=sold,
                        counted_by=duty,
                        entered_at=start + dt.timedelta(hours=23),
                    )
                )
            with transaction.atomic():
                ChipCount.objects.bulk_create(counts, batch_size=2000)
                CashIn.objects.bulk_create(cash_ins, batch_size=2000)
                Tip.objects.bulk_create(tips, batch_size=2000)
                # numbers are unique per kind and day
                for kind in ("fill", "credit"):
                    for i, s in enumerate(x for x in slips if x.kind == kind):
                        s.number = i + 1
                Slip.objects.bulk_create(slips, batch_size=2000)
                DropCount.objects.bulk_create(drops, batch_size=2000)
                made = Round.objects.bulk_create(
                    (
                        Round(
                            table=t,
                            shoe=s,
                            number=n,
                            status=Round.Status.CLOSED,
                            snapshot={},
                            version=n,
                            opened_by=dealer,
                            closed_at=at,
                            players_net=net,
                            total_bet=bet,
                        )
                        for t, s, n, _h, bet, net, at in rounds
                    ),
                    batch_size=5000,
                )
                RoundResult.objects.bulk_create(
                    (
                        RoundResult(
                            round=r,
                            table=t,
                            gaming_day=day,
                            shift=1 + (at - day_window(day)[0]).seconds // (8 * 3600),
                            closed_at=at,
                            hands=h,
                            total_bet=bet,
                            players_net=net,
                            theoretical_win=(bet * edge).quantize(Decimal("0.01")),
                        )
                        for r, (t, _s, _n, h, bet, net, at) in zip(made, rounds, strict=True)
                    ),
                    batch_size=5000,
                )
            self.stderr.write(f"seeded {day}")
        return days[-1]
