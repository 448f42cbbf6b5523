"""Translated, croupier-readable messages for every error code the table can refuse with.

The engine and the table layer raise errors with a stable ``code`` and ``params``; screens show
the message for that code in the person's language. An unknown code falls back to the
engine's English message.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floor.forms import MESSAGES as TYPED_MESSAGES
from game.table.cards import card_name
from tables.formats import chip_value, money

# Parameters that name a card or an amount: shown as people write them (A♦, 1 500.00).
CARD_PARAMS = ("card", "old", "new")
MONEY_PARAMS = ("amount", "min", "max", "stake", "half")

MESSAGES = {
    # protocol
    "bad_message": gettext_lazy("The screen sent a message the table cannot read."),
    "stale": gettext_lazy(
        "Someone changed the table a moment ago: the screen is now up to date. Try again."
    ),
    "round_already_closed": gettext_lazy(
        "Round %(number)s is already closed: nothing to repeat. Start the next round."
    ),
    "not_your_action": gettext_lazy("Your role at this table cannot do that."),
    "no_round": gettext_lazy("No round is open: start a round first."),
    "round_in_progress": gettext_lazy("A round is in progress: finish it first."),
    "table_not_open": gettext_lazy(
        "The table is not open: no shuffle, round or cash until it is opened again."
    ),
    "staff_missing": gettext_lazy(
        "A round needs a dealing croupier, an observing croupier and an inspector assigned."
    ),
    "crew_not_distinct": gettext_lazy(
        "%(person)s holds two seats at this table: a round needs three different people as "
        "the dealing croupier, the observing croupier and the inspector."
    ),
    "shuffle_needed": gettext_lazy("Shuffle first: the shoe is new or the cut card came out."),
    "bad_cut": gettext_lazy(
        "The cut card must leave between %(low)s and %(high)s cards behind it."
    ),
    "reshuffle_limit": gettext_lazy(
        "This shoe was already re-shuffled at a player's request: once per shoe. Only a "
        "player alone at the table may ask again (players in the last round: "
        "%(players)s)."
    ),
    "reshuffle_not_just_shuffled": gettext_lazy(
        "A player may only ask the dealer to repeat the shuffle he has just made, before the "
        "first round of that shoe: this shoe has been played on, or there is none. Only a "
        "player alone at the table may ask between any two rounds (players in the last "
        "round: %(players)s)."
    ),
    "burn_card_required": gettext_lazy("This game burns the first card: enter the burnt card."),
    "shuffle_every_round": gettext_lazy(
        "This table shuffles before every round: shuffle and cut first."
    ),
    "simulated_only": gettext_lazy("Only a simulated table deals cards itself."),
    "manual_only": gettext_lazy("This table deals from a simulated shoe: use “Next card”."),
    "note_required": gettext_lazy("Write what you saw."),
    # reservations and occupancy
    "box_reserved": gettext_lazy(
        "Box %(box)s is reserved for a player who paused: no one else takes it, no bet on it."
    ),
    "box_in_play": gettext_lazy("Box %(box)s is in play this round: it cannot be reserved now."),
    "not_reserved": gettext_lazy("Box %(box)s is not reserved."),
    "reservation_absence_over": gettext_lazy(
        "Box %(box)s has been held %(minutes)s minutes in this player's absence: %(most)s at "
        "most. Only the inspector can hold it longer, with a note."
    ),
    "renewal_note_required": gettext_lazy("Write why the box is held longer."),
    "nothing_to_renew": gettext_lazy(
        "Box %(box)s holds no token and no player's absence goes on: the observing croupier "
        "puts a token."
    ),
    "lone_player_free_boxes": gettext_lazy(
        "One player (%(seat)s) at the table and boxes %(boxes)s are free. If he wants the "
        "table to himself he must bet on every box; otherwise the free boxes stay open to "
        "other players. Ask him, and say which to close bets."
    ),
    "limits_not_announced": gettext_lazy(
        "Tell %(seats)s the table's limits first: %(min)s to %(max)s a box. Every player "
        "new at the table is told the minimum and the maximum bet before he plays."
    ),
    "lone_player_every_box": gettext_lazy(
        "%(seat)s wants the table to himself: he must bet on every box — boxes %(boxes)s "
        "have no stake of his yet."
    ),
    # rated play (game.players)
    "unknown_player_card": gettext_lazy(
        "No player has the card %(card)s: check the card, or seat the player without it."
    ),
    "seat_taken": gettext_lazy("A player is already seated as %(seat)s at this table."),
    "player_seated": gettext_lazy(
        "The player with the card %(card)s is already seated here (%(seat)s)."
    ),
    "no_such_session": gettext_lazy("That player is not seated at this table."),
    "session_closed": gettext_lazy("%(seat)s has already left the table."),
    # table layer
    "box_full": gettext_lazy("Box %(box)s already has three players: no more can share it."),
    "no_such_share": gettext_lazy("There is no such stake on box %(box)s."),
    "nothing_to_correct": gettext_lazy(
        "Only the last card can be corrected, and only before the next action."
    ),
    "cut_card_not_now": gettext_lazy(
        "The cut card can be marked once, while cards are being dealt."
    ),
    "not_settled": gettext_lazy("The round is not settled yet."),
    "stake_not_in_chips": gettext_lazy(
        "A stake of %(amount)s cannot be made of this table's chips (%(chips)s): take the "
        "stake in chips."
    ),
    "cut_card_early": gettext_lazy(
        "Only %(dealt)s of %(size)s cards are out (%(pct)s%%): the cut card is far from its "
        "place. If it really came out, confirm it."
    ),
    "reason_required": gettext_lazy("A void needs a reason."),
    "round_over": gettext_lazy("This round is over: nothing more can happen in it."),
    # engine
    "bad_action": gettext_lazy("That is not an action the table knows."),
    "bad_amount": gettext_lazy("That amount is not a valid number."),
    "bad_card": gettext_lazy("That is not a card: use a rank A 2-9 T J Q K and a suit s h d c."),
    "shoe_cannot_hold": gettext_lazy(
        "There is no other %(card)s in a %(decks)s-deck shoe: every copy of it is already out. "
        "Check the card."
    ),
    "illegal_action": gettext_lazy("That action is not allowed at this moment."),
    "bets_closed": gettext_lazy("Bets are closed for this round."),
    "unknown_box": gettext_lazy("There is no box %(box)s at this table."),
    "newcomer_free_box": gettext_lazy(
        "New players took free boxes: %(seats)s. A newcomer takes a free box only with the "
        "seated players' consent; a player who refuses bets on that box himself."
    ),
    "no_newcomer": gettext_lazy("No newcomer has taken box %(box)s."),
    "not_seated": gettext_lazy("%(seat)s did not play the last round: not a seated player."),
    "cut_not_entitled": gettext_lazy(
        "The cut card came out at box %(entitled)s: that player cuts, unless he passes the "
        'right to box %(box)s (tick "the right was passed").'
    ),
    "bad_reservation_time": gettext_lazy(
        "Hold the box for 1 to %(most)s minutes (the table's reservation time)."
    ),
    "box_limit": gettext_lazy(
        "Box %(box)s: %(seat)s already bets on boxes %(boxes)s — a player bets on %(limit)s "
        "boxes at most at this table."
    ),
    "bet_under_minimum": gettext_lazy(
        "Box %(box)s: the bet %(amount)s is under the table minimum %(min)s."
    ),
    "bet_over_maximum": gettext_lazy(
        "Box %(box)s: the bet %(amount)s is over the table maximum %(max)s."
    ),
    "no_bets": gettext_lazy("No bets are placed: place a bet before closing bets."),
    "no_bet_on_box": gettext_lazy("Box %(box)s has no bet in this round."),
    "hit_not_allowed": gettext_lazy("Box %(box)s, hand %(hand)s takes no more cards."),
    "double_not_allowed": gettext_lazy(
        "Box %(box)s, hand %(hand)s: this table's rules do not allow a double here."
    ),
    "split_not_allowed": gettext_lazy(
        "Box %(box)s, hand %(hand)s: this table's rules do not allow a split here."
    ),
    "insurance_not_allowed": gettext_lazy(
        "No insurance here: the table does not offer it, or the box is already insured, "
        "took even money or has Blackjack."
    ),
    "even_money_not_allowed": gettext_lazy(
        "No even money here: the table does not offer it, or the box has no Blackjack (or its "
        "cards still lie face down), already took even money or is insured."
    ),
    "insurance_closed": gettext_lazy(
        "Insurance and even money are offered only while the dealer shows an ace, before "
        "the players' turn."
    ),
    # docs/sources.md#players-cards-face-down (player_cards: face-down)
    "card_face_down": gettext_lazy(
        'Box %(box)s\'s card is dealt face down: tap "Dealt face down". It is entered when '
        "it is turned, at the box's turn."
    ),
    "card_down_not_now": gettext_lazy(
        "No card is dealt face down now: only the players' cards of the deal are, at a table "
        "that deals them face down."
    ),
    "cards_face_down": gettext_lazy(
        "Box %(box)s: its cards lie face down. Turn them and tap each before the player decides."
    ),
    "insurance_over_half": gettext_lazy(
        "Box %(box)s: insurance %(amount)s is over half the bet (%(max)s)."
    ),
    "insurance_not_half": gettext_lazy(
        "Box %(box)s: at this table insurance is exactly half the bet (%(half)s), not %(amount)s."
    ),
    # what was typed: amounts and labels refused by the one parser (floor.parsing)
    **TYPED_MESSAGES,
}


def error_text(code: str, params: dict | None = None, fallback: str = "") -> str:
    """The message for ``code`` in the active language."""
    template = MESSAGES.get(code)
    if template is None:
        return fallback or _("That action is not allowed at this moment.")
    shown = dict(params or {})
    for key in CARD_PARAMS:
        if shown.get(key):
            shown[key] = card_name(shown[key])
    for key in MONEY_PARAMS:
        if shown.get(key) not in (None, ""):
            try:
                shown[key] = money(shown[key]) or shown[key]
            except ArithmeticError:  # not an amount any table has: shown as it came, short
                shown[key] = str(shown[key])[:24]
    if shown.get("chips"):  # a chip set: "50,100,500" -> "50, 100, 500"
        shown["chips"] = ", ".join(chip_value(c) for c in str(shown["chips"]).split(","))
    try:
        return str(template) % shown
    except (KeyError, TypeError, ValueError):
        return str(template)
