"""Rated play: a player seated and leaving by a tap on the tablet, his figures after each
round (splits and doubles included), and his rating continued when he moves tables."""

from decimal import Decimal

import pytest

from cashdesk import services as cash
from game.commands.messages import error_text
from game.configuration.services import house_edge
from game.models import Player, RatingSession
from game.players import player_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def known(db):
    return Player.objects.create(card="PC-1", name="Ivan Petrov")


def seat(desk, seat, card=""):
    return desk.send("player-in", seat=seat, player_card=card)


def session_of(seat):
    return RatingSession.objects.get(seat=seat, ended_at__isnull=True)


def play_split_and_double(desk):
    """Box 1 (A, 100): 8-8 split, both hands win; box 2 (B, 50): 5-6 doubled, wins; the
    dealer busts."""
    desk.start_round()
    desk.ok("bet", box=1, seat="A", stake="100")
    desk.ok("bet", box=2, seat="B", stake="50")
    desk.ok("close-bets")
    desk.cards("8h", "5c", "6d", "8s", "6h")  # box 1, box 2, the dealer, box 1, box 2
    desk.ok("split")
    desk.cards("Th")
    desk.ok("stand")
    desk.cards("9c")
    desk.ok("stand")
    desk.ok("double")
    desk.cards("9d")
    desk.cards("Tc", "9h")  # the dealer: 6, 16, 25
    desk.ok("confirm-settlement")


def test_a_seated_player_is_rated_after_a_split_and_a_double(dealer_desk, known, table):
    assert seat(dealer_desk, "A", "PC-1").ok
    assert seat(dealer_desk, "B").ok  # anonymous: his seat label
    play_split_and_double(dealer_desk)
    edge = house_edge(table.rules)
    a, b = session_of("A"), session_of("B")
    assert (a.player, a.rounds, a.stakes, a.hands, a.box_numbers) == (known, 1, 1, 2, [1])
    assert (a.total_bet, a.players_net) == (Decimal("100"), Decimal("200"))
    assert a.theoretical_win == (Decimal("100") * edge).quantize(Decimal("0.0001"))
    assert (b.player, b.rounds, b.stakes, b.hands, b.total_bet, b.players_net) == (
        None,
        1,
        1,
        1,
        Decimal("50"),
        Decimal("100"),
    )


def test_rounds_add_up_and_a_shared_box_counts_each_share(dealer_desk, known):
    seat(dealer_desk, "A", "PC-1")
    for stakes in ({1: "100", 3: "20"}, {1: "40"}):
        dealer_desk.start_round()
        for box, stake in stakes.items():
            dealer_desk.ok("bet", box=box, seat="A", stake=stake)
        dealer_desk.ok("bet", box=1, seat="Z", stake="10")  # another player shares box 1
        dealer_desk.ok("close-bets")
        cards = ["Th", "9c", "7d", "8h", "9s"] if 3 in stakes else ["Th", "7d", "8h"]
        dealer_desk.cards(*cards)
        for _box in stakes:
            dealer_desk.ok("stand")
        dealer_desk.cards("Tc")  # the dealer: 17
        dealer_desk.ok("confirm-settlement")
    a = session_of("A")
    assert (a.rounds, a.stakes, a.hands, a.box_numbers) == (2, 3, 3, [1, 3])
    assert a.total_bet == Decimal("160")
    # round 1: box 1 (18) wins 110, A's share 100; box 3 (19) wins 20; round 2: 40 wins
    assert a.players_net == Decimal("160")
    page = player_page(player=known)
    assert page["day"]["average_bet"] == Decimal("53.33")
    assert page["day"]["hands"] == 3


def test_a_player_who_moves_tables_continues_his_rating(dealer_desk, staffed_table, known, crew):
    other, desks = staffed_table(2)
    seat(dealer_desk, "A", "PC-1")
    table = dealer_desk.table
    table.chip_denominations = ["100"]
    table.save(update_fields=["chip_denominations"])
    cash.cash_in_record(
        table=table, actor=crew["dealer"], notes={"100": 2}, chips={"100": 2}, player_card="PC-1"
    )
    assert seat(desks["dealer"], "3", "PC-1").ok
    first = RatingSession.objects.get(table=dealer_desk.table)
    second = RatingSession.objects.get(table=other)
    assert first.ended_at is not None and first.moved_to == other
    assert second.continued_from == first and second.ended_at is None
    page = player_page(player=known)
    assert page["day"]["sessions"] == 2
    assert page["day"]["cash_ins"] == Decimal("200")
    assert [row["table"] for row in page["per_table"]] == [dealer_desk.table, other]
    # the first table may seat someone else as A again
    assert seat(dealer_desk, "A").ok


def test_leaving_closes_the_session_with_the_chips_taken(dealer_desk, observer_desk, known):
    seat(observer_desk, "A", "PC-1")
    session = session_of("A")
    assert observer_desk.send("player-out", session=session.pk, chips_taken="1 250,50").ok
    session.refresh_from_db()
    assert session.ended_at is not None and session.chips_taken == Decimal("1250.50")


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"seat": "A", "player_card": "NO-SUCH"}, "unknown_player_card"),
        ({"seat": " ", "player_card": "PC-1"}, "seat_required"),
    ],
)
def test_bad_seating_is_refused_and_nothing_changes(dealer_desk, known, fields, code):
    outcome = dealer_desk.send("player-in", **fields)
    assert (outcome.ok, outcome.code) == (False, code)
    # the screen shows the message for the code, in the croupier's language
    assert error_text(outcome.code, outcome.params) != error_text("no-such-code")
    assert not RatingSession.objects.exists()


def test_a_seat_or_a_player_is_seated_once_per_table(dealer_desk, known):
    seat(dealer_desk, "A", "PC-1")
    assert seat(dealer_desk, "A").code == "seat_taken"
    assert seat(dealer_desk, "B", "PC-1").code == "player_seated"
    assert RatingSession.objects.count() == 1


def test_closing_a_closed_session_is_refused(dealer_desk, known):
    seat(dealer_desk, "A", "PC-1")
    session = session_of("A")
    assert dealer_desk.send("player-out", session=session.pk).ok
    again = dealer_desk.send("player-out", session=session.pk)
    assert (again.ok, again.code) == (False, "session_closed")
    bad = dealer_desk.send("player-out", session="abc")
    assert (bad.ok, bad.code) == (False, "no_such_session")


def test_bad_chips_taken_leave_the_session_open(dealer_desk):
    seat(dealer_desk, "A")
    session = session_of("A")
    outcome = dealer_desk.send("player-out", session=session.pk, chips_taken="lots")
    assert (outcome.ok, outcome.code) == (False, "not_an_amount")
    assert session_of("A").pk == session.pk


def test_only_the_tables_croupiers_seat_and_unseat(dealer_desk, inspector_desk, staffed_table):
    _other, desks = staffed_table(2)
    seat(dealer_desk, "A")
    session = session_of("A")
    assert seat(inspector_desk, "B").code == "not_your_action"
    # a croupier of another table cannot close it through his own table ...
    assert desks["dealer"].send("player-out", session=session.pk).code == "no_such_session"
    # ... nor through this one
    from tests.game.conftest import Desk

    intruder = Desk(dealer_desk.table, desks["dealer"].user)
    assert intruder.send("player-out", session=session.pk).code == "not_your_action"
    assert session_of("A").ended_at is None


def test_the_tile_and_the_table_screens_show_the_players_at_the_table(dealer_desk, known):
    from game.screens.publish import render_fragment, table_view

    seat(dealer_desk, "A", "PC-1")
    seat(dealer_desk, "1")
    view = table_view(dealer_desk.table.pk)
    tile = render_fragment(view, "tile", "en")
    assert 'data-testid="tile-player-A"' in tile and "Ivan Petrov" in tile
    assert 'data-testid="tile-player-1"' in tile
    live = render_fragment(view, "live", "en")
    assert "2 rated players" in live
    assert 'value="2" data-testid="player-in-seat"' in live  # the next free seat label
    dealer_desk.ok("player-out", session=session_of("A").pk)
    tile = render_fragment(table_view(dealer_desk.table.pk), "tile", "en")
    assert 'data-testid="tile-player-A"' not in tile


def test_a_rating_session_cannot_be_edited_or_deleted_in_the_admin(
    client, dealer_desk, known, make_user
):
    from django.urls import reverse

    seat(dealer_desk, "P1", "PC-1")
    session = session_of("P1")
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    assert (
        client.get(reverse("admin:game_ratingsession_delete", args=[session.pk])).status_code == 403
    )
    response = client.post(
        reverse("admin:game_ratingsession_delete", args=[session.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert RatingSession.objects.filter(pk=session.pk).exists()
