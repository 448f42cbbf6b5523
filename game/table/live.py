"""The round as it is run at a live table, above the engine.

Pure Python (the engine, the one parser ``floor.parsing``, the chip arithmetic of
``tables.chips`` and the standard library). The engine decides every total, legal action and
payout; this layer adds what a real table has around a round: up to three players sharing a
box, the correction of the last card entered (the engine's ``pop`` of that card and ``push``
of the right one), the cut card coming out, the croupier's confirmation of the settlement,
the inspector's void, and the settlement figures the croupier pays from
(:meth:`TableRound.box_settlement`).

A round is rebuilt exactly by replaying its commands from its opening state
(:meth:`TableRound.replay`); the database keeps the commands as events and the result of
:meth:`TableRound.to_dict` as the snapshot, and a test proves the two always agree.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from decimal import Decimal

from floor import parsing
from game.engine import (
    Bet,
    CloseBets,
    Deal,
    DealDown,
    Double,
    EngineError,
    EvenMoney,
    InsuranceClosed,
    Insure,
    Limits,
    RoundState,
    ShoeState,
    Split,
    Stand,
    action_to_dict,
)
from game.engine.actions import action_from_dict
from game.table.shares import split_pro_rata
from tables import chips

MAX_SHARES_PER_BOX = 3  # docs/sources.md#box-shared-by-up-to-three

# The engine's actions a screen may send (every one but ``bet``: a stake is a share of a box).
ENGINE_ACTIONS = frozenset(
    {
        "close-bets",
        "card",
        "card-down",  # docs/sources.md#players-cards-face-down: a card of the deal face down
        "stand",
        "double",
        "split",
        "insure",
        "even-money",
        "insurance-closed",
    }
)
_SIMPLE_ACTIONS = {
    "close-bets": CloseBets(),
    "card-down": DealDown(),
    "stand": Stand(),
    "double": Double(),
    "split": Split(),
    "insurance-closed": InsuranceClosed(),
}

# The players' decisions on a hand (a hit is a card while the hand's decision is awaited).
DECISIONS = ("stand", "double", "split")

# Engine events that pay a box at once, before the round is settled (the tablet lists them).
PAID_AT_ONCE = ("blackjack_paid", "even_money", "three_sevens", "split_blackjack_paid")

OPEN_STATUSES = {"betting", "dealing", "insurance", "players", "dealer", "turning", "settled"}


class LiveError(EngineError):
    """A command refused by the table layer (codes are translated on the screens)."""

    code = "illegal_action"


# A command's values were read by its form (game.commands.forms, on the one parser): here the
# same parser only confirms them — they are already normalised — and reads a stored event's
# spelling ("3", "100.00") as the form's. What it refuses, it refuses with its own code.


def _parsed(read, value, **options):
    try:
        return read(value, **options)
    except parsing.Unreadable as error:
        raise LiveError(f"Unreadable: {error.code}", code=error.code, **error.params) from None


def _box(value) -> int:
    """A box number (``floor.parsing.box_number``)."""
    number = parsing.box_number(value)
    if number is None:
        raise LiveError(f"Not a box number: {parsing.shown(value)!r}", code="bad_action")
    return number


def _chips(value) -> Decimal:
    """An amount of chips put on the table, more than zero (``floor.parsing.amount``)."""
    return _parsed(parsing.amount, value, positive=True)


def _engine_action(name: str, command: dict):
    """The engine action of a command of ``ENGINE_ACTIONS``."""
    if name == "card":
        return Deal(command.get("card"))
    if name == "insure":
        return Insure(_box(command.get("box")), _chips(command.get("amount")))
    if name == "even-money":
        return EvenMoney(_box(command.get("box")))
    return _SIMPLE_ACTIONS[name]


@dataclass
class Share:
    """One player's chips on a box. The first share of a box is its owner's."""

    seat: str
    stake: Decimal
    player_card: str = ""

    def to_dict(self) -> dict:
        return {"seat": self.seat, "stake": str(self.stake), "player_card": self.player_card}

    @classmethod
    def from_dict(cls, d: dict) -> Share:
        return cls(d["seat"], Decimal(d["stake"]), d.get("player_card", ""))


@dataclass(frozen=True)
class BoxSettlement:
    """What a croupier pays or collects at one box, computed here and nowhere else (the
    screens only format it): the chips in play now, what was paid at once, and — once the
    round is settled — what is still to pay (+) or collect (−), with the chips that pay it."""

    in_play: Decimal  # every hand's bet (doubles and splits included) and the insurance
    paid_now: Decimal  # paid at once: a Blackjack, even money, three sevens
    to_settle: Decimal | None = None  # None until the round is settled
    chips: tuple[tuple[Decimal, int], ...] = ()  # (value, count), largest first
    rest: Decimal = Decimal(0)  # what no chip of the table's set covers


class TableRound:
    """One round at a table: the engine's round plus shares, corrections, cut card, status.

    ``opening`` is everything needed to start it again: the rule set (JSON), the limits, the
    table's box numbers and the shoe's state when the round opened.
    """

    def __init__(self, opening: dict):
        self.opening = copy.deepcopy(opening)
        self.engine = self._fresh_engine()
        self.shares: dict[int, list[Share]] = {}
        self.status = "betting"
        self.actions: list[dict] = []  # the engine actions applied, in order (dict form)
        self.last_was_card = False
        self.last_card: dict | None = None  # where the last card entered went (its event)
        self.corrections: list[dict] = []
        self.cut_card_out: dict | None = None
        self.paid_at_once: list[dict] = []
        self.paid_before_last = 0  # how many of ``paid_at_once`` came before the last action
        self.void_reason = ""

    def _fresh_engine(self) -> RoundState:
        o = self.opening
        return RoundState(
            o["rules"],
            Limits.from_dict(o.get("limits")),
            tuple(o["boxes"]),
            ShoeState.from_dict(o["shoe"]),
        )

    # -- queries ------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def box_owner(self, box: int) -> Share | None:
        shares = self.shares.get(box)
        return shares[0] if shares else None

    def legal_commands(self) -> frozenset[str]:
        """Commands that can be accepted now (the engine's legal actions, plus ours)."""
        if not self.is_open:
            return frozenset()
        kinds = set(self.engine.legal_actions())
        out = {k for k in kinds if k in ENGINE_ACTIONS}
        if "bet" in kinds:
            out |= {"bet", "remove-share"}
            if self.newcomers():
                out.add("newcomer-refused")
        if self.last_was_card:
            out.add("correct-card")
        if self.cut_card_out is None and self.status in ("dealing", "players", "dealer"):
            out.add("cut-card-out")
        if self.status == "settled":
            out.add("confirm-settlement")
        out.add("void")
        return frozenset(out)

    def lone_player(self, reserved=frozenset()) -> dict | None:
        """docs/sources.md#lone-player-bets-every-box: a player who wants the table to himself
        while boxes are free must bet on every box. When one player (one seat label) has
        every stake and free, unreserved boxes remain: ``{"seat", "boxes"}`` (the free
        boxes, comma-separated), else None."""
        seats = {share.seat for shares in self.shares.values() for share in shares}
        if len(seats) != 1:
            return None
        free = [n for n in self.opening["boxes"] if n not in self.shares and n not in reserved]
        if not free:
            return None
        return {"seat": next(iter(seats)), "boxes": ", ".join(str(n) for n in free)}

    def uninformed(self) -> list[str]:
        """docs/sources.md#limits-told: the players with a stake in this round who have not
        been told the table's limits since it opened (``opening["informed"]``), in the order
        of their boxes: the croupier tells them before bets close."""
        informed = set(self.opening.get("informed") or ())
        out: list[str] = []
        for _box, shares in sorted(self.shares.items()):
            out += [s.seat for s in shares if s.seat not in informed and s.seat not in out]
        return out

    def informed_after(self) -> list[str]:
        """The players told the limits by the end of this round: those told before, and —
        once its bets closed (which needs it) — every player of this round."""
        told = set(self.opening.get("informed") or ())
        if self.engine.phase != "betting":
            told |= {share.seat for shares in self.shares.values() for share in shares}
        return sorted(told)

    def players(self) -> int:
        """How many players (seat labels) have a stake in this round."""
        return len({share.seat for shares in self.shares.values() for share in shares})

    def share_payouts(self) -> dict[int, list[dict]]:
        """Each share's part of its box's result, pro rata to stakes (see game.table.shares)."""
        out = {}
        for box in self.engine.seats:
            shares = self.shares.get(box.number, [])
            if not shares:
                continue
            parts = split_pro_rata(box.net, [s.stake for s in shares])
            out[box.number] = [
                {"seat": s.seat, "stake": s.stake, "net": part, "player_card": s.player_card}
                for s, part in zip(shares, parts, strict=True)
            ]
        return out

    # -- commands -----------------------------------------------------------------------

    def apply(self, command: dict) -> list[dict]:
        """Apply one command (``{"action": ..., ...}``); return the events it caused.

        Raises :class:`EngineError` (a :class:`LiveError` or the engine's own) and leaves the
        round unchanged when the command is not legal now.
        """
        handler = COMMANDS.get(command.get("action"))
        if handler is None:
            raise LiveError(f"Unknown command {command.get('action')!r}", code="bad_action")
        if not self.is_open:
            raise LiveError("This round is over: nothing more can happen in it", code="round_over")
        return handler(self, command)

    def _on_engine_action(self, command: dict) -> list[dict]:
        action = _engine_action(command["action"], command)
        if self.status == "settled":
            raise LiveError("The round is settled: confirm the settlement", code="round_over")
        decided = self._decided(command["action"], getattr(action, "box", None))
        events = self._push(action)  # raises with the engine's state unchanged
        if decided is not None:
            events.append(decided)
        self.last_was_card = isinstance(action, Deal)
        self.last_card = _last_card(events) if self.last_was_card else None
        return events

    def _push(self, action) -> list[dict]:
        """Push an engine action (``RoundState.push``: a correction pops it back)."""
        events = self.engine.push(action)  # raises with the engine's state unchanged
        self.actions.append(action_to_dict(action))
        self.paid_before_last = len(self.paid_at_once)
        self._after_engine(events)
        return events

    def _decided(self, action: str, box: int | None) -> dict | None:
        """docs/sources.md#box-shared-by-up-to-three: every decision on a box — hit, stand,
        double, split, insurance, even money — is its owner's (the first player on it). The
        event that records it (``decided``: the box, the hand, the decision, the owner's
        seat and whether the box is shared), taken before the engine moves the turn; None
        for a command that is no player's decision (a card of the deal, the dealer's)."""
        if action in ("insure", "even-money"):
            hand, decision = None, action
        elif action in DECISIONS or (
            action == "card" and (self.engine.awaiting() or "").startswith("decision:")
        ):
            turn = self.engine.turn
            if not isinstance(turn, tuple):
                return None
            box, hand = turn[0], turn[1] + 1
            decision = "hit" if action == "card" else action
        else:
            return None
        shares = self.shares.get(box) if isinstance(box, int) else None
        if not shares:
            return None
        return {
            "kind": "decided",
            "box": box,
            "hand": hand,
            "decision": decision,
            "seat": shares[0].seat,
            "shared": len(shares) > 1,
        }

    def _after_engine(self, events: list[dict]) -> None:
        for event in events:
            if event["kind"] in PAID_AT_ONCE:
                self.paid_at_once.append(dict(event))
        self.status = self.engine.phase

    def _on_bet(self, command: dict) -> list[dict]:
        stake = _chips(command.get("stake"))
        seat = _parsed(parsing.seat_label, command.get("seat"))
        player_card = _parsed(parsing.player_card, command.get("player_card"))
        box = _box(command.get("box"))
        shares = [Share(s.seat, s.stake, s.player_card) for s in self.shares.get(box, [])]
        for share in shares:
            if share.seat == seat:
                share.stake = stake
                share.player_card = player_card or share.player_card
                break
        else:
            self._check_box_limit(box, seat, player_card)
            if len(shares) >= MAX_SHARES_PER_BOX:
                raise LiveError(
                    f"Box {box} already has three players: no more can share it",
                    code="box_full",
                    box=box,
                )
            shares.append(Share(seat, stake, player_card))
        return self._set_box(box, shares)

    def newcomers(self) -> list[dict]:
        """docs/sources.md#newcomer-free-box: boxes taken by a newcomer — an
        owner whose seat label had no stake in the table's last round while others had —
        which he may take only with the seated players' consent: ``[{"box", "seat"}]``."""
        rules = self.opening.get("rules")
        if isinstance(rules, dict) and not rules.get("newcomer_consent", True):
            return []
        seated = set(self.opening.get("seated") or ())
        if not seated:
            return []
        return [
            {"box": box, "seat": shares[0].seat}
            for box, shares in sorted(self.shares.items())
            if shares and shares[0].seat not in seated
        ]

    def _on_newcomer_refused(self, command: dict) -> list[dict]:
        """A seated player refused a newcomer his free box: he bets on it himself, and the
        newcomer's stake leaves the box (docs/sources.md#newcomer-free-box)."""
        if self.status != "betting":
            raise LiveError("Bets are closed", code="bets_closed")
        box = _box(command.get("box"))
        seat = _parsed(parsing.seat_label, command.get("seat"))
        newcomer = next((n for n in self.newcomers() if n["box"] == box), None)
        if newcomer is None:
            raise LiveError(f"No newcomer on box {box}", code="no_newcomer", box=box)
        if seat not in set(self.opening.get("seated") or ()):
            raise LiveError(
                f"{seat!r} had no stake in the last round: not a seated player",
                code="not_seated",
                seat=seat,
            )
        stake = _chips(command.get("stake"))
        self._check_box_limit(box, seat, "")
        events = self._set_box(box, [Share(seat, stake)])
        return [
            *events,
            {"kind": "newcomer_refused", "box": box, "seat": seat, "newcomer": newcomer["seat"]},
        ]

    def _check_box_limit(self, box: int, seat: str, player_card: str) -> None:
        """docs/sources.md#box-bet-limits: a player bets on at most ``max_boxes_per_player``
        boxes (0: any number, as the operations manual says). A player is his player card where
        the croupier entered one, else his seat label."""
        rules = self.opening.get("rules")
        limit = rules.get("max_boxes_per_player", 0) if isinstance(rules, dict) else 0
        if not limit:
            return

        def same_player(share: Share) -> bool:
            return share.seat == seat or bool(player_card and share.player_card == player_card)

        boxes = {
            number
            for number, shares in self.shares.items()
            if number != box and any(same_player(s) for s in shares)
        }
        if len(boxes) >= limit:
            raise LiveError(
                f"{seat} already bets on {len(boxes)} boxes: {limit} at most",
                code="box_limit",
                box=box,
                seat=seat,
                limit=limit,
                boxes=", ".join(str(n) for n in sorted(boxes)),
            )

    def _on_remove_share(self, command: dict) -> list[dict]:
        box = _box(command.get("box"))
        seat = _parsed(parsing.seat_label, command.get("seat"))
        shares = [s for s in self.shares.get(box, []) if s.seat != seat]
        if len(shares) == len(self.shares.get(box, [])):
            raise LiveError(f"No stake of {seat!r} on box {box}", code="no_such_share", box=box)
        return self._set_box(box, shares)

    def _set_box(self, box: int, shares: list[Share]) -> list[dict]:
        total = sum((s.stake for s in shares), Decimal(0))
        events = self._push(Bet(box, total))  # the engine checks the box total against limits
        self.last_was_card = False
        if shares:
            self.shares[box] = shares
        else:
            self.shares.pop(box, None)
        events.append({"kind": "shares", "box": box, "shares": [s.to_dict() for s in shares]})
        return events

    def _on_correct_card(self, command: dict) -> list[dict]:
        """Replace the last card entered (only before anything else happened): the engine
        pops it (``RoundState.pop``: the round and the shoe exactly as before it) and pushes
        the corrected card. Refused, the round unchanged, when the corrected card is not
        accepted where the last one went."""
        if not self.last_was_card:
            raise LiveError(
                "Only the last card can be corrected, and only before the next action",
                code="nothing_to_correct",
            )
        new = Deal(command.get("card"))
        old = self.engine.pop()
        try:
            events = self.engine.push(new)
        except EngineError:
            self.engine.push(old)  # the position the last card left: nothing changed
            raise
        del self.paid_at_once[self.paid_before_last :]
        self.actions[-1] = action_to_dict(new)
        self._after_engine(events)
        self.last_card = _last_card(events)
        correction = {"kind": "correction", "old": old.card.code, "new": new.card.code}
        self.corrections.append(correction)
        return [correction]

    def _on_cut_card_out(self, command: dict) -> list[dict]:
        """The croupier marks the cut card coming out: this round finishes, the next one
        needs a shuffle. It came out at the box about to receive a card, or the dealer."""
        if "cut-card-out" not in self.legal_commands():
            raise LiveError(
                "The cut card can be marked once, while cards are being dealt",
                code="cut_card_not_now",
            )
        turn = self.engine.turn
        where = {"dealer": True} if turn == "dealer" else {"box": turn[0]}
        self.cut_card_out = where
        self.last_was_card = False
        return [{"kind": "cut_card_out", **where}]

    def _on_confirm_settlement(self, command: dict) -> list[dict]:
        if self.status != "settled":
            raise LiveError("The round is not settled yet", code="not_settled")
        self.status = "closed"
        self.last_was_card = False
        return [{"kind": "settlement_confirmed", "net": str(self.engine.net)}]

    @property
    def total_bet(self) -> Decimal:
        """The stakes of the round's boxes (the round's total bet)."""
        return sum(self.engine.bets.values(), Decimal(0))

    @property
    def players_net(self) -> Decimal | None:
        """The players' result of an ended round: what the engine settled, or for a voided
        round what was paid at once and stays paid; ``None`` while the round is open."""
        if self.status == "closed":
            return self.engine.net
        if self.status == "voided":
            return self.paid_at_once_net
        return None

    @property
    def paid_at_once_net(self) -> Decimal:
        """What the players won by the payments made at once (a Blackjack, even money,
        three sevens, a split Blackjack): chips that left the tray during the round."""
        return sum((Decimal(e["net"]) for e in self.paid_at_once), Decimal(0))

    def at_stake(self) -> Decimal:
        """The chips in play on the table now: the stakes before the deal, then every
        hand's bet (doubles and splits included) and every insurance."""
        if not self.engine.seats:
            return self.total_bet
        return sum((self.box_settlement(b.number).in_play for b in self.engine.seats), Decimal(0))

    def box_settlement(self, number: int, chip_set=()) -> BoxSettlement | None:
        """The settlement figures of box ``number`` (None: not dealt in). With the table's
        chip set, the chips that pay what is still to pay (largest first)."""
        box = next((b for b in self.engine.seats if b.number == number), None)
        if box is None:
            return None
        in_play = sum((h.bet for h in box.hands), Decimal(0)) + (box.insurance or 0)
        paid = sum(
            (Decimal(e.get("net") or 0) for e in self.paid_at_once if e.get("box") == number),
            Decimal(0),
        )
        if self.status not in ("settled", "closed"):
            return BoxSettlement(in_play=in_play, paid_now=paid)
        to_settle = box.net - paid
        if to_settle <= 0:
            return BoxSettlement(in_play=in_play, paid_now=paid, to_settle=to_settle)
        split = chips.breakdown(to_settle, chip_set)
        return BoxSettlement(in_play, paid, to_settle, tuple(split.chips), split.rest)

    def _on_void(self, command: dict) -> list[dict]:
        """The inspector voids the round: every stake still in play goes back to its
        player, and — the house's rule — what was already paid at once (a Blackjack, even
        money, three sevens) stays paid: the void event lists those payments and their total,
        which is the voided round's result for the players."""
        reason = str(command.get("reason") or "").strip()
        if not reason:
            raise LiveError("A void needs a reason", code="reason_required")
        self.status = "voided"
        self.void_reason = reason[:500]
        self.last_was_card = False
        paid = [{"box": e["box"], "kind": e["kind"], "net": e["net"]} for e in self.paid_at_once]
        return [
            {
                "kind": "voided",
                "reason": self.void_reason,
                "paid_stays": paid,
                "paid_net": str(self.paid_at_once_net),
            }
        ]

    # -- persistence --------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "opening": self.opening,
            # The last card entered can be corrected: the engine keeps it on its move stack.
            "engine": self.engine.to_dict(undo=1 if self.last_was_card else 0),
            "shares": {str(b): [s.to_dict() for s in ss] for b, ss in self.shares.items()},
            "status": self.status,
            "actions": self.actions,
            "last_was_card": self.last_was_card,
            "last_card": self.last_card,
            "corrections": self.corrections,
            "cut_card_out": self.cut_card_out,
            "paid_at_once": self.paid_at_once,
            "paid_before_last": self.paid_before_last,
            "void_reason": self.void_reason,
        }

    @classmethod
    def from_dict(cls, d: dict) -> TableRound:
        r = cls.__new__(cls)
        r.opening = d["opening"]
        r.engine = RoundState.from_dict(d["engine"])
        r.shares = {int(b): [Share.from_dict(s) for s in ss] for b, ss in d["shares"].items()}
        r.status = d["status"]
        r.actions = list(d["actions"])
        r.last_was_card = d["last_was_card"]
        r.last_card = d.get("last_card")  # absent from snapshots before it was kept
        r.corrections = list(d["corrections"])
        r.cut_card_out = d["cut_card_out"]
        r.paid_at_once = list(d["paid_at_once"])
        r.paid_before_last = d.get("paid_before_last", 0)
        r.void_reason = d["void_reason"]
        if r.last_was_card and r.engine.peek() is None:
            r._last_card_undoable()
        return r

    def _last_card_undoable(self) -> None:
        """A snapshot stored before the engine kept the last card on its move stack: the
        engine is rebuilt once from the opening (with what was paid before that card)."""
        self.engine = self._fresh_engine()
        paid = []
        for a in self.actions:
            events = self.engine.push(action_from_dict(a))
            paid.append(sum(e["kind"] in PAID_AT_ONCE for e in events))
        self.paid_before_last = sum(paid[:-1])

    @classmethod
    def replay(cls, opening: dict, commands: list[dict]) -> TableRound:
        """Rebuild a round from its opening state and the commands it accepted, in order."""
        r = cls(opening)
        for command in commands:
            r.apply(command)
        return r


# Every command of the table layer and what does it (the engine's actions go to the engine).
# ``game.commands.dispatch.COMMANDS`` — the one dispatch table — sends them all here.
COMMANDS = {
    **dict.fromkeys(sorted(ENGINE_ACTIONS), TableRound._on_engine_action),
    "bet": TableRound._on_bet,
    "newcomer-refused": TableRound._on_newcomer_refused,
    "remove-share": TableRound._on_remove_share,
    "correct-card": TableRound._on_correct_card,
    "cut-card-out": TableRound._on_cut_card_out,
    "confirm-settlement": TableRound._on_confirm_settlement,
    "void": TableRound._on_void,
}


def _last_card(events: list[dict]) -> dict | None:
    """Where the last card among ``events`` went: ``{"card", "to": "box", "box", "hand"}``
    or ``{"card", "to": "dealer"}`` (what the tablet names while it is being corrected)."""
    for event in reversed(events):
        if event.get("kind") == "card":
            keys = ("card", "to", "box", "hand") if event["to"] == "box" else ("card", "to")
            return {k: event[k] for k in keys}
    return None
