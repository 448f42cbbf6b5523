"""The table procedures of the documents, each as its preset plays it and as a house
overrides it (issue 13, items 7-14; docs/engine.md, "Table procedures")."""

import re

import pytest
from django.utils import translation

from game.commands.messages import error_text
from game.configuration.services import table_configure
from game.engine import Rules
from game.models import LiveTable
from game.table.cuts import cut_limits
from tables import services as table_services
from tables.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_table(table, crew):
    table.status = Table.Status.CLOSED
    table.chip_denominations = ["5", "25", "100"]
    table.save()
    return table


def shoe_of(table):
    return LiveTable.objects.get(pk=table.pk).current_shoe


# -- 7. the cut card: where it goes, by variant ---------------------------------------------


def test_the_cut_card_limits_by_variant():
    assert cut_limits(6) == (78, 104)  # 000: a quarter to a third of 312 cards
    assert cut_limits(6, "near-end") == (26, 50)  # 003: near the end, up to fifty cards
    assert cut_limits(7, "near-end") == (26, 50)
    assert cut_limits(1, "near-end") == (26, 26)  # never more than half a small pack
    assert Rules.preset("standard").cut_card == "quarter-third"
    assert Rules.preset("hole-card").cut_card == "near-end"
    assert Rules.preset("open-cards").cut_card == "quarter-third"


@pytest.mark.parametrize("behind", [25, 51, 80])
def test_a_hole_card_table_cuts_near_the_end(staffed_table, behind):
    table, desks = staffed_table(6, rules={"preset": "hole-card"})
    refused = desks["dealer"].send(
        "shuffle", reason="new_shoe", cards_behind_cut=behind, burn_card="5c"
    )
    assert not refused.ok and refused.code == "bad_cut"
    assert refused.params == {"low": "26", "high": "50"}
    desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=40, burn_card="5c")
    assert shoe_of(table).cards_behind_cut == 40


def test_a_house_override_gives_a_hole_card_table_the_quarter_to_a_third(staffed_table):
    rules = {"preset": "hole-card", "cut_card": "quarter-third"}
    table, desks = staffed_table(6, rules=rules)
    refused = desks["dealer"].send(
        "shuffle", reason="new_shoe", cards_behind_cut=40, burn_card="5c"
    )
    assert not refused.ok and refused.code == "bad_cut"
    desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=90, burn_card="5c")


def test_a_standard_table_refuses_a_near_end_cut_unless_overridden(staffed_table):
    table, desks = staffed_table(6)
    refused = desks["dealer"].send("shuffle", reason="new_shoe", cards_behind_cut=40)
    assert not refused.ok and refused.code == "bad_cut"
    other, other_desks = staffed_table(7, rules={"preset": "standard", "cut_card": "near-end"})
    other_desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=40)


def test_seven_decks_where_003_allows_and_the_checklist_counts_them(closed_table, crew):
    table_configure(
        table=closed_table, changed_by=crew["pitboss"], rules={"preset": "hole-card", "decks": 7}
    )
    closed_table.refresh_from_db()
    assert closed_table.decks == 7
    checklist = table_services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    row = table_services.checklist_step_record(
        checklist=checklist,
        step="cards",
        done_by=crew["pitboss"],
        data={"decks": 7, "spread_checked": True},
    )
    assert row.details["decks"] == 7
    assert Table.objects.get(pk=closed_table.pk).decks == 7


# -- 9. a re-shuffle at a player's request ---------------------------------------------------


def _play_one_round(desk, seats):
    """A round where each of ``seats`` bets on its own box; everybody stands, all settled."""
    desk.ok("open-round")
    for box, seat in enumerate(seats, start=1):
        desk.ok("bet", box=box, seat=seat, stake="100")
    desk.ok("close-bets")
    desk.cards(*["Th"] * len(seats), "7d", *["9c"] * len(seats))
    for _ in seats:
        desk.ok("stand")
    desk.cards("Ks")
    desk.ok("confirm-settlement")


def test_several_players_get_one_reshuffle_per_shoe_and_are_told_why(dealer_desk, table):
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _play_one_round(dealer_desk, ["Anna", "Boris"])
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)  # repeats it
    again = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert not again.ok and again.code == "reshuffle_limit"
    assert again.params == {"players": "2"}
    with translation.override("en"):
        text = error_text(again.code, again.params)
    assert "once per shoe" in text and "(players in the last round: 2)" in text
    with translation.override("ru"):
        assert "once per shoe" not in error_text(again.code, again.params)
    # a new shoe (the cut card came out, or a new pack) gives the right again
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)


def test_several_players_may_not_ask_for_a_shuffle_in_the_middle_of_a_shoe(dealer_desk, table):
    """Only the shuffle just made is repeated: once a round was played on the shoe, a
    request of one of several players is refused (only a lone player asks at any time)."""
    from game.models import Shoe

    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _play_one_round(dealer_desk, ["Anna", "Boris"])
    refused = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert (refused.ok, refused.code, refused.params) == (
        False,
        "reshuffle_not_just_shuffled",
        {"players": "2"},
    )
    with translation.override("en"):
        text = error_text(refused.code, refused.params)
    assert text.startswith("A player may only ask the dealer to repeat the shuffle he has just")
    assert "(players in the last round: 2)" in text
    with translation.override("ru"):
        assert "(игроков в последнем розыгрыше: 2)" in error_text(refused.code, refused.params)
    assert Shoe.objects.filter(table=table).count() == 1
    _play_one_round(dealer_desk, ["Anna"])  # Boris left: Anna is alone now
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)


def test_no_player_request_without_a_shoe_to_repeat(dealer_desk, table):
    refused = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert (refused.ok, refused.code) == (False, "reshuffle_not_just_shuffled")


def test_a_lone_player_may_ask_between_any_two_rounds(dealer_desk, table):
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _play_one_round(dealer_desk, ["Solo", "Solo"])  # one player on two boxes
    for _ in range(3):
        dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)


def test_no_reshuffle_during_a_round_and_none_twice_before_anyone_played(dealer_desk, table):
    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    dealer_desk.ok("shuffle", reason="player_request", cards_behind_cut=80)
    twice = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert not twice.ok and twice.code == "reshuffle_limit"
    dealer_desk.ok("open-round")
    during = dealer_desk.send("shuffle", reason="player_request", cards_behind_cut=80)
    assert not during.ok and during.code == "round_in_progress"


# -- 10. the boxes one player may bet on (004) -----------------------------------------------


def test_an_open_cards_player_bets_on_three_boxes_at_most(staffed_table):
    table, desks = staffed_table(6, rules={"preset": "open-cards"})
    desk = desks["dealer"]
    desk.start_round()
    for box in (1, 2, 3):
        desk.ok("bet", box=box, seat="Anna", stake="100")
    desk.ok("bet", box=1, seat="Anna", stake="200")  # a new stake on one of her boxes
    refused = desk.send("bet", box=4, seat="Anna", stake="100")
    assert not refused.ok and refused.code == "box_limit"
    assert refused.params == {"box": "4", "seat": "Anna", "limit": "3", "boxes": "1, 2, 3"}
    with translation.override("en"):
        assert error_text(refused.code, refused.params) == (
            "Box 4: Anna already bets on boxes 1, 2, 3 — a player bets on 3 boxes at most "
            "at this table."
        )
    desk.ok("bet", box=4, seat="Boris", stake="100")  # another player
    joined = desk.send("bet", box=4, seat="Anna", stake="50")  # a share is a box too
    assert not joined.ok and joined.code == "box_limit"


def test_the_limit_counts_a_player_by_his_card_across_seat_labels(staffed_table):
    table, desks = staffed_table(6, rules={"preset": "open-cards"})
    desk = desks["dealer"]
    desk.start_round()
    for box, seat in ((1, "A1"), (2, "A2"), (3, "A3")):
        desk.ok("bet", box=box, seat=seat, stake="100", player_card="C-77")
    refused = desk.send("bet", box=5, seat="A5", stake="100", player_card="C-77")
    assert not refused.ok and refused.code == "box_limit"
    desk.ok("bet", box=5, seat="A5", stake="100", player_card="C-78")


def test_a_standard_table_has_no_limit_and_a_house_may_set_one(staffed_table):
    table, desks = staffed_table(6)
    desk = desks["dealer"]
    desk.start_round()
    for box in range(1, 8):
        desk.ok("bet", box=box, seat="Solo", stake="100")  # 000: any number of boxes
    other, other_desks = staffed_table(7, rules={"preset": "standard", "max_boxes_per_player": 2})
    other_desks["dealer"].start_round()
    other_desks["dealer"].ok("bet", box=1, seat="Solo", stake="100")
    other_desks["dealer"].ok("bet", box=2, seat="Solo", stake="100")
    refused = other_desks["dealer"].send("bet", box=3, seat="Solo", stake="100")
    assert not refused.ok and refused.code == "box_limit"


def test_an_open_cards_house_may_lift_the_limit(staffed_table):
    table, desks = staffed_table(6, rules={"preset": "open-cards", "max_boxes_per_player": 0})
    desks["dealer"].start_round()
    for box in range(1, 6):
        desks["dealer"].ok("bet", box=box, seat="Anna", stake="100")


# -- 11. a reservation token: twenty minutes at most, the observer may choose less -----------


def test_the_table_holds_a_box_twenty_minutes_at_most(closed_table, crew):
    from django.core.exceptions import ValidationError

    for field, value in (("reservation_minutes", 21), ("reservation_seconds", 1201)):
        with pytest.raises(ValidationError) as refusal:
            table_configure(table=closed_table, changed_by=crew["pitboss"], **{field: value})
        assert field in refusal.value.message_dict
    table_configure(table=closed_table, changed_by=crew["pitboss"], reservation_minutes=15)
    closed_table.refresh_from_db()
    assert closed_table.reservation_minutes == 15 and closed_table.reservation_max_minutes == 15
    # a row saved before the cap is read as twenty minutes
    Table.objects.filter(pk=closed_table.pk).update(reservation_minutes=45)
    closed_table.refresh_from_db()
    assert closed_table.reservation_max_minutes == 20


def test_the_observer_holds_a_box_for_the_tables_time_or_less(observer_desk, table):
    from datetime import timedelta

    from tables.models import Reservation

    observer_desk.ok("reserve", box=1, seat="Ivan")  # the table's time: twenty minutes
    observer_desk.ok("reserve", box=2, seat="Olga", minutes="5")
    held = {r.box: r.expires_at - r.placed_at for r in Reservation.objects.filter(table=table)}
    assert held == {1: timedelta(minutes=20), 2: timedelta(minutes=5)}
    for minutes in ("21", "0", "five"):
        refused = observer_desk.send("reserve", box=3, minutes=minutes)
        assert not refused.ok and refused.code == "bad_reservation_time"
        assert refused.params == {"most": "20"}
    assert not Reservation.objects.filter(table=table, box=3).exists()
    with translation.override("en"):
        assert error_text("bad_reservation_time", {"most": "20"}) == (
            "Hold the box for 1 to 20 minutes (the table's reservation time)."
        )


# -- 13. tips: an open table, a box that won, the three knocks -------------------------------


def _tip(client, table, **data):
    from django.urls import reverse

    from tests.cashdesk.conftest import once

    return client.post(reverse("cashdesk:tip", args=[table.pk]), once(data))


def test_a_tip_comes_from_a_box_that_won_the_last_round(client, dealer_desk, crew, table):
    from cashdesk.models import RoundResult, Tip

    table.chip_denominations = ["5", "25", "100"]
    table.save()
    dealer_desk.start_round({1: 100, 2: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "5c", "7d", "9c", "Tc")  # box 1: 19, box 2: 15; dealer 7
    dealer_desk.ok("stand")
    dealer_desk.ok("stand")
    dealer_desk.cards("Ks")  # dealer 17: box 1 wins, box 2 loses
    dealer_desk.ok("confirm-settlement")
    assert RoundResult.objects.get().winning_boxes == [1]
    client.force_login(crew["dealer"])
    response = _tip(client, table, box="1", amount="25")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()  # the dealer reads Russian
    assert "три раза стукнули по столу и опустили в кассу чаевых" in page
    refused = _tip(client, table, box="2", amount="25")
    assert refused.status_code == 400
    assert [(t.box, t.note) for t in Tip.objects.all()] == [(1, "")]
    _tip(client, table, box="2", amount="25", note="gave from his own chips")
    assert Tip.objects.filter(box=2).get().note == "gave from his own chips"


def test_no_tip_without_a_round_unless_noted_and_none_at_a_closed_table(crew, table):
    from django.core.exceptions import ValidationError

    from cashdesk import services as cash
    from cashdesk.models import Tip

    with pytest.raises(ValidationError) as refusal:
        cash.tip_record(table=table, actor=crew["dealer"], box=3, amount="10")
    assert refusal.value.code == "tip_note_required"
    cash.tip_record(table=table, actor=crew["dealer"], box=3, amount="10", note="regular")
    table.status = Table.Status.CLOSING
    table.save()
    with pytest.raises(ValidationError) as closed:
        cash.tip_record(table=table, actor=crew["dealer"], box=3, amount="10", note="regular")
    assert closed.value.code == "table_closed"
    assert Tip.objects.count() == 1


def test_the_tip_form_prompts_the_three_knocks_in_both_languages(client, crew, table):
    from django.urls import reverse

    client.force_login(crew["dealer"])
    pages = {}
    for language in ("en", "ru"):
        with translation.override(language):
            response = client.get(
                reverse("cashdesk:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language
            )
            pages[language] = response.content.decode()
    assert "Knock each chip on the table three times" in pages["en"]
    assert "три раза" in pages["ru"]


# -- 8. who cuts -----------------------------------------------------------------------------


def _cut_card_out_at(desk, where):
    """A round in which the cut card comes out at box 4 (``"box"``) or during the dealer's
    draw (``"dealer"``)."""
    desk.start_round({1: 100, 4: 100})
    desk.ok("close-bets")
    desk.cards("Th", "Tc", "7d", "9c")
    if where == "box":
        desk.ok("cut-card-out", confirmed="1")  # the next card is box 4's
    desk.cards("9d")
    desk.ok("stand")
    desk.ok("stand")
    if where == "dealer":
        desk.ok("cut-card-out", confirmed="1")
    desk.cards("Ks")
    desk.ok("confirm-settlement")


def test_the_box_where_the_cut_card_came_out_cuts_or_passes_the_right(dealer_desk, table):
    _cut_card_out_at(dealer_desk, "box")
    refused = dealer_desk.send("shuffle", reason="cut_card", cards_behind_cut=90, cut_by_box=1)
    assert not refused.ok and refused.code == "cut_not_entitled"
    assert refused.params == {"entitled": "4", "box": "1"}
    dealer_desk.ok("shuffle", reason="cut_card", cards_behind_cut=90, cut_by_box=1, cut_passed="1")
    shoe = shoe_of(table)
    assert (shoe.cut_entitled_box, shoe.cut_by_box, shoe.cut_passed) == (4, 1, True)


def test_the_entitled_box_cuts_itself(dealer_desk, table):
    _cut_card_out_at(dealer_desk, "box")
    dealer_desk.ok("shuffle", reason="cut_card", cards_behind_cut=90, cut_by_box=4, cut_passed="1")
    shoe = shoe_of(table)
    assert (shoe.cut_entitled_box, shoe.cut_by_box, shoe.cut_passed) == (4, 4, False)


def test_during_the_dealers_draw_the_dealer_chooses_who_cuts(dealer_desk, table):
    _cut_card_out_at(dealer_desk, "dealer")
    assert shoe_of(table).cut_card_out == {"dealer": True}
    dealer_desk.ok("shuffle", reason="cut_card", cards_behind_cut=90, cut_by_box=1)
    shoe = shoe_of(table)
    assert (shoe.cut_entitled_box, shoe.cut_by_box, shoe.cut_passed) == (None, 1, False)


def test_the_tablet_says_who_may_cut_in_both_languages(dealer_desk, table):
    from game.screens.publish import render_fragment, table_view

    _cut_card_out_at(dealer_desk, "box")
    view = table_view(table.pk)
    texts = {language: render_fragment(view, "live", language) for language in ("en", "ru")}
    assert "The cut card came out at box 4: that player cuts" in texts["en"]
    assert "Карта-разрезка вышла на боксе 4" in texts["ru"]


# -- 14. a newcomer on a free box; the dealer's double offer on 9-11 -------------------------


def _round_with(desk, bets):
    """A betting round with ``bets`` ({box: seat}), 100 each."""
    desk.ok("open-round")
    for box, seat in bets.items():
        desk.ok("bet", box=box, seat=seat, stake="100")


def _finish_two_box_round(desk):
    desk.ok("close-bets")
    desk.cards("Th", "Tc", "7d", "9c", "9d")
    desk.ok("stand")
    desk.ok("stand")
    desk.cards("Ks")
    desk.ok("confirm-settlement")


def test_a_newcomer_takes_a_free_box_with_the_seated_players_consent(dealer_desk, table):
    from game.models import RoundEvent
    from tests.game.conftest import current_round

    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _round_with(dealer_desk, {1: "Anna", 2: "Boris"})
    _finish_two_box_round(dealer_desk)
    _round_with(dealer_desk, {1: "Anna", 3: "Vera"})  # Vera is new, box 3 was free
    refused = dealer_desk.send("close-bets", newcomer_consent="")
    assert not refused.ok and refused.code == "newcomer_free_box"
    assert refused.params == {"seats": "Vera (3)"}
    with translation.override("en"):
        assert error_text(refused.code, refused.params).startswith(
            "New players took free boxes: Vera (3)."
        )
    dealer_desk.ok("close-bets", newcomer_consent="agreed")
    event = RoundEvent.objects.filter(round=current_round(table), type="close-bets").get()
    assert event.payload["command"]["newcomer_consent"] == "agreed"


def test_a_refusing_player_bets_on_the_free_box_himself(dealer_desk, table):
    from game.table.live import TableRound
    from tests.game.conftest import current_round

    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _round_with(dealer_desk, {1: "Anna", 2: "Boris"})
    _finish_two_box_round(dealer_desk)
    _round_with(dealer_desk, {1: "Anna", 2: "Boris", 3: "Vera"})
    not_seated = dealer_desk.send("newcomer-refused", box=3, seat="Gleb", stake="50")
    assert not not_seated.ok and not_seated.code == "not_seated"
    dealer_desk.ok("newcomer-refused", box=3, seat="Boris", stake="50")
    state = TableRound.from_dict(current_round(table).snapshot)
    assert [(s.seat, str(s.stake)) for s in state.shares[3]] == [("Boris", "50.00")]
    assert state.newcomers() == []
    dealer_desk.ok("close-bets", newcomer_consent="")  # nobody new is left on a free box


def test_no_consent_at_the_first_round_or_where_the_house_turns_it_off(staffed_table):
    table, desks = staffed_table(6, rules={"preset": "standard", "newcomer_consent": False})
    desk = desks["dealer"]
    desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _round_with(desk, {1: "Anna", 2: "Boris"})  # the first round: nobody is seated yet
    _finish_two_box_round(desk)
    _round_with(desk, {1: "Anna", 3: "Vera"})
    desk.ok("close-bets", newcomer_consent="")


def test_the_tablet_prompts_the_newcomer_rule_in_both_languages(dealer_desk, table):
    from game.screens.publish import render_fragment, table_view

    dealer_desk.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _round_with(dealer_desk, {1: "Anna", 2: "Boris"})
    _finish_two_box_round(dealer_desk)
    _round_with(dealer_desk, {1: "Anna", 3: "Vera"})
    view = table_view(table.pk)
    texts = {language: render_fragment(view, "live", language) for language in ("en", "ru")}
    assert 'data-testid="newcomer-prompt"' in texts["en"]
    assert "A newcomer takes a free box only with the seated players" in texts["en"]
    assert "согласия" in texts["ru"]
    assert 'name="newcomer_consent" value="agreed"' in texts["en"]


def _double_prompt_shown(desk, table, cards):
    from game.screens.publish import render_fragment, table_view

    desk.start_round({1: 100})
    desk.ok("close-bets")
    desk.cards(*cards)
    view = table_view(table.pk)
    return view["double_offer"], {
        language: render_fragment(view, "live", language) for language in ("en", "ru")
    }


@pytest.mark.parametrize(
    ("cards", "offered"), [(("5h", "7d", "6c"), True), (("Th", "7d", "6c"), False)]
)
def test_the_dealer_offers_the_double_on_9_to_11_in_the_standard_game(
    dealer_desk, table, cards, offered
):
    shown, texts = _double_prompt_shown(dealer_desk, table, cards)  # 5+6 = 11; T+6 = 16
    assert shown is offered
    assert ('data-testid="double-offer"' in texts["en"]) is offered
    if offered:
        assert "offer the double (9, 10 or 11)" in texts["en"]
        assert "предложите удвоение" in texts["ru"]


def test_no_double_offer_prompt_where_the_document_has_none_or_the_house_turns_it_off(
    staffed_table,
):
    for number, rules in (
        (6, {"preset": "open-cards"}),
        (7, {"preset": "standard", "offer_double_9_11": False}),
    ):
        table, desks = staffed_table(number, rules=rules)
        shown, _ = _double_prompt_shown(desks["dealer"], table, ("5h", "7d", "6c", "9s"))
        assert shown is False


def test_the_replay_says_the_consent_and_the_refusal_in_words():
    from game.replay import step_text

    with translation.override("en"):
        agreed = step_text("close-bets", {"newcomer_consent": "agreed"}, [])
        refused = step_text(
            "newcomer-refused",
            {"box": "3", "seat": "Boris", "stake": "50"},
            [{"kind": "newcomer_refused", "box": 3, "seat": "Boris", "newcomer": "Vera"}],
        )
    assert agreed == "Bets closed (the seated players agreed to the newcomers)"
    assert refused == "Box 3: Boris refused the newcomer Vera and stakes 50.00"


# -- issue 23 item 6: the variants of the shoe and of insurance, as rule keys ---------------------


def _texts(table):
    from game.screens.publish import render_fragment, table_view

    view = table_view(table.pk)
    return {language: render_fragment(view, "live", language) for language in ("en", "ru")}


def test_002s_cut_window_is_200_to_220_of_312_cards_played(staffed_table):
    """docs/sources.md#cut-card-position: 002 «не на 312 картах, а на 200-220»."""
    assert cut_limits(6, "in-play-200-220") == (92, 112)
    assert cut_limits(4, "in-play-200-220") == (62, 74)  # in proportion: 134-146 of 208
    table, desks = staffed_table(6, rules={"preset": "standard", "cut_card": "in-play-200-220"})
    for behind in (80, 91, 113):
        refused = desks["dealer"].send("shuffle", reason="new_shoe", cards_behind_cut=behind)
        assert not refused.ok and refused.code == "bad_cut"
        assert refused.params == {"low": "92", "high": "112"}
    desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=100)
    assert shoe_of(table).cards_behind_cut == 100
    assert "Cards behind the cut card (92–112)" in _texts(table)["en"]


def test_a_london_deal_table_burns_when_the_house_says_so(staffed_table):
    """docs/sources.md#burn-card: 003 burns the first card; its London deal may too."""
    london = {"preset": "hole-card", "dealer_cards": "one", "burn_card": "always"}
    table, desks = staffed_table(6, rules=london)
    assert 'data-testid="burn-card"' in _texts(table)["en"]
    missing = desks["dealer"].send("shuffle", reason="new_shoe", cards_behind_cut=40)
    assert not missing.ok and missing.code == "burn_card_required"
    desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=40, burn_card="9s")
    assert shoe_of(table).burn_card == "9s" and shoe_of(table).dealt == 1
    # without the key a London-deal table does not burn (as before), nor a "never" hole table
    for number, rules in (
        (7, {"preset": "hole-card", "dealer_cards": "one"}),
        (8, {"preset": "hole-card", "burn_card": "never"}),
    ):
        other, other_desks = staffed_table(number, rules=rules)
        assert 'data-testid="burn-card"' not in _texts(other)["en"]
        other_desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=40)
        assert shoe_of(other).burn_card == "" and shoe_of(other).dealt == 0


def _play_open_cards_round(desk):
    desk.ok("open-round")
    desk.ok("bet", box=1, seat="P1", stake="100")
    desk.ok("close-bets")
    desk.cards("Th", "7d", "9c", "9d")  # box 19, dealer 7-9 = 16 (both open)
    desk.ok("stand")
    desk.cards("Ks")  # the dealer busts
    desk.ok("confirm-settlement")


def test_a_table_that_shuffles_before_every_round_refuses_a_second_round_on_a_shoe(
    staffed_table,
):
    """docs/sources.md#shuffle-when: 004 «Перед началом игры крупье перетасовывает все
    карты»."""
    rules = {"preset": "open-cards", "shuffle_every_round": True}
    table, desks = staffed_table(6, rules=rules)
    dealer = desks["dealer"]
    dealer.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _play_open_cards_round(dealer)
    refused = dealer.send("open-round")
    assert not refused.ok and refused.code == "shuffle_every_round"
    texts = _texts(table)
    assert "This table shuffles before every round" in texts["en"]
    assert 'data-testid="open-round"' not in texts["en"]
    with translation.override("ru"):
        assert "перед каждым раундом" in error_text(refused.code, refused.params)
    dealer.ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _play_open_cards_round(dealer)
    # the open-cards preset itself keeps the cut card (a house decision)
    plain, plain_desks = staffed_table(7, rules={"preset": "open-cards"})
    plain_desks["dealer"].ok("shuffle", reason="new_shoe", cards_behind_cut=80)
    _play_open_cards_round(plain_desks["dealer"])
    plain_desks["dealer"].ok("open-round")


def test_a_hole_card_table_with_exact_half_insurance_offers_and_takes_only_half(staffed_table):
    """docs/sources.md#insurance: 003 «в размере половины своей ставки»."""
    table, desks = staffed_table(6, rules={"preset": "hole-card", "insurance_amount": "half"})
    dealer = desks["dealer"]
    dealer.start_round({1: 100})
    dealer.ok("close-bets")
    dealer.cards("9h", "Ad", "8c", "6s")  # box 17; the dealer's ace up and his hole card
    html = _texts(table)["en"]
    assert re.search(r'value="50\.00" readonly[^>]*data-testid="insure-amount-1"', html)
    refused = dealer.send("insure", box=1, amount="20")
    assert not refused.ok and refused.code == "insurance_not_half"
    with translation.override("en"):
        text = error_text(refused.code, refused.params)
    assert text == "Box 1: at this table insurance is exactly half the bet (50.00), not 20.00."
    dealer.ok("insure", box=1, amount="50")


def test_003s_double_card_lies_face_down_until_the_end_on_every_screen(staffed_table):
    """docs/sources.md#double: 003 «третья карта остаётся лежать рубашкой вверх до самого
    конца игры»: the tablet enters the card when it is turned, after the dealer's hand; until
    then every screen shows a face-down card."""
    from tests.desk import current_round

    table, desks = staffed_table(6, rules={"preset": "hole-card", "double_card": "face-down"})
    dealer = desks["dealer"]
    dealer.start_round({1: 100, 2: 100})
    dealer.ok("close-bets")
    dealer.cards("6h", "Tc", "9d", "5s", "8c", "7h")  # box 1: 11, box 2: 18, dealer 9 (hole 7)
    dealer.ok("double")
    texts = _texts(table)
    hand = re.search(r'data-testid="hand-1-1".*?</div>', texts["en"], re.S).group(0)
    assert 'class="playing-card hidden"' in hand  # the double's card, face down
    assert "Box 2, hand 1: the player's decision" in texts["en"]  # no card entered now
    dealer.ok("stand")
    dealer.cards("2d")  # the dealer: 9 + 7 + 2 = 18
    texts = _texts(table)
    assert "Turn the face-down card of box 1, hand 1, and tap it" in texts["en"]
    assert "Переверните" in texts["ru"]
    assert current_round(table).status == "turning"
    dealer.cards("Ts")  # turned: 21
    dealer.ok("confirm-settlement")
    closed = current_round(table)
    assert closed.status == "closed" and closed.players_net == 200  # box 1 +200, box 2 push
