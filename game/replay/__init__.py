"""A past round, step by step, read-only: the same view and partial as the live screens,
fed with the round's state after each event of its log (never a recomputation: every
figure is the engine's, replayed from the events). Rendering one step replays the log once,
up to that step: O(events) whatever the step."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from django.utils import timezone
from django.utils.translation import gettext as _

from game.configuration.services import table_rules
from game.models import Round
from game.players import rated_during
from game.screens.presenters import screen_view
from game.selectors import round_replay_steps
from game.table.cards import card_name
from game.table.live import TableRound
from game.table.snapshot import TableSnapshot
from game.templatetags.live import COMMAND_LABELS
from tables.formats import money

# What a live screen shows about the table *now* (not the round at that step), and every
# control: blanked on a replay.
_NOW_ONLY = {
    "legal": frozenset(),
    "legal_list": "",
    "table_open": False,
    "can_open_round": False,
    "can_shuffle": False,
    "awaiting": None,
    "decision": False,
    "decider": "",
    "lone_player": None,
    "uninformed": "",
}
_NO_BOARD = {
    "staff": {},
    "flags": [],
    "alerts": [],
    "reservations": [],
    "last_settlement": None,
    "dashboard": {},
}


def step_view(round_row: Round, state: TableRound, version: int) -> dict:
    """The live screen's data for ``round_row`` in ``state``."""
    # the round as the screens read one (``Round.table_round``): this step's state itself
    past = SimpleNamespace(number=round_row.number, pk=round_row.pk, table_round=lambda: state)
    snapshot = TableSnapshot(
        table=round_row.table,
        rules=table_rules(round_row.table),
        version=version,
        seq=0,
        round=past,
        board=_NO_BOARD,
    )
    view = screen_view(snapshot, now_iso="")
    view.update(_NOW_ONLY)
    # Who was rated at the table during the round (their figures now are not the round's).
    view["players"] = rated_during(
        table_id=round_row.table_id,
        opened_at=round_row.opened_at,
        closed_at=round_row.closed_at or timezone.now(),
    )
    view["past"] = True
    shoe = state.engine.shoe
    view["shoe"] = {
        "number": round_row.shoe.number,
        "dealt": shoe.dealt,
        "size": shoe.size,
        "left": shoe.size - shoe.dealt,
        "penetration_pct": round(100 * shoe.dealt / shoe.size) if shoe.size else 0,
        "cut_card_out": None,
        "needs_shuffle": False,
    }
    return view


def _summary(command: dict) -> dict:
    """The command's own fields for the step list (action aside)."""
    return {k: v for k, v in command.items() if k != "action"}


def _first(events: list[dict], kind: str) -> dict:
    return next((e for e in events if e.get("kind") == kind), {})


def _cards_text(events: list[dict]) -> str:
    card = _first(events, "card")
    if not card:
        return _("A card")
    if card.get("to") == "dealer":
        return _("%(card)s to the dealer") % {"card": card_name(card.get("card"))}
    if card.get("turned"):  # a face-down card entered as it is turned
        return _("The face-down card of box %(box)s, hand %(hand)s turned: %(card)s") % {
            "card": card_name(card.get("card")),
            "box": card.get("box"),
            "hand": card.get("hand"),
        }
    return _("%(card)s to box %(box)s, hand %(hand)s") % {
        "card": card_name(card.get("card")),
        "box": card.get("box"),
        "hand": card.get("hand"),
    }


def _hand_step_text(action: str, events: list[dict]) -> str:
    """A player's decision on one hand: the box and the hand are the event's."""
    hand = _first(events, action)
    where = {"box": hand.get("box", "?"), "hand": hand.get("hand", "?")}
    if action == "stand":
        return _("Box %(box)s, hand %(hand)s stands") % where
    if action == "double" and hand.get("face_down"):
        return _("Box %(box)s, hand %(hand)s doubles: its card dealt face down") % where
    if action == "double":
        return _("Box %(box)s, hand %(hand)s doubles") % where
    return _("Box %(box)s, hand %(hand)s splits") % where


BET_STEPS = ("bet", "remove-share", "newcomer-refused", "close-bets")


def _bet_step_text(action: str, c: dict, events: list[dict]) -> str:
    """A betting step in words (``step_text`` for the actions in ``BET_STEPS``)."""
    if action == "bet":
        text = _("Box %(box)s: %(seat)s stakes %(stake)s") % {
            "box": c.get("box"),
            "seat": c.get("seat"),
            "stake": money(c.get("stake")),
        }
        if c.get("player_card"):
            text += " " + _("(player card %(card)s)") % {"card": c.get("player_card")}
        return text
    if action == "remove-share":
        return _("Box %(box)s: the stake of %(seat)s taken off") % {
            "box": c.get("box"),
            "seat": c.get("seat"),
        }
    if action == "newcomer-refused":
        refused = _first(events, "newcomer_refused")
        return _("Box %(box)s: %(seat)s refused the newcomer %(newcomer)s and stakes %(stake)s") % {
            "box": c.get("box"),
            "seat": c.get("seat"),
            "newcomer": refused.get("newcomer", "?"),
            "stake": money(c.get("stake")),
        }
    text = _("Bets closed")
    if c.get("newcomer_consent") == "agreed":  # close-bets
        text = _("Bets closed (the seated players agreed to the newcomers)")
    if c.get("limits_told_to"):
        text += "; " + _("the table's limits told to %(seats)s") % {"seats": c["limits_told_to"]}
    if c.get("lone_player") == "shared":
        text += "; " + _("the only player leaves boxes %(boxes)s open to other players") % {
            "boxes": c.get("free_boxes", "?")
        }
    return text


def _decided_text(events: list[dict]) -> str:
    """Who decided a player's decision (docs/sources.md#box-shared-by-up-to-three): the
    box's owner, named; "" for a step that is no decision."""
    decided = _first(events, "decided")
    if not decided:
        return ""
    if decided.get("shared"):
        text = _("decided by %(seat)s, the owner of the shared box") % {"seat": decided["seat"]}
    else:
        text = _("decided by %(seat)s") % {"seat": decided["seat"]}
    if decided.get("decision") == "hit":
        text = _("a hit") + ", " + text
    return " — " + text


def step_text(action: str, command: dict, events: list[dict]) -> str:
    """One step of a round's event log in words, in the active language: "Box 2: seat 2
    stakes 500.00", "A♦ to the dealer", "Box 3, hand 1 doubles — decided by Anna" (not
    ``box=2 seat=2``)."""
    return _step_text(action, command, events) + _decided_text(events)


def _step_text(action: str, command: dict, events: list[dict]) -> str:
    c = command
    if action in ("stand", "double", "split"):
        return _hand_step_text(action, events)
    if action == "open-round":
        return _("Round opened: place your bets")
    if action in BET_STEPS:
        return _bet_step_text(action, c, events)
    if action == "card-down":  # docs/sources.md#players-cards-face-down
        return _("A card dealt face down to box %(box)s") % {
            "box": _first(events, "card_down").get("box", "?")
        }
    if action == "card":
        text = _cards_text(events)
        return text + " " + _("(simulated shoe)") if c.get("simulated") else text
    if action == "insure":
        return _("Box %(box)s insured for %(amount)s") % {
            "box": c.get("box"),
            "amount": money(c.get("amount")),
        }
    if action == "even-money":
        return _("Box %(box)s takes even money") % {"box": c.get("box")}
    if action == "insurance-closed":
        return _("Insurance closed")
    if action == "correct-card":
        fix = _first(events, "correction")
        return _("The last card corrected: %(old)s → %(new)s") % {
            "old": card_name(fix.get("old")),
            "new": card_name(fix.get("new")),
        }
    if action == "cut-card-out":
        out = _first(events, "cut_card_out")
        if out.get("dealer"):
            return _("The cut card came out during the dealer's draw")
        return _("The cut card came out at box %(box)s") % {"box": out.get("box")}
    if action == "confirm-settlement":
        net = _first(events, "settlement_confirmed").get("net")
        return _("Paid and collected: the round is closed (house result %(amount)s)") % {
            "amount": money(-Decimal(net)) if net is not None else "—"
        }
    if action == "void":
        paid = _first(events, "voided").get("paid_net")
        if paid and Decimal(paid):
            return _("Round voided: %(reason)s (paid at once, stays paid: %(amount)s)") % {
                "reason": c.get("reason", ""),
                "amount": money(Decimal(paid)),
            }
        return _("Round voided: %(reason)s") % {"reason": c.get("reason", "")}
    return str(COMMAND_LABELS.get(action, action))


def replay_steps(round_row: Round):
    """Every step of the round (number, who, when, what) and a function giving the round's
    state after step ``i`` (0-based)."""
    events, state_after = round_replay_steps(round_row)
    steps = [
        {
            "seq": event.seq,
            "type": event.type,
            "actor": event.actor,
            "created_at": event.created_at,
            "version": event.version,
            "fields": _summary(event.payload.get("command") or {}),
            "text": step_text(
                event.type, event.payload.get("command") or {}, event.payload.get("events") or []
            ),
            "corrections": [
                e for e in event.payload.get("events", []) if e.get("kind") == "correction"
            ],
        }
        for event in events
    ]
    return steps, state_after
