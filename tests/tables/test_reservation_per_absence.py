"""docs/sources.md#box-reservation: a token holds a box twenty minutes at most in one absence
of its player — a new token right after one ran out holds only what is left — and longer only
by the inspector's renewal, with his note."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from game.commands.messages import error_text
from tables.models import Reservation
from tables.services import reservation_expire_due

pytestmark = pytest.mark.django_db


def _run_out(table, box, held=timedelta(minutes=20)):
    """The token on ``box`` was put ``held`` ago and its time is up now: the worker ends it."""
    now = timezone.now()
    token = Reservation.objects.get(table=table, box=box, ended_at__isnull=True)
    length = token.expires_at - token.placed_at
    Reservation.objects.filter(pk=token.pk).update(
        placed_at=now - held, expires_at=now - held + length
    )
    reservation_expire_due(now=now)
    token.refresh_from_db()
    assert token.end_reason == "expired"
    return token


def _held(table, box):
    token = Reservation.objects.get(table=table, box=box, ended_at__isnull=True)
    return token.expires_at - token.placed_at


def test_a_new_token_right_after_one_ran_out_is_refused(observer_desk, table):
    observer_desk.ok("reserve", box=3, seat="Ivan")
    _run_out(table, 3)
    refused = observer_desk.send("reserve", box=3, seat="Ivan")
    assert (refused.ok, refused.code) == (False, "reservation_absence_over")
    assert refused.params == {"box": "3", "minutes": "20", "most": "20"}
    with translation.override("en"):
        assert error_text(refused.code, refused.params) == (
            "Box 3 has been held 20 minutes in this player's absence: 20 at most. Only the "
            "inspector can hold it longer, with a note."
        )
    with translation.override("ru"):
        assert "инспектор" in error_text(refused.code, refused.params)
    refused = observer_desk.send("reserve", box=3)  # no seat named: the same box's player
    assert refused.code == "reservation_absence_over"
    assert Reservation.objects.filter(table=table, box=3).count() == 1


def test_a_second_token_holds_what_is_left_of_the_absence(observer_desk, table):
    observer_desk.ok("reserve", box=2, seat="Olga", minutes="5")
    _run_out(table, 2, held=timedelta(minutes=5))
    observer_desk.ok("reserve", box=2, seat="Olga")
    assert timedelta(minutes=14, seconds=58) < _held(table, 2) <= timedelta(minutes=15)


def test_a_player_back_or_another_player_starts_a_new_absence(observer_desk, dealer_desk, table):
    observer_desk.ok("reserve", box=4, seat="Ivan")
    observer_desk.ok("release", box=4)  # he came back
    observer_desk.ok("reserve", box=4, seat="Ivan")
    assert _held(table, 4) == timedelta(minutes=20)
    _run_out(table, 4)
    observer_desk.ok("reserve", box=4, seat="Olga")  # another player
    assert _held(table, 4) == timedelta(minutes=20)
    _run_out(table, 4)
    dealer_desk.start_round({4: 100})  # the box played: whoever sits there came back
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "7d", "9c")
    dealer_desk.ok("stand")
    dealer_desk.cards("Ks")
    dealer_desk.ok("confirm-settlement")
    observer_desk.ok("reserve", box=4, seat="Olga")
    assert _held(table, 4) == timedelta(minutes=20)


def test_the_inspector_renews_with_a_note(observer_desk, inspector_desk, table):
    observer_desk.ok("reserve", box=5, seat="Ivan")
    _run_out(table, 5)
    assert observer_desk.send("renew-reservation", box=5, note="x").code == "not_your_action"
    no_note = inspector_desk.send("renew-reservation", box=5, note=" ")
    assert (no_note.ok, no_note.code) == (False, "renewal_note_required")
    inspector_desk.ok("renew-reservation", box=5, note="at the cage, changing money")
    token = Reservation.objects.get(table=table, box=5, ended_at__isnull=True)
    assert (token.seat, token.renewed_by, token.renewal_note) == (
        "Ivan",
        inspector_desk.user,
        "at the cage, changing money",
    )
    assert token.expires_at - token.placed_at == timedelta(minutes=20)
    _run_out(table, 5)
    refused = observer_desk.send("reserve", box=5, seat="Ivan")
    assert refused.code == "reservation_absence_over"
    assert refused.params["minutes"] == "40"


def test_the_inspector_renews_a_token_still_running(observer_desk, inspector_desk, table):
    observer_desk.ok("reserve", box=6, seat="Vera", minutes="3")
    inspector_desk.ok("renew-reservation", box=6, note="phone call", minutes="10")
    ended, running = Reservation.objects.filter(table=table, box=6).order_by("placed_at", "pk")
    assert ended.end_reason == "renewed" and ended.ended_by == inspector_desk.user
    assert running.renewed_by == inspector_desk.user and running.seat == "Vera"
    assert running.expires_at - running.placed_at == timedelta(minutes=10)


def test_nothing_to_renew_on_a_free_box(inspector_desk, observer_desk, table):
    refused = inspector_desk.send("renew-reservation", box=1, note="why not")
    assert (refused.ok, refused.code) == (False, "nothing_to_renew")
    observer_desk.ok("reserve", box=1)
    observer_desk.ok("release", box=1)
    assert inspector_desk.send("renew-reservation", box=1, note="n").code == "nothing_to_renew"
    assert inspector_desk.send("renew-reservation", box=9, note="n").code == "unknown_box"


def test_every_screen_shows_the_renewal_and_the_inspector_has_its_form(
    observer_desk, inspector_desk, table
):
    from game.screens.publish import render_fragment, table_view

    observer_desk.ok("reserve", box=2, seat="Ivan")
    inspector_desk.ok("renew-reservation", box=2, note="at the cage")
    view = table_view(table.pk)
    html = {lang: render_fragment(view, "live", lang) for lang in ("en", "ru")}
    assert "renewed by the inspector: at the cage" in html["en"]
    assert "продлено инспектором: at the cage" in html["ru"]
    inspector = render_fragment(view, "live-inspector", "en")
    assert 'name="action" value="renew-reservation"' in inspector
    assert 'name="action" value="renew-reservation"' not in html["en"]  # the dealer's tablet
