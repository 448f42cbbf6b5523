"""003's variant «Карты игроков могут сдаваться взакрытую»
(docs/sources.md#players-cards-face-down, rule key ``player_cards: face-down``) at a live
table, through the public interface (command_submit): the deal records a face-down card where
each box card goes; at the box's turn the croupier enters each card as it is turned; until
then every screen — the tablet, the observer's, the inspector's tile, the replay — shows a
face-down card, and the round log says so. Out-of-order input is refused in words and
changes nothing."""

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from game.commands.messages import error_text
from game.replay import replay_steps
from game.screens.publish import render_fragment, table_view
from tests.desk import current_round

pytestmark = pytest.mark.django_db

DOWN = {"preset": "hole-card", "player_cards": "face-down"}


def screens(table) -> dict[str, str]:
    view = table_view(table.pk)
    out = {
        f"{kind}-{lang}": render_fragment(view, kind, lang)
        for kind in ("live", "live-observer")
        for lang in ("en", "ru")
    }
    out["tile"] = render_fragment(view, "tile", "en")
    return out


def hand_html(html: str, box: int) -> str:
    return re.search(rf'data-testid="hand-{box}-1".*?</div>', html, re.S).group(0)


def face_down_cards(html: str, box: int) -> int:
    return hand_html(html, box).count('class="playing-card hidden"')


def en_text(outcome) -> str:
    with translation.override("en"):
        return error_text(outcome.code, outcome.params)


def snapshot_of(table):
    row = current_round(table)
    return row.version, row.snapshot


def test_the_players_cards_lie_face_down_until_turned_at_the_box_s_turn(staffed_table):
    table, desks = staffed_table(6, rules=DOWN)
    dealer = desks["dealer"]
    dealer.start_round({1: 100, 2: 100})
    dealer.ok("close-bets")
    seen = screens(table)
    assert 'data-awaiting="card-down:box 1"' in seen["live-en"]
    assert 'data-testid="card-down"' in seen["live-en"]
    assert 'data-testid="card-down"' not in seen["live-observer-en"]  # the dealer's control
    assert 'Card face down to box 1: tap "Dealt face down"' in seen["live-en"]

    dealer.ok("card-down")  # box 1
    dealer.ok("card-down")  # box 2
    dealer.cards("9d")  # the dealer's up card
    dealer.ok("card-down")
    dealer.ok("card-down")
    dealer.cards("7h")  # the hole card
    seen = screens(table)
    for key in ("live-en", "live-observer-en", "live-ru"):
        assert face_down_cards(seen[key], 1) == 2 and face_down_cards(seen[key], 2) == 2, key
    assert 'data-testid="tile-face-down"' in seen["tile"] and "boxes 1, 2" in seen["tile"]
    # the burnt card, four face down and the dealer's two are out of the shoe
    assert "Shoe 1: 7 of 312 cards dealt" in seen["live-en"]
    assert 'data-awaiting="card:box 1 hand 1"' in seen["live-en"]
    assert "Box 1: turn its two face-down cards and tap each" in seen["live-en"]
    assert "Бокс 1: переверните его две закрытые карты и нажмите каждую" in seen["live-ru"]
    assert 'data-testid="stand"' not in seen["live-en"]  # the decision waits for the cards

    dealer.cards("6h")  # box 1's first card turned
    seen = screens(table)
    assert face_down_cards(seen["live-observer-en"], 1) == 1
    assert 'data-card="6h"' in hand_html(seen["live-observer-en"], 1)
    assert "Box 1: turn its face-down card and tap it" in seen["live-en"]
    dealer.cards("5s")  # 11: the player decides
    seen = screens(table)
    assert face_down_cards(seen["live-en"], 1) == 0 and face_down_cards(seen["live-en"], 2) == 2
    assert "Box 1, hand 1: the player's decision" in seen["live-en"]
    assert "boxes 1, 2" not in seen["tile"] and "box 2" in seen["tile"]
    dealer.ok("double")
    dealer.cards("Ts")  # 21 (hits and the double's card come face up)
    dealer.cards("Tc", "8c")  # box 2's cards turned: 18
    dealer.ok("stand")
    dealer.cards("2d")  # the dealer: 9 + 7 + 2 = 18
    assert 'data-testid="tile-face-down"' not in screens(table)["tile"]
    dealer.ok("confirm-settlement")
    closed = current_round(table)
    assert closed.status == "closed" and closed.players_net == 200  # box 1 +200, box 2 push


def test_out_of_order_input_is_refused_in_words_and_changes_nothing(staffed_table):
    table, desks = staffed_table(6, rules=DOWN)
    dealer = desks["dealer"]
    dealer.start_round({1: 100})
    dealer.ok("close-bets")
    before = snapshot_of(table)
    refused = dealer.send("card", card="Th")  # a face-down card is not entered when dealt
    assert not refused.ok and refused.code == "card_face_down"
    assert en_text(refused) == (
        'Box 1\'s card is dealt face down: tap "Dealt face down". It is entered when it is '
        "turned, at the box's turn."
    )
    assert snapshot_of(table) == before
    dealer.ok("card-down")
    before = snapshot_of(table)
    refused = dealer.send("card-down")  # the dealer's up card is due
    assert not refused.ok and refused.code == "card_down_not_now"
    assert snapshot_of(table) == before
    dealer.cards("9d")
    dealer.ok("card-down")
    dealer.cards("7h")
    before = snapshot_of(table)
    for action in ("stand", "double", "split"):
        refused = dealer.send(action)
        assert not refused.ok and refused.code == "cards_face_down", action
        assert en_text(refused) == (
            "Box 1: its cards lie face down. Turn them and tap each before the player decides."
        )
    assert not dealer.send("card-down").ok
    assert snapshot_of(table) == before
    # at a face-up table, card-down is refused too
    other, other_desks = staffed_table(7, rules={"preset": "hole-card"})
    other_desks["dealer"].start_round({1: 100})
    other_desks["dealer"].ok("close-bets")
    refused = other_desks["dealer"].send("card-down")
    assert not refused.ok and refused.code == "card_down_not_now"


def test_a_turned_blackjack_is_paid_at_its_turn_and_even_money_waits(staffed_table):
    table, desks = staffed_table(6, rules={"preset": "standard", "player_cards": "face-down"})
    dealer = desks["dealer"]
    dealer.start_round({1: 100})
    dealer.ok("close-bets")
    dealer.ok("card-down")
    dealer.cards("Ad")  # the dealer's ace: insurance, but no even money on unknown cards
    dealer.ok("card-down")
    tablet = screens(table)["live-en"]  # the tablet offers what the engine accepts
    assert 'data-testid="even-money-1"' not in tablet and 'data-testid="insure-form-1"' in tablet
    before = snapshot_of(table)
    refused = dealer.send("even-money", box=1)
    assert not refused.ok and refused.code == "even_money_not_allowed"
    assert "still lie face down" in en_text(refused)
    assert snapshot_of(table) == before
    dealer.ok("insure", box=1, amount="50")
    dealer.ok("insurance-closed")
    dealer.cards("As", "Kd")  # turned: Blackjack, noted against the ace
    dealer.cards("7c")  # the dealer's second card: no Blackjack
    row = current_round(table)
    box = row.snapshot["engine"]["seats"][0]
    assert row.status == "settled" and Decimal(box["hands"][0]["net"]) == 150  # 3:2
    assert Decimal(box["insurance_net"]) == -50


def test_the_round_log_and_the_replay_show_the_face_down_cards(staffed_table):
    table, desks = staffed_table(6, rules=DOWN)
    dealer = desks["dealer"]
    dealer.start_round({1: 100})
    dealer.ok("close-bets")
    dealer.ok("card-down")
    dealer.cards("9d")
    dealer.ok("card-down")
    dealer.cards("7h", "Th", "8c")  # the hole card; box 1 turned: 18
    dealer.ok("stand")
    dealer.cards("2d")
    dealer.ok("confirm-settlement")
    row = current_round(table)
    with translation.override("en"):
        steps, state_after = replay_steps(row)
    assert state_after(len(steps) - 1).to_dict() == row.snapshot
    texts = [s["text"] for s in steps]
    assert texts.count("A card dealt face down to box 1") == 2
    assert "The face-down card of box 1, hand 1 turned: 10♥" in texts
    assert "The face-down card of box 1, hand 1 turned: 8♣" in texts
    down = texts.index("A card dealt face down to box 1") + 1  # 1-based: after the first
    client = Client(headers={"accept-language": "en"})
    client.force_login(desks["inspector"].user)
    url = reverse("game:replay", args=[row.pk])
    page = client.get(url, {"step": down + 3}).content.decode()  # both dealt, none turned
    state = page.split('data-testid="replay-state"')[1]
    assert face_down_cards(state, 1) == 2
    final = client.get(url).content.decode().split('data-testid="replay-state"')[1]
    assert face_down_cards(final, 1) == 0 and 'data-card="Th"' in final


def test_a_simulated_table_deals_face_down_and_turns_from_its_shoe(staffed_table):
    """A simulated shoe: 'Dealt face down' in the deal, then 'deal-next' takes each turned
    card out of the shoe; a hit there is the box owner's decision, recorded as one."""
    from game.models import RoundEvent

    table, desks = staffed_table(8, card_entry="simulated", rules=DOWN)
    desk = desks["dealer"]
    desk.start_round({1: 100})
    desk.ok("close-bets")
    hit = False
    for _ in range(40):
        row = current_round(table)
        if row.status == "settled":
            break
        legal = screens(table)["live-en"].split('data-legal="')[1].split('"')[0].split()
        if "card-down" in legal:
            desk.ok("card-down")
        elif "insurance-closed" in legal:
            desk.ok("insurance-closed")
        elif "stand" in legal and hit:
            desk.ok("stand")
        elif "stand" in legal:
            desk.ok("deal-next")  # a hit
            hit = True
        else:
            desk.ok("deal-next")
    row = current_round(table)
    assert row.status == "settled"
    logged = RoundEvent.objects.filter(round=row)
    events = [e for ev in logged for e in ev.payload.get("events", ())]
    assert sum(e["kind"] == "card_down" for e in events) == 2
    assert sum(bool(e.get("turned")) for e in events) == 2
    if hit:
        assert any(e["kind"] == "decided" and e["decision"] == "hit" for e in events)


def test_a_turned_card_can_be_corrected_and_the_other_stays_face_down(staffed_table):
    table, desks = staffed_table(6, rules=DOWN)
    dealer = desks["dealer"]
    dealer.start_round({1: 100})
    dealer.ok("close-bets")
    dealer.ok("card-down")
    dealer.cards("9d")
    dealer.ok("card-down")
    dealer.cards("7h", "6h")  # the hole card; box 1's first card turned: a 6
    dealer.ok("correct-card", card="5h")  # mistyped: it was a 5
    seen = screens(table)["live-observer-en"]
    assert 'data-card="5h"' in hand_html(seen, 1) and 'data-card="6h"' not in hand_html(seen, 1)
    assert face_down_cards(seen, 1) == 1
    dealer.cards("6s")  # 11: the player decides
    assert "Box 1, hand 1: the player's decision" in screens(table)["live-en"]
