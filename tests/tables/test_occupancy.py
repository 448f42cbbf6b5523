"""docs/sources.md#lone-player-bets-every-box: a lone player with free boxes who wants the
table to himself must bet on every box; one who does not leaves them open to other players —
bets close only once the croupier has said which, and the round's log records it."""

from django.utils import translation

from game.commands.messages import error_text
from game.models import RoundEvent
from game.replay import step_text
from game.screens.publish import render_fragment, table_view
from tests.desk import current_round


def test_a_lone_player_with_free_boxes_says_which_before_bets_close(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 100})
    dealer_desk.ok("bet", box=2, seat="P1", stake="100")
    dealer_desk.ok("remove-share", box=2, seat="P2")
    html = render_fragment(table_view(table.pk), "live", "en")
    assert 'data-testid="occupancy-prompt"' in html
    assert 'name="lone_player" value="shared"' in html
    refused = dealer_desk.send("close-bets", lone_player="")
    assert (refused.ok, refused.code) == (False, "lone_player_free_boxes")
    assert refused.params == {"seat": "P1", "boxes": "3, 4, 5, 6, 7"}
    with translation.override("en"):
        assert "If he wants the table to himself he must bet on every box" in error_text(
            refused.code, refused.params
        )
    with translation.override("ru"):
        assert "на всех боксах" in error_text(refused.code, refused.params)
    dealer_desk.ok("close-bets", lone_player="shared")
    event = RoundEvent.objects.get(round=current_round(table), type="close-bets")
    command = event.payload["command"]
    assert (command["lone_player"], command["free_boxes"]) == ("shared", "3, 4, 5, 6, 7")
    with translation.override("en"):
        assert step_text("close-bets", command, []) == (
            "Bets closed; the table's limits told to P1; the only player leaves boxes 3, 4, "
            "5, 6, 7 open to other players"
        )


def test_a_lone_player_who_wants_the_table_bets_on_every_box(dealer_desk, table):
    dealer_desk.start_round({1: 100})
    for box in (2, 3, 4, 5):
        dealer_desk.ok("bet", box=box, seat="P1", stake="100")
    refused = dealer_desk.send("close-bets", lone_player="alone")
    assert (refused.ok, refused.code) == (False, "lone_player_every_box")
    assert refused.params == {"seat": "P1", "boxes": "6, 7"}
    with translation.override("en"):
        assert error_text(refused.code, refused.params) == (
            "P1 wants the table to himself: he must bet on every box — boxes 6, 7 have no "
            "stake of his yet."
        )
    for box in (6, 7):
        dealer_desk.ok("bet", box=box, seat="P1", stake="100")
    html = render_fragment(table_view(table.pk), "live", "en")
    assert 'data-testid="occupancy-prompt"' not in html  # no box is free: the table is his
    dealer_desk.ok("close-bets", lone_player="alone")
    event = RoundEvent.objects.get(round=current_round(table), type="close-bets")
    assert "lone_player" not in event.payload["command"]  # nothing was free: nothing to say


def test_two_players_close_bets_without_a_prompt(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 100})
    html = render_fragment(table_view(table.pk), "live", "en")
    assert 'data-testid="occupancy-prompt"' not in html
    dealer_desk.ok("close-bets", lone_player="")
    event = RoundEvent.objects.get(round=current_round(table), type="close-bets")
    assert "lone_player" not in event.payload["command"]


def test_reserved_boxes_are_not_free(dealer_desk, observer_desk, table):
    for box in (2, 3, 4, 5, 6, 7):
        observer_desk.ok("reserve", box=box)
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets", lone_player="")
