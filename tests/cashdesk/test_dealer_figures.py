"""The dealer's own figures (issue 23 item 10): per dealing croupier and shift, from the rounds
he dealt and their event log (game.dealers.figures; docs/cashdesk.md, "The dealer's
figures")."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from floor.gaming import day_window, gaming_day_of, shift_of
from game.dealers.figures import dealer_figures
from game.models import Round, RoundEvent
from tests.desk import current_round

pytestmark = pytest.mark.django_db


def _timed(round_row, opened_at, step=10):
    """Pin the round's times: its n-th event ``step`` × n seconds after ``opened_at``."""
    events = RoundEvent.objects.filter(round=round_row)
    for event in events:
        events.filter(pk=event.pk).update(
            created_at=opened_at + dt.timedelta(seconds=step * event.seq)
        )
    last = events.order_by("-seq").first().seq
    Round.objects.filter(pk=round_row.pk).update(
        opened_at=opened_at, closed_at=opened_at + dt.timedelta(seconds=step * last)
    )


def play_three_rounds(dealer_desk, observer_desk, inspector_desk):
    """Two rounds closed (four decisions, one a hit, one card corrected, one flag) and one
    voided: what the figures below are counted from."""
    dealer_desk.start_round({1: 100, 3: 200})
    observer_desk.ok("flag", note="Box 3 stake looks short")
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "Ad", "6d", "9c", "8h")  # box 1: 19, box 3: soft 19, dealer 6
    dealer_desk.ok("stand")
    dealer_desk.ok("stand")
    dealer_desk.cards("5s", "Kc")  # the dealer's 21: the house wins 300
    dealer_desk.ok("confirm-settlement")
    first = current_round(dealer_desk.table)
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("5h", "9d", "6c")  # box 1: 11 against a 9
    dealer_desk.ok("card", card="2s")  # a hit...
    dealer_desk.ok("correct-card", card="5s")  # ... corrected: 16
    dealer_desk.ok("stand")
    dealer_desk.cards("8c")  # the dealer's 17: the house wins 100
    dealer_desk.ok("confirm-settlement")
    second = current_round(dealer_desk.table)
    dealer_desk.start_round({2: 100})
    inspector_desk.ok("void", reason="Misdeal")
    third = current_round(dealer_desk.table)
    return first, second, third


def test_the_figures_of_a_dealer_in_his_shift(dealer_desk, observer_desk, inspector_desk, crew):
    first, second, third = play_three_rounds(dealer_desk, observer_desk, inspector_desk)
    # half an hour into today's gaming day: all three rounds in its first shift
    start = day_window(gaming_day_of(timezone.now()))[0] + dt.timedelta(minutes=30)
    _timed(first, start)  # 14 events: 140 s
    _timed(second, start + dt.timedelta(minutes=10))
    _timed(third, start + dt.timedelta(minutes=20))
    day = gaming_day_of(start)
    report = dealer_figures(first=day, last=day)
    (line,) = report["lines"]
    assert (line.username, line.day, line.shift) == ("dealer", day, shift_of(start))
    assert line.table_names == str(dealer_desk.table)
    assert (line.rounds, line.voids, line.hands) == (2, 1, 3)
    assert (line.corrections, line.flags) == (1, 1)
    assert line.result == Decimal("400")
    # the stands of round 1 come 10 and 20 s after the last card; in round 2 the hit 10 s after
    # the deal, the stand 10 s after the correction
    assert line.decisions == 4 and line.decision_average == pytest.approx(12.5)
    # at the table from the first round's opening to the void's end: 20 min + 3 events
    assert line.seconds == 20 * 60 + 30
    assert line.rounds_per_hour == pytest.approx(2 / (1230 / 3600))
    assert line.hands_per_hour == pytest.approx(3 / (1230 / 3600))
    (dealer,) = report["dealers"]
    assert (dealer.rounds, dealer.result) == (2, Decimal("400"))
    assert report["total"].rounds == 2


def test_another_day_and_an_open_round_are_not_counted(dealer_desk, observer_desk, inspector_desk):
    play_three_rounds(dealer_desk, observer_desk, inspector_desk)
    dealer_desk.start_round({1: 100})  # open: not counted until it ends
    today = gaming_day_of(timezone.now())
    assert sum(line.rounds for line in dealer_figures(first=today, last=today)["lines"]) == 2
    other = today - dt.timedelta(days=3)
    assert dealer_figures(first=other, last=other)["lines"] == []


def test_the_screen_and_its_downloads_in_both_languages(
    client, dealer_desk, observer_desk, inspector_desk, crew
):
    import csv
    import io

    from django.urls import reverse
    from openpyxl import load_workbook

    play_three_rounds(dealer_desk, observer_desk, inspector_desk)
    day = gaming_day_of(timezone.now()).isoformat()
    client.force_login(crew["duty"])
    home = client.get(reverse("cashdesk:duty_home")).content.decode()
    assert 'data-testid="dealers-link"' in home
    url = reverse("game:dealers")
    for language, words in (("en", "Rounds per hour"), ("ru", "Розыгрышей в час")):
        page = client.get(url, {"day": day}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words in page, language
        assert 'data-dealer="dealer"' in page
    en = {"HTTP_ACCEPT_LANGUAGE": "en"}
    xlsx = client.get(reverse("game:dealers_export"), {"day": day}, **en)
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")
    rows = list(load_workbook(io.BytesIO(xlsx.content)).active.iter_rows(values_only=True))
    header, line = rows[0], rows[1]
    assert line[header.index("Rounds")] == 2 and line[header.index("Voids")] == 1
    assert line[header.index("Result (house)")] == 400  # a number, not a text
    raw = client.get(reverse("game:dealers_export"), {"day": day, "format": "csv"}, **en).content
    assert raw.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert table[0][:4] == ["Dealer", "Gaming day", "Shift", "Tables"]
    assert table[-1][0] == "Total"
    # a period that does not read is refused in words, with no figures
    refused = client.get(url, {"day": "2026-13-40"})
    assert refused.status_code == 400 and 'data-testid="error"' in refused.content.decode()
    month = client.get(url, {"month": day[:7]}).content.decode()
    assert 'data-dealer="dealer"' in month
