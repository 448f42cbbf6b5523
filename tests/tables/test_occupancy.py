"""docs/sources.md#lone-player-bets-every-box: a lone player with free boxes must bet on all
of them — the tablet prompts and the croupier acknowledges before bets close."""

from game.publish import render_fragment, table_view


def test_lone_player_with_free_boxes_needs_an_acknowledgement(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 100})
    dealer_desk.ok("bet", box=2, seat="P1", stake="100")
    dealer_desk.ok("remove-share", box=2, seat="P2")
    html = render_fragment(table_view(table.pk), "live", "en")
    assert 'data-testid="occupancy-prompt"' in html
    refused = dealer_desk.send("close-bets", occupancy_acknowledged="")
    assert (refused.ok, refused.code) == (False, "lone_player_free_boxes")
    assert refused.params["boxes"] == "3, 4, 5, 6, 7"
    dealer_desk.ok("close-bets", occupancy_acknowledged="1")


def test_two_players_close_bets_without_a_prompt(dealer_desk, table):
    dealer_desk.start_round({1: 100, 2: 100})
    html = render_fragment(table_view(table.pk), "live", "en")
    assert 'data-testid="occupancy-prompt"' not in html
    dealer_desk.ok("close-bets", occupancy_acknowledged="")


def test_reserved_boxes_are_not_free(dealer_desk, observer_desk, table):
    for box in (2, 3, 4, 5, 6, 7):
        observer_desk.ok("reserve", box=box)
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets", occupancy_acknowledged="")
