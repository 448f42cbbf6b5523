"""Write paths of the live table: every command goes through :func:`command_submit`.

One transaction per command: lock the table's live row (``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite serialises writers itself), check the role and the expected version,
let the engine decide, append the event, save the snapshot, bump the version, and publish
the new state to every screen of the table once the transaction has committed.
"""

from __future__ import annotations

import logging
import math
import secrets
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from game import live
from game.engine import EngineError, Rules, ShoeState
from game.models import Command, ErrorFlag, LiveTable, Round, RoundEvent
from game.models import Shoe as ShoeRow
from staff.roles import Role, TableRole
from staff.selectors import table_role_for, table_staff
from tables.models import Table
from tables.selectors import reserved_boxes

log = logging.getLogger(__name__)

DEALER_COMMANDS = (live.COMMANDS - {"void"}) | {"open-round", "shuffle", "deal-next", "flag-seen"}
ROLE_COMMANDS = {
    TableRole.DEALING_CROUPIER: DEALER_COMMANDS,
    TableRole.OBSERVING_CROUPIER: frozenset({"flag", "reserve", "release"}),
    TableRole.INSPECTOR: frozenset({"void", "flag-seen"}),
    Role.DUTY_ADMINISTRATOR: frozenset(),
    Role.PIT_BOSS: frozenset(),
}
ALL_COMMANDS = frozenset().union(*ROLE_COMMANDS.values())


class CommandRefused(Exception):
    """A command the table refuses; nothing was changed."""

    def __init__(self, code: str, message: str = "", **params):
        super().__init__(message or code)
        self.code = code
        self.message = message
        self.params = params


@dataclass
class Outcome:
    ok: bool
    version: int
    code: str = ""
    message: str = ""
    params: dict = field(default_factory=dict)
    duplicate: bool = False

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "version": self.version,
            "code": self.code,
            "message": self.message,
            "params": self.params,
        }


def live_table_get(table: Table) -> LiveTable:
    live_row, _ = LiveTable.objects.get_or_create(table=table)
    return live_row


def table_rules(table: Table) -> Rules:
    return Rules.from_json(table.rules or "standard")


def command_submit(*, table_id: int, actor, command: dict) -> Outcome:
    """Apply one command from a screen of ``table_id`` for ``actor``.

    ``command`` is the protocol message: ``{"id": uuid, "expected_version": n,
    "action": name, ...}``. A repeated ``id`` returns the first outcome and acts only once; a
    stale ``expected_version`` is refused with code ``stale``. Returns an :class:`Outcome`.
    """
    try:
        command_id = uuid.UUID(str(command.get("id")))
        expected = command.get("expected_version")
        if isinstance(expected, bool) or not isinstance(expected, int):
            expected = int(str(expected))
    except (TypeError, ValueError, AttributeError):
        return _refused(table_id, "bad_message")
    action = command.get("action")
    if action not in ALL_COMMANDS:
        return _refused(table_id, "bad_action")

    previous = Command.objects.filter(pk=command_id).first()
    if previous is not None:
        return Outcome(**previous.outcome, duplicate=True)

    try:
        with transaction.atomic():
            table = Table.objects.get(pk=table_id)
            live_row = LiveTable.objects.select_for_update().filter(pk=table.pk).first()
            if live_row is None:  # the table's first command
                live_table_get(table)
                live_row = LiveTable.objects.select_for_update().get(pk=table.pk)
            role = table_role_for(user=actor, table=table)
            if role is None or action not in ROLE_COMMANDS.get(role, ()):
                raise CommandRefused("not_your_action")
            if expected != live_row.version:
                raise CommandRefused("stale")
            try:
                _dispatch(table, live_row, actor, role, action, command)
            except (ValueError, TypeError, ArithmeticError) as error:
                # Input no check foresaw: refuse it (nothing is saved) rather than drop the
                # screen's socket; the log keeps the detail for a fix.
                log.warning("command %s refused as unreadable: %r", action, error)
                raise CommandRefused("bad_message") from error
            live_row.version += 1
            live_row.save()
            outcome = Outcome(ok=True, version=live_row.version)
            Command.objects.create(
                id=command_id, table=table, actor=actor, action=action, outcome=outcome.to_dict()
            )
            table_pk = table.pk
            transaction.on_commit(lambda: _publish(table_pk))
    except CommandRefused as refusal:
        return _refused(table_id, refusal.code, refusal.message, refusal.params)
    except EngineError as error:
        return _refused(table_id, error.code, error.message, error.params)
    except Table.DoesNotExist:
        return _refused(table_id, "bad_message")
    except IntegrityError:
        # The same id raced in from another worker: the first one won; report its outcome.
        previous = Command.objects.filter(pk=command_id).first()
        if previous is not None:
            return Outcome(**previous.outcome, duplicate=True)
        return _refused(table_id, "stale")
    return outcome


def _refused(table_id, code, message="", params=None) -> Outcome:
    version = LiveTable.objects.filter(pk=table_id).values_list("version", flat=True).first()
    return Outcome(
        ok=False,
        version=version or 0,
        code=code,
        message=message,
        params={k: str(v) for k, v in (params or {}).items()},
    )


def _publish(table_id: int) -> None:
    from game.publish import publish_table

    publish_table(table_id)


# -- dispatch ---------------------------------------------------------------------------


def _dispatch(table, live_row, actor, role, action, command) -> None:
    if action == "shuffle":
        return _shuffle(table, live_row, actor, command)
    if action == "open-round":
        return _open_round(table, live_row, actor)
    if action == "flag":
        return _flag(table, live_row, actor, command)
    if action == "flag-seen":
        return _flag_seen(table, actor, command)
    if action in ("reserve", "release"):
        return _reservation(table, live_row, actor, action, command)
    round_row = _current_round(live_row)
    if round_row is None:
        raise CommandRefused("no_round")
    if action == "deal-next":
        if table.card_entry != Table.CardEntry.SIMULATED:
            raise CommandRefused("simulated_only")
        return _deal_next(table, live_row, round_row, actor)
    if action in ("card", "correct-card") and table.card_entry == Table.CardEntry.SIMULATED:
        raise CommandRefused("manual_only")
    if action == "bet":
        box = command.get("box")
        number = box_number(box)
        if number is not None and number in reserved_boxes(table=table):
            raise CommandRefused("box_reserved", box=number)
    if action == "close-bets" and not command.get("occupancy_acknowledged"):
        _check_occupancy(table, round_row)
    events = _apply(live_row, round_row, actor, _normalise(command))
    if action in ("correct-card", "void"):
        _alert_for(table, round_row, actor, action, events)


def _alert_for(table, round_row, actor, action, events) -> None:
    """A card correction or a voided round is something the inspector must see."""
    from tables.models import Alert
    from tables.services import alert_raise

    for event in events:
        if event.get("kind") == "correction":
            alert_raise(
                table=table,
                kind="card_corrected",
                params={"round": round_row.number, "old": event["old"], "new": event["new"]},
                raised_by=actor,
                publish=False,
            )
        elif event.get("kind") == "voided":
            alert_raise(
                table=table,
                kind="round_voided",
                params={"round": round_row.number, "reason": event["reason"]},
                severity=Alert.Severity.CRITICAL,
                raised_by=actor,
                publish=False,
            )


def _check_occupancy(table, round_row) -> None:
    """Documents 000 and 002: a player who wants the table to himself while boxes are free
    must bet on every box. A lone player with free, unreserved boxes left needs the
    croupier's acknowledgement (``occupancy_acknowledged``) before bets close."""
    state = live.TableRound.from_dict(round_row.snapshot)
    seats = {share.seat for shares in state.shares.values() for share in shares}
    if len(seats) != 1:
        return
    taken = set(state.shares) | reserved_boxes(table=table)
    free = [n for n in table.box_numbers if n not in taken]
    if free:
        raise CommandRefused(
            "lone_player_free_boxes",
            seat=next(iter(seats)),
            boxes=", ".join(str(n) for n in free),
        )


def _reservation(table, live_row, actor, action, command) -> None:
    """The observing croupier puts a token on a box, or takes it off (the player is back)."""
    from django.core.exceptions import ValidationError

    from tables import services as table_services

    box = box_number(command.get("box"))
    if box is None:
        raise CommandRefused("bad_message")
    try:
        if action == "reserve":
            current = live_row.current_round
            if current is not None and current.is_open:
                state = live.TableRound.from_dict(current.snapshot)
                if box in state.shares or box in state.engine.bets:
                    raise CommandRefused("box_in_play", box=box)
            table_services.reservation_place(
                table=table, box=box, seat=str(command.get("seat") or ""), placed_by=actor
            )
        else:
            table_services.reservation_release(table=table, box=box, released_by=actor)
    except ValidationError as error:
        raise CommandRefused(error.code or "bad_message", " ".join(error.messages), box=box)


def box_number(value) -> int | None:
    """A box number from a command (an int or ASCII digits), or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value if value is not None else "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


def _current_round(live_row) -> Round | None:
    if live_row.current_round_id is None:
        return None
    return (
        Round.objects.select_for_update().select_related("shoe").get(pk=live_row.current_round_id)
    )


def _normalise(command: dict) -> dict:
    """Keep the command's own fields: no id, version or headers; only short scalars."""
    return {
        k: v
        for k, v in command.items()
        if k not in ("id", "expected_version", "HEADERS")
        and isinstance(v, str | int)
        and not isinstance(v, bool)
        and len(str(v)) <= 500
    }


def _apply(live_row, round_row, actor, command: dict) -> list[dict]:
    state = live.TableRound.from_dict(round_row.snapshot)
    events = state.apply(command)
    _record(live_row, round_row, actor, command, events, state)
    return events


def _record(live_row, round_row, actor, command, events, state) -> None:
    round_row.events_count += 1
    seq = round_row.events_count
    version = live_row.version + 1
    RoundEvent.objects.create(
        round=round_row,
        seq=seq,
        type=command["action"],
        payload={"command": command, "events": events},
        actor=actor,
        version=version,
    )
    round_row.snapshot = state.to_dict()
    round_row.status = state.status
    round_row.version = version
    round_row.total_bet = sum(state.engine.bets.values(), Decimal(0))
    if state.status in ("closed", "voided"):
        round_row.closed_at = timezone.now()
        round_row.players_net = state.engine.net if state.status == "closed" else Decimal(0)
    round_row.save()
    shoe = round_row.shoe
    shoe.state = state.engine.shoe.to_dict()
    if state.cut_card_out and shoe.cut_card_out is None:
        shoe.cut_card_out = state.cut_card_out
    shoe.save(update_fields=["state", "cut_card_out"])
    if state.status in ("closed", "voided"):
        # A round boundary: an approved croupier replacement hands the tablet over now.
        from staff.services import replacement_hand_over_due

        replacement_hand_over_due(table=round_row.table)


def _deal_next(table, live_row, round_row, actor) -> None:
    """Simulated shoe: the server takes the next card and records it as any card entry."""
    state = live.TableRound.from_dict(round_row.snapshot)
    shoe = state.engine.shoe
    if not shoe.virtual:
        raise CommandRefused("simulated_only")
    if (
        shoe.cut_card_out
        and state.cut_card_out is None
        and ("cut-card-out" in state.legal_commands())
    ):
        _apply(live_row, round_row, None, {"action": "cut-card-out"})
        live_row.version += 1
    card = shoe.next_card().code
    _apply(live_row, round_row, actor, {"action": "card", "card": card, "simulated": 1})


def _open_round(table, live_row, actor) -> None:
    if table.status != Table.Status.OPEN:
        raise CommandRefused("table_not_open")
    current = live_row.current_round
    if current is not None and current.is_open:
        raise CommandRefused("round_in_progress")
    staff = table_staff(table=table)
    if not all(role in staff for role in TableRole.values):
        raise CommandRefused("staff_missing")
    shoe = live_row.current_shoe
    if shoe is None or shoe.cut_card_out is not None:
        raise CommandRefused("shuffle_needed")
    rules = table_rules(table)
    opening = {
        "rules": rules.to_json(),
        "limits": {"min": str(table.min_bet), "max": str(table.max_bet)},
        "boxes": table.box_numbers,
        "shoe": shoe.state,
    }
    state = live.TableRound(opening)
    number = _next_number(Round, table)
    version = live_row.version + 1
    round_row = Round.objects.create(
        table=table,
        shoe=shoe,
        number=number,
        snapshot=state.to_dict(),
        version=version,
        opened_by=actor,
    )
    RoundEvent.objects.create(
        round=round_row,
        seq=1,
        type="open-round",
        payload={"opening": opening},
        actor=actor,
        version=version,
    )
    live_row.current_round = round_row


def _next_number(model, table) -> int:
    """The next per-table sequence number of a shoe or a round (callers hold the table's
    live row locked, so two commands cannot take the same number)."""
    last = model.objects.filter(table=table).order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


def cut_limits(decks: int) -> tuple[int, int]:
    """Cards the cut card may leave behind it: 1/4 to 1/3 of the pack (documents 000, 002)."""
    size = decks * 52
    return math.ceil(size / 4), size // 3


def _shuffle(table, live_row, actor, command) -> None:
    current = live_row.current_round
    if current is not None and current.is_open:
        raise CommandRefused("round_in_progress")
    rules = table_rules(table)
    reason = command.get("reason") or ShoeRow.Reason.NEW_SHOE
    if reason not in ShoeRow.Reason.values:
        raise CommandRefused("bad_message")
    previous = live_row.current_shoe
    if reason == ShoeRow.Reason.PLAYER_REQUEST and previous is not None:
        if previous.reason == ShoeRow.Reason.PLAYER_REQUEST and _players_last_round(live_row) > 1:
            raise CommandRefused("reshuffle_limit")
    low, high = cut_limits(rules.decks)
    try:
        behind = int(command.get("cards_behind_cut"))
    except (TypeError, ValueError):
        raise CommandRefused("bad_cut", low=low, high=high)
    if not low <= behind <= high:
        raise CommandRefused("bad_cut", low=low, high=high)
    cut_by = command.get("cut_by_box")
    cut_by = box_number(cut_by)
    if cut_by is not None and cut_by not in table.box_numbers:
        raise CommandRefused("unknown_box", box=cut_by)
    entitled = None
    if previous is not None and previous.cut_card_out:
        entitled = previous.cut_card_out.get("box")  # None: the dealer chooses who cuts
    simulated = table.card_entry == Table.CardEntry.SIMULATED
    seed = ""
    if simulated:
        seed = secrets.token_hex(8)
        engine_shoe = ShoeState.shuffled(rules.decks, seed)
        engine_shoe.cut = engine_shoe.size - behind
    else:
        engine_shoe = ShoeState(rules.decks)
    burn = ""
    if rules.dealer_cards == "hole":
        if simulated:
            burn = engine_shoe.draw().code
        else:
            from game.engine import Card

            try:
                card = Card.parse(str(command.get("burn_card") or ""))
            except EngineError:
                raise CommandRefused("burn_card_required")
            engine_shoe.take(card)
            burn = card.code
    number = _next_number(ShoeRow, table)
    shoe = ShoeRow.objects.create(
        table=table,
        number=number,
        decks=rules.decks,
        simulated=simulated,
        seed=seed,
        state=engine_shoe.to_dict(),
        reason=reason,
        shuffled_by=actor,
        cut_entitled_box=entitled,
        cut_by_box=cut_by,
        cards_behind_cut=behind,
        burn_card=burn,
    )
    live_row.current_shoe = shoe


def _players_last_round(live_row) -> int:
    current = live_row.current_round
    if current is None:
        return 0
    state = live.TableRound.from_dict(current.snapshot)
    return len({share.seat for shares in state.shares.values() for share in shares})


def _flag(table, live_row, actor, command) -> None:
    note = str(command.get("note") or "").strip()
    if not note:
        raise CommandRefused("note_required")
    ErrorFlag.objects.create(
        table=table, round=live_row.current_round, raised_by=actor, note=note[:1000]
    )
    from tables.services import alert_raise

    alert_raise(
        table=table, kind="flag", params={"note": note[:1000]}, raised_by=actor, publish=False
    )


def _flag_seen(table, actor, command) -> None:
    try:
        flag = ErrorFlag.objects.get(pk=int(command.get("flag")), table=table, seen_at__isnull=True)
    except (ErrorFlag.DoesNotExist, TypeError, ValueError):
        raise CommandRefused("bad_message")
    flag.seen_by = actor
    flag.seen_at = timezone.now()
    flag.save(update_fields=["seen_by", "seen_at"])
