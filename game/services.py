"""Write paths of the live table: every command goes through :func:`command_submit`.

One transaction per command: lock the table's live row (``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite serialises writers itself) reading the person's role and assignment and
the head of the table's round-event chain in the same statement; check — for a command that
changes the round or the shoe — the round version the screen showed; let the table layer
and the engine decide; then append the event with its chain link, save the round and the
shoe, move the round version, record the command id (``INSERT … ON CONFLICT DO NOTHING``)
and move the table topic's sequence — as one statement on PostgreSQL (``game.writes``) —
and say what changed (``floor.changes``: the screens are published once, after the
commit). A refused command whose id was accepted before (a tap sent again after a
reconnect) is answered with its first outcome.

Two numbers: the **round version** (``LiveTable.version``) moves only with commands that
change the round or the shoe, and a command of that kind must carry it
(``expected_version``); a cash-in, a tip, an alert, a note, a reservation or a staff
change never makes a croupier's next tap stale. The **screen sequence** (the table topic's,
``feed.Topic``) moves with every change a screen shows and orders the fragments.
"""

from __future__ import annotations

import logging
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Subquery
from django.utils import timezone

from cashdesk.models import RoundResult
from cashdesk.services import round_result_record
from feed import metrics
from feed.send import said
from feed.sequences import topic_next_sql
from floor import parsing
from floor.alerts import alert_raise
from floor.changes import table_changed, table_topic
from floor.errors import Refused
from floor.ledger import AuditChain, chain_head_ensure, key_id, link_after
from floor.models import Alert
from floor.parsing import box_number, whole_number
from game import live, players
from game.configuration import house_edge, table_rules
from game.cuts import cut_card_early, cut_limits
from game.engine import Card, EngineError, ShoeState
from game.models import Command, ErrorFlag, LiveTable, Round, RoundEvent, Shoe, round_chain_of
from game.presenters import card_name, shoe_before_opening
from game.writes import Writes
from staff import seats
from staff.permissions import At, may
from staff.selectors import table_role_subquery
from staff.services import replacement_hand_over_due
from tables import chips
from tables.models import Table
from tables.selectors import reserved_boxes
from tables.services import reservation_place, reservation_release, reservation_renew

log = logging.getLogger(__name__)

# Commands that change the round or the shoe: they carry the round version the screen
# showed, are refused ``stale`` when it moved on, and move it.
ROUND_COMMANDS = live.COMMANDS | {"open-round", "shuffle", "deal-next"}
# Each command is one act of staff.permissions: who may send it is declared there, once.
COMMAND_ACTS = {
    **dict.fromkeys(ROUND_COMMANDS - {"void"}, "game.deal"),
    "void": "game.void",
    "flag": "game.flag",
    "flag-seen": "game.flag_seen",
    "reserve": "game.reserve",
    "release": "game.reserve",
    "renew-reservation": "game.renew_reservation",
    # Rated play (game.players): either croupier of the table seats a player and sees him leave.
    "player-in": "game.seat_player",
    "player-out": "game.seat_player",
}
ALL_COMMANDS = frozenset(COMMAND_ACTS)
MAX_FIELD_LENGTH = 500


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


@dataclass
class _Command:
    """One parsed command: what the screen sent, checked for shape."""

    id: uuid.UUID
    action: str
    expected: int | None
    fields: dict


def command_parse(message) -> _Command | Refused:
    """The protocol message as a command, or the refusal (``bad_message``: not a command
    at all; ``bad_action``: an action the table does not know). Only short scalar fields
    are kept: a list, an object or a long string never reaches the table."""
    if not isinstance(message, dict):
        return Refused("bad_message")
    try:
        command_id = uuid.UUID(str(message.get("id")))
    except (TypeError, ValueError, AttributeError):
        return Refused("bad_message")
    action = message.get("action")
    if not isinstance(action, str) or action not in ALL_COMMANDS:
        return Refused("bad_action")
    expected = message.get("expected_version")
    expected = None if expected is None else whole_number(expected)
    if action in ROUND_COMMANDS and expected is None:
        return Refused("bad_message")
    fields = {
        k: v
        for k, v in message.items()
        if k not in ("id", "expected_version", "HEADERS")
        and isinstance(k, str)
        and isinstance(v, str | int)
        and not isinstance(v, bool)
        and len(str(v)) <= MAX_FIELD_LENGTH
    }
    try:
        fields.update(_typed_fields(action, message))
    except parsing.Unreadable as error:
        return Refused(error.code, **error.params)
    return _Command(id=command_id, action=action, expected=expected, fields=fields)


# -- what a person typed: amounts and labels, read by the one parser (floor.parsing) ------


def _stake(value) -> str:
    return str(parsing.amount(value, positive=True))  # "1 500,5" -> "1500.50"


def _chips_taken(value) -> str:
    return "" if value in (None, "") else str(parsing.amount(value))


def _seat(value) -> str:
    return parsing.seat_label(value)


def _seat_if_any(value) -> str:
    return parsing.seat_label(value, required=False)


# The typed fields of each command and their parser: every one is read, whatever its type,
# before anything else is done with the command — a bad one refuses the whole command, and
# the event keeps the normalised value ("100.00"), never the spelling.
TYPED_FIELDS = {
    "bet": {"stake": _stake, "seat": _seat, "player_card": parsing.player_card},
    "newcomer-refused": {"stake": _stake, "seat": _seat},
    "remove-share": {"seat": _seat},
    "insure": {"amount": _stake},
    "reserve": {"seat": _seat_if_any},
    "player-in": {"seat": _seat, "player_card": parsing.player_card},
    "player-out": {"chips_taken": _chips_taken},
}


def _typed_fields(action: str, message: dict) -> dict:
    """The typed fields of ``action`` in ``message``, normalised; raises
    ``parsing.Unreadable``."""
    return {name: parse(message.get(name)) for name, parse in TYPED_FIELDS.get(action, {}).items()}


@dataclass
class _Context:
    """What a command's handler works with, inside the command's transaction."""

    table: Table
    live_row: LiveTable
    actor: object
    role: str
    command: _Command
    now: object = None
    writes: Writes = field(default_factory=Writes)
    board: bool = False  # something besides the round changed (the publisher re-reads it)
    round_open: bool | None = None
    announced: bool = False  # the handler said itself what changed (floor.changes)

    def next_version(self) -> int:
        self.live_row.version += 1
        return self.live_row.version

    def append_event(self, event: RoundEvent) -> None:
        """Make ``event`` the next link of the table's round-event chain of the day (its
        head was read with the lock; the table's lock keeps other writers off) and add it,
        and the head's move, to this command's writes."""
        row = self.live_row
        key, day = round_chain_of(self.table.pk, event.created_at)
        if getattr(row, "chain_key", None) != key or row.chain_id is None:
            row.chain_id, row.chain_length, row.chain_head = chain_head_ensure(key, day)
            row.chain_key = key
            # The table's first command of the day also makes the chain its round results
            # will be links of (once a day: the round's close then only moves its head).
            chain_head_ensure(RoundResult.chain_key(self.table.pk, day), day)
        length, head, mac = link_after(
            event, key=key, day=day, length=row.chain_length, head=row.chain_head
        )
        row.chain_length, row.chain_head = length, head
        self.writes.insert(event)
        self.writes.update(
            AuditChain, row.chain_id, length=length, head=head, mac=mac, key_id=key_id()
        )


def command_submit(*, table_id: int, actor, command) -> Outcome:
    """Apply one command from a screen of ``table_id`` for ``actor``.

    ``command`` is the protocol message: ``{"id": uuid, "expected_version": n, "action":
    name, ...}`` (docs/protocol.md). A repeated ``id`` returns the first outcome and acts
    only once; a round command whose ``expected_version`` is not the round version now is
    refused ``stale``. Any refusal changes nothing. Returns an :class:`Outcome`.
    """
    parsed = command_parse(command)
    if isinstance(parsed, Refused):
        return _refused(table_id, parsed, getattr(command, "get", lambda _k: "")("action"))
    started = time.perf_counter()
    try:
        outcome = _submit(table_id, actor, parsed)
    except _Answered as answered:
        outcome = answered.outcome
    except Refused as refusal:
        return _refused(table_id, refusal, parsed.action)
    except EngineError as error:
        return _refused(table_id, Refused(error.code, error.message, **error.params), parsed.action)
    except IntegrityError:
        # The same id raced in from another worker: the first one won. This call passed
        # the permission check in its own transaction; its outcome is reported only when it
        # is the same person's same command at this table (``_previous_outcome``).
        try:
            previous = _previous_outcome(table_id, actor, parsed)
        except Refused as refusal:
            return _refused(table_id, refusal, parsed.action)
        if previous is not None:
            return previous
        return _refused(table_id, Refused("stale"), parsed.action)
    metrics.COMMAND_SECONDS.observe(time.perf_counter() - started)
    metrics.COMMANDS.labels(parsed.action, "duplicate" if outcome.duplicate else "ok").inc()
    return outcome


class _Answered(Exception):  # noqa: N818 - not an error: the transaction's answer
    """A refused command whose id was accepted before: its first outcome (raised so that
    the transaction rolls back whatever the handler did)."""

    def __init__(self, outcome: Outcome):
        self.outcome = outcome


def _lock(table_id: int, actor, when) -> LiveTable | None:
    """The table's live row, locked (``SELECT … FOR UPDATE``), with its table, board,
    current round and shoe, the person's role at the table (``actor_role``) and the head
    of the table's round-event chain of the day (``chain_*``) — one statement."""
    key, _day = round_chain_of(table_id, when)
    chain = AuditChain.objects.filter(key=key)
    row = (
        LiveTable.objects.select_for_update(of=("self",))
        .select_related("table", "table__feed", "current_round", "current_shoe")
        .annotate(
            actor_role=table_role_subquery(user_id=actor.pk, table_ref="table_id"),
            chain_id=Subquery(chain.values("pk")[:1]),
            chain_length=Subquery(chain.values("length")[:1]),
            chain_head=Subquery(chain.values("head")[:1]),
        )
        .filter(pk=table_id)
        .first()
    )
    if row is not None:
        row.chain_key = key
    return row


def _submit(table_id: int, actor, command: _Command) -> Outcome:
    now = timezone.now()
    with transaction.atomic():
        if not actor.is_authenticated:
            raise Refused("not_your_action")
        live_row = _lock(table_id, actor, now)
        if live_row is None:
            raise Refused("bad_message")
        # Who may act comes first: a repeated id is answered only after the person's role
        # at this table allows the action now (a person who lost the role, or someone
        # replaying another's id, learns nothing from it).
        role = live_row.actor_role
        if not may(COMMAND_ACTS[command.action], actor, At(table_id, role)):
            raise Refused("not_your_action")
        ctx = _Context(
            table=live_row.table,
            live_row=live_row,
            actor=actor,
            role=role,
            command=command,
            now=now,
        )
        try:
            return _act(ctx)
        except (Refused, EngineError) as refusal:
            # A command sent again (a tap replayed after a reconnect) is refused — stale,
            # or by its handler — when its first time was accepted: answer that instead.
            previous = _previous_outcome(table_id, actor, command)
            if previous is not None:
                raise _Answered(previous) from refusal
            raise


def _act(ctx: _Context) -> Outcome:
    command, live_row = ctx.command, ctx.live_row
    if command.action in ROUND_COMMANDS and command.expected != live_row.version:
        raise Refused("stale")
    try:
        HANDLERS.get(command.action, _round_command)(ctx)
    except (ValueError, TypeError, ArithmeticError) as error:
        # Input no check foresaw: refuse it (nothing is saved) rather than drop the
        # screen's socket; the log keeps the detail for a fix.
        log.warning("command %s refused as unreadable: %r", command.action, error)
        raise Refused("bad_message") from error
    outcome = Outcome(ok=True, version=live_row.version)
    _finish(ctx, outcome)
    return outcome


def _finish(ctx: _Context, outcome: Outcome) -> None:
    """The command's last writes, with whatever its handler left (``ctx.writes``): the live
    row, the command's id and outcome (``ON CONFLICT DO NOTHING``: taken meanwhile means
    a repeat — rolled back, answered with the first outcome) and the table topic's
    sequence; then the word that the table changed (``floor.changes``)."""
    command, live_row, writes = ctx.command, ctx.live_row, ctx.writes
    if command.action in ROUND_COMMANDS:
        writes.update(
            LiveTable,
            live_row.pk,
            version=live_row.version,
            current_shoe=live_row.current_shoe_id,
            current_round=live_row.current_round_id,
            updated_at=ctx.now,
        )
    record = Command(
        id=command.id,
        table_id=ctx.table.pk,
        actor_id=ctx.actor.pk,
        action=command.action,
        outcome=outcome.to_dict(),
    )
    writes.insert(record, returning="command", conflict_nothing=True)
    topic = table_topic(ctx.table.pk)
    fold = not ctx.announced and not said(topic)
    if fold:  # the first word of the table in the transaction: its sequence moves here
        writes.raw(*topic_next_sql(topic), returning="seq")
    done = writes.run()
    if done.get("command") is None:
        raise IntegrityError("the command id was taken meanwhile")
    if not ctx.announced:
        table_changed(
            ctx.table.pk,
            board=ctx.board,
            round_open=ctx.round_open,
            round_number=live_row.current_round.number if ctx.round_open else None,
            # A round command changed only the round and the shoe of the row loaded
            # here: the publisher renders from it instead of reading it again.
            state=live_row if command.action not in HANDLERS else None,
            seq=done.get("seq") if fold else None,
        )


def _previous_outcome(table_id: int, actor, command: _Command) -> Outcome | None:
    """The first outcome of a repeated command id, or None for a new id. An id already
    taken by another table's, another person's or another action's command is refused
    (``bad_message``): its outcome is not this screen's to see."""
    row = (
        Command.objects.filter(pk=command.id)
        .values("outcome", "table_id", "actor_id", "action")
        .first()
    )
    if row is None:
        return None
    if (row["table_id"], row["actor_id"], row["action"]) != (table_id, actor.pk, command.action):
        raise Refused("bad_message")
    return Outcome(**row["outcome"], duplicate=True)


def _refused(table_id, refusal: Refused, action="") -> Outcome:
    version = LiveTable.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if refusal.code == "stale":
        metrics.STALE_REFUSALS.inc()
    known = isinstance(action, str) and action in ALL_COMMANDS
    metrics.COMMANDS.labels(action if known else "?", refusal.code).inc()
    message = refusal.text if refusal.text != refusal.code else ""
    return Outcome(
        ok=False,
        version=version or 0,
        code=refusal.code,
        message=message,
        params={k: str(v) for k, v in refusal.refusal_params.items()},
    )


# -- the round: every command of the table layer and the engine ---------------------------


def _current_round(ctx: _Context) -> Round:
    round_row = ctx.live_row.current_round
    if round_row is None:
        raise Refused("no_round")
    return round_row


def _round_command(ctx: _Context) -> None:
    """A command on the current round (bet, card, stand, ..., void): the table layer and the
    engine decide."""
    round_row = _current_round(ctx)
    action = ctx.command.action
    simulated = ctx.table.card_entry == Table.CardEntry.SIMULATED
    if action in ("card", "correct-card") and simulated:
        raise Refused("manual_only")
    fields = ctx.command.fields
    state = live.TableRound.from_dict(round_row.snapshot)
    if action == "bet":
        number = box_number(fields.get("box"))
        if number is not None and number in reserved_boxes(table=ctx.table):
            raise Refused("box_reserved", box=number)
    if action in ("bet", "newcomer-refused"):
        _stake_in_chips(ctx.table, fields)
    if action == "cut-card-out" and not fields.get("confirmed"):
        _cut_card_not_early(ctx.live_row.current_shoe, state)
    if action == "close-bets":
        _close_bets_checks(ctx.table, state, fields)
    command = {"action": action, **fields}
    events = state.apply(command)
    _record(ctx, round_row, command, events, state)
    if action in ("correct-card", "void"):
        _alert_for(ctx, round_row, events)


def _close_bets_checks(table: Table, state: live.TableRound, fields: dict) -> None:
    """What "bets are placed" needs first: a lone player's choice, the seated players'
    consent to a newcomer. Each is kept in the event only where it applied."""
    _lone_player_choice(table, state, fields)
    _limits_told(state, fields)
    # docs/sources.md#newcomer-free-box: the seated players' consent, recorded with close-bets
    newcomers = state.newcomers()
    if not newcomers:
        fields.pop("newcomer_consent", None)
    elif fields.get("newcomer_consent") != "agreed":
        raise Refused(
            "newcomer_free_box",
            seats=", ".join(f"{n['seat']} ({n['box']})" for n in newcomers),
        )


def _limits_told(state: live.TableRound, fields: dict) -> None:
    """docs/sources.md#limits-told: every player is told the table's minimum and maximum
    bet. A player new at the table since it opened has his first stake on a box: bets close
    only once the croupier says he told him (``limits_announced: told``; else
    ``limits_not_announced``), and the event names who was told (``limits_told_to``)."""
    told = fields.pop("limits_announced", "")
    fields.pop("limits_told_to", None)  # the server says who was told
    seats = state.uninformed()
    if not seats:
        return
    if told != "told":
        limits = state.opening.get("limits") or {}
        raise Refused(
            "limits_not_announced",
            seats=", ".join(seats),
            min=limits.get("min", ""),
            max=limits.get("max", ""),
        )
    fields["limits_told_to"] = ", ".join(seats)


def _lone_player_choice(table: Table, state: live.TableRound, fields: dict) -> None:
    """docs/sources.md#lone-player-bets-every-box: a player alone at the table while boxes
    are free wants the table to himself — then he bets on every box (``lone_player:
    alone`` is refused, ``lone_player_every_box``, while a free box has no stake of his) —
    or he plays his boxes and the free ones stay open to other players (``lone_player:
    shared``, recorded in the event with the free boxes). Neither said: refused
    (``lone_player_free_boxes``). The reserved boxes are read only when one player leaves
    boxes free: a table of several players costs no statement."""
    choice = fields.pop("lone_player", "")
    fields.pop("free_boxes", None)  # the server says which boxes stayed free
    if state.lone_player() is None:
        return
    lone = state.lone_player(reserved_boxes(table=table))
    if lone is None:
        return
    if choice == "alone":
        raise Refused("lone_player_every_box", seat=lone["seat"], boxes=lone["boxes"])
    if choice != "shared":
        raise Refused("lone_player_free_boxes", seat=lone["seat"], boxes=lone["boxes"])
    fields["lone_player"] = "shared"
    fields["free_boxes"] = lone["boxes"]


def _stake_in_chips(table: Table, fields: dict) -> None:
    """A stake (parsed: ``TYPED_FIELDS``) is chips on the box: over the table's maximum it is
    refused first, before any other arithmetic; then an amount the table's chips cannot
    make (a 150.50 where the smallest chip is 50), counted per denomination. A table without
    a chip set takes any amount."""
    stake = Decimal(fields["stake"])
    if stake > table.max_bet:
        box = box_number(fields.get("box"))
        raise Refused(
            "bet_over_maximum", box=box if box is not None else "?", amount=stake, max=table.max_bet
        )
    if not chips.payable(stake, table.chip_denominations):
        chip_set = ",".join(
            str(d) for d in reversed(chips.denominations_of(table.chip_denominations))
        )
        raise Refused("stake_not_in_chips", amount=str(stake), chips=chip_set)


def _cut_card_not_early(shoe, state: live.TableRound) -> None:
    """ "The cut card came out" long before the place it was put at asks for a confirmation
    (``confirmed``): a slip of the finger would end the shoe."""
    engine_shoe = state.engine.shoe
    behind = shoe.cards_behind_cut if shoe is not None else None
    if cut_card_early(dealt=engine_shoe.dealt, size=engine_shoe.size, behind=behind):
        raise Refused(
            "cut_card_early",
            dealt=engine_shoe.dealt,
            size=engine_shoe.size,
            pct=round(100 * engine_shoe.dealt / engine_shoe.size),
        )


def _alert_for(ctx: _Context, round_row: Round, events: list[dict]) -> None:
    """A card correction or a voided round is something the inspector must see."""
    for event in events:
        if event.get("kind") in ("correction", "voided"):
            ctx.announced = True  # the alert says the table changed
        if event.get("kind") == "correction":
            alert_raise(
                table_id=ctx.table.pk,
                kind="card_corrected",
                params={
                    "round": round_row.number,
                    "old": card_name(event["old"]),
                    "new": card_name(event["new"]),
                },
                raised_by=ctx.actor,
            )
        elif event.get("kind") == "voided":
            alert_raise(
                table_id=ctx.table.pk,
                kind="round_voided",
                params={"round": round_row.number, "reason": event["reason"]},
                severity=Alert.Severity.CRITICAL,
                raised_by=ctx.actor,
            )


def _record(ctx: _Context, round_row: Round, command: dict, events, state) -> None:
    """Append the event, save the round's snapshot and the shoe (with the command's other
    writes, ``game.writes``); at the round's end, its result for the reports and the round
    boundary (a croupier's hand-over)."""
    version = ctx.next_version()
    round_row.events_count += 1
    ctx.append_event(
        RoundEvent(
            round=round_row,
            seq=round_row.events_count,
            type=command["action"],
            payload={"command": command, "events": events},
            actor=ctx.actor,
            version=version,
            created_at=ctx.now,
        )
    )
    round_row.snapshot = state.to_dict()
    round_row.status = state.status
    round_row.version = version
    round_row.total_bet = sum(state.engine.bets.values(), Decimal(0))
    ended = state.status in ("closed", "voided")
    if ended:
        round_row.closed_at = ctx.now
        # A voided round's result is what was paid at once and stays paid (game.live).
        round_row.players_net = (
            state.engine.net if state.status == "closed" else state.paid_at_once_net
        )
    ctx.writes.update(
        Round,
        round_row.pk,
        **{name: getattr(round_row, name) for name in ROUND_SAVED},
    )
    current_shoe = ctx.live_row.current_shoe
    shoe = current_shoe if current_shoe and current_shoe.pk == round_row.shoe_id else round_row.shoe
    shoe_state = state.engine.shoe.to_dict()
    cut_out = state.cut_card_out if state.cut_card_out and shoe.cut_card_out is None else None
    if shoe_state != shoe.state or cut_out:
        shoe.state = shoe_state
        shoe.cut_card_out = cut_out or shoe.cut_card_out
        ctx.writes.update(Shoe, shoe.pk, state=shoe.state, cut_card_out=shoe.cut_card_out)
    if ended:
        ctx.writes.run()  # the round as it ended, before its result is recorded from it
        _round_ended(ctx, round_row, state)


ROUND_SAVED = (
    "events_count",
    "snapshot",
    "status",
    "version",
    "total_bet",
    "closed_at",
    "players_net",
)


def _round_ended(ctx: _Context, round_row: Round, state: live.TableRound) -> None:
    # The last settlement and the shift's result change; the round is no longer open —
    # said before the hand-over looks at it.
    table_changed(ctx.table.pk, board=True, round_open=False, round_number=round_row.number)
    ctx.announced = True
    if state.status == "closed":
        round_result_record(
            round_id=round_row.pk,
            table_id=ctx.table.pk,
            closed_at=round_row.closed_at,
            hands=sum(1 for box in state.engine.seats if box.bet > 0),
            total_bet=round_row.total_bet,
            players_net=round_row.players_net,
            theoretical_win=round_row.total_bet * (house_edge(ctx.table.rules) or 0),
            winning_boxes=[box.number for box in state.engine.seats if box.net > 0],
        )
        players.rated_round_record(
            live_row=ctx.live_row, state=state, edge=house_edge(ctx.table.rules)
        )
    elif round_row.players_net:
        # Voided after a payment made at once: the paid chips left the tray and stay with
        # the player, so the tray check and the report count them (not as a round played).
        round_result_record(
            round_id=round_row.pk,
            table_id=ctx.table.pk,
            closed_at=round_row.closed_at,
            hands=0,
            total_bet=Decimal(0),
            players_net=round_row.players_net,
            theoretical_win=Decimal(0),
            voided=True,
        )
    replacement_hand_over_due(table=ctx.table)


# -- commands outside a round --------------------------------------------------------------


def _open_round(ctx: _Context) -> None:
    table, live_row = ctx.table, ctx.live_row
    if table.status != Table.Status.OPEN:
        raise Refused("table_not_open")
    current = live_row.current_round
    if current is not None and current.is_open:
        raise Refused("round_in_progress")
    crew = seats.crew_refusal(table)  # three different people in the three seats
    if crew is not None:
        raise crew
    shoe = live_row.current_shoe
    if shoe is None or shoe.cut_card_out is not None or shoe_before_opening(shoe, table):
        raise Refused("shuffle_needed")
    opening = {
        "rules": table_rules(table).to_json(),
        "limits": {"min": str(table.min_bet), "max": str(table.max_bet)},
        "boxes": table.box_numbers,
        "shoe": shoe.state,
        **_last_round_players(current, table),
    }
    state = live.TableRound(opening)
    version = ctx.next_version()
    round_row = Round.objects.create(
        table=table,
        shoe=shoe,
        number=_next_number(Round, table),
        snapshot=state.to_dict(),
        version=version,
        opened_by=ctx.actor,
    )
    ctx.append_event(
        RoundEvent(
            round=round_row,
            seq=1,
            type="open-round",
            payload={"opening": opening},
            actor=ctx.actor,
            version=version,
            created_at=ctx.now,
        )
    )
    live_row.current_round = round_row
    ctx.round_open = True


def _last_round_players(last_round: Round | None, table: Table) -> dict:
    """What a new round knows of the table's last one since it opened: its players (seat
    labels: a newcomer takes a free box only with their consent,
    docs/sources.md#newcomer-free-box) and everyone told the table's limits so far
    (docs/sources.md#limits-told). Read from the row the command locked: no statement."""
    if last_round is None or (table.opened_at and last_round.opened_at < table.opened_at):
        return {"seated": [], "informed": []}
    state = live.TableRound.from_dict(last_round.snapshot)
    seated = sorted({share.seat for shares in state.shares.values() for share in shares})
    return {"seated": seated, "informed": state.informed_after()}


def _seated(last_round: Round | None, table: Table) -> list[str]:
    """The players (seat labels) of the table's last round since it opened."""
    return _last_round_players(last_round, table)["seated"]


def _next_number(model, table) -> int:
    """The next per-table sequence number of a shoe or a round (callers hold the table's
    live row locked, so two commands cannot take the same number)."""
    last = model.objects.filter(table=table).order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


def _deal_next(ctx: _Context) -> None:
    """Simulated shoe: the server takes the next card and records it as any card entry."""
    if ctx.table.card_entry != Table.CardEntry.SIMULATED:
        raise Refused("simulated_only")
    round_row = _current_round(ctx)
    state = live.TableRound.from_dict(round_row.snapshot)
    shoe = state.engine.shoe
    if not shoe.virtual:
        raise Refused("simulated_only")
    if (
        shoe.cut_card_out
        and state.cut_card_out is None
        and "cut-card-out" in state.legal_commands()
    ):
        command = {"action": "cut-card-out"}
        _record(ctx, round_row, command, state.apply(command), state)
    command = {"action": "card", "card": shoe.next_card().code, "simulated": 1}
    _record(ctx, round_row, command, state.apply(command), state)


def _shuffle(ctx: _Context) -> None:
    table, live_row, fields = ctx.table, ctx.live_row, ctx.command.fields
    if table.status != Table.Status.OPEN:
        raise Refused("table_not_open")  # a shoe belongs to an opening (shoe_before_opening)
    current = live_row.current_round
    if current is not None and current.is_open:
        raise Refused("round_in_progress")
    rules = table_rules(table)
    reason = fields.get("reason") or Shoe.Reason.NEW_SHOE
    if reason not in Shoe.Reason.values:
        raise Refused("bad_message")
    previous = live_row.current_shoe
    if reason == Shoe.Reason.PLAYER_REQUEST:
        _player_reshuffle_allowed(table, previous, current)
    low, high = cut_limits(rules.decks, rules.cut_card)
    behind = whole_number(fields.get("cards_behind_cut"), low=low, high=high)
    if behind is None:
        raise Refused("bad_cut", low=low, high=high)
    cut_by = box_number(fields.get("cut_by_box"))
    if cut_by is not None and cut_by not in table.box_numbers:
        raise Refused("unknown_box", box=cut_by)
    entitled = None
    if previous is not None and previous.cut_card_out:
        entitled = previous.cut_card_out.get("box")  # None: the dealer chooses who cuts
    # 000 (docs/sources.md#who-cuts): the entitled player cuts, or passes the right on.
    passed = bool(fields.get("cut_passed")) and entitled is not None
    passed = passed and cut_by is not None and cut_by != entitled
    if entitled is not None and cut_by is not None and cut_by != entitled and not passed:
        raise Refused("cut_not_entitled", entitled=entitled, box=cut_by)
    simulated = table.card_entry == Table.CardEntry.SIMULATED
    seed = secrets.token_hex(8) if simulated else ""
    if simulated:
        engine_shoe = ShoeState.shuffled(rules.decks, seed)
        engine_shoe.cut = engine_shoe.size - behind
    else:
        engine_shoe = ShoeState(rules.decks)
    burn = ""
    if rules.dealer_cards == "hole":
        burn = _burn(engine_shoe, fields, simulated)
    live_row.current_shoe = Shoe.objects.create(
        table=table,
        number=_next_number(Shoe, table),
        decks=rules.decks,
        simulated=simulated,
        seed=seed,
        state=engine_shoe.to_dict(),
        reason=reason,
        shuffled_by=ctx.actor,
        cut_entitled_box=entitled,
        cut_by_box=cut_by,
        cut_passed=passed,
        cards_behind_cut=behind,
        burn_card=burn,
    )
    ctx.next_version()


def _player_reshuffle_allowed(table: Table, previous: Shoe | None, last_round: Round | None):
    """docs/sources.md#re-shuffle-on-request: at a player's request the dealer repeats the
    shuffle he has just made — before the first round of that shoe (``reshuffle_not_just_
    shuffled`` otherwise) — and only once (``reshuffle_limit``); a player alone at the table
    (one seat label in the table's last round since it opened) may ask for a shuffle at any
    moment between rounds. A table where nobody has played yet has no lone player."""
    players = len(_seated(last_round, table))
    if players == 1:
        return
    if previous is None or shoe_before_opening(previous, table):
        raise Refused("reshuffle_not_just_shuffled", players=players)
    if last_round is not None and last_round.shoe_id == previous.pk:  # played on
        raise Refused("reshuffle_not_just_shuffled", players=players)
    if previous.reason == Shoe.Reason.PLAYER_REQUEST:
        raise Refused("reshuffle_limit", players=players)


def _burn(engine_shoe: ShoeState, fields: dict, simulated: bool) -> str:
    """Games with a hole card burn the first card after the shuffle."""
    if simulated:
        return engine_shoe.draw().code
    try:
        card = Card.parse(str(fields.get("burn_card") or ""))
    except EngineError:
        raise Refused("burn_card_required")
    engine_shoe.take(card)
    return card.code


# -- notes and reservations: they change what the screens show, never the round ----------


def _flag(ctx: _Context) -> None:
    note = str(ctx.command.fields.get("note") or "").strip()
    if not note:
        raise Refused("note_required")
    ErrorFlag.objects.create(
        table=ctx.table, round=ctx.live_row.current_round, raised_by=ctx.actor, note=note[:1000]
    )
    alert_raise(
        table_id=ctx.table.pk, kind="flag", params={"note": note[:1000]}, raised_by=ctx.actor
    )


def _flag_seen(ctx: _Context) -> None:
    flag = ErrorFlag.objects.filter(
        pk=whole_number(ctx.command.fields.get("flag"), low=1),
        table=ctx.table,
        seen_at__isnull=True,
    ).first()
    if flag is None:
        raise Refused("bad_message")
    flag.seen_by = ctx.actor
    flag.seen_at = timezone.now()
    flag.save(update_fields=["seen_by", "seen_at"])
    ctx.board = True


def _reserve(ctx: _Context) -> None:
    """The observing croupier puts a token on a box (a player paused)."""
    box = box_number(ctx.command.fields.get("box"))
    if box is None:
        raise Refused("bad_message")
    current = ctx.live_row.current_round
    if current is not None and current.is_open:
        state = live.TableRound.from_dict(current.snapshot)
        if box in state.shares or box in state.engine.bets:
            raise Refused("box_in_play", box=box)
    reservation_place(
        table=ctx.table,
        box=box,
        seat=str(ctx.command.fields.get("seat") or ""),
        placed_by=ctx.actor,
        duration=_reservation_minutes(ctx),
        played_after=_box_played_after(ctx.table, box),
    )


def _reservation_minutes(ctx: _Context) -> timedelta | None:
    """The time a token is put for: the minutes chosen (1 to the table's time,
    docs/sources.md#box-reservation: "no more than twenty minutes"), or None — the
    table's time."""
    minutes = ctx.command.fields.get("minutes")
    if minutes in (None, ""):
        return None
    most = ctx.table.reservation_max_minutes
    chosen = whole_number(minutes, low=1, high=most)
    if chosen is None:
        raise Refused("bad_reservation_time", most=most)
    return timedelta(minutes=chosen)


def _box_played_after(table: Table, box: int):
    """Whether ``box`` had a stake in a round opened after a moment: the player was back
    (docs/sources.md#box-reservation: a token holds a box twenty minutes per absence). One
    statement, asked only where a token of the box ended by its time."""

    def played_after(moment) -> bool:
        rounds = Round.objects.filter(table=table, opened_at__gt=moment)
        return rounds.filter(**{"snapshot__shares__has_key": str(box)}).exists()

    return played_after


def _renew_reservation(ctx: _Context) -> None:
    """The inspector holds a box longer than one absence of its player allows, with a note
    (docs/sources.md#box-reservation)."""
    box = box_number(ctx.command.fields.get("box"))
    if box is None:
        raise Refused("bad_message")
    if box not in ctx.table.box_numbers:
        raise Refused("unknown_box", box=box)
    reservation_renew(
        table=ctx.table,
        box=box,
        renewed_by=ctx.actor,
        note=str(ctx.command.fields.get("note") or "")[:500],
        duration=_reservation_minutes(ctx),
        played_after=_box_played_after(ctx.table, box),
    )


def _release(ctx: _Context) -> None:
    """The player is back: the observing croupier takes the token off."""
    box = box_number(ctx.command.fields.get("box"))
    if box is None:
        raise Refused("bad_message")
    reservation_release(table=ctx.table, box=box, released_by=ctx.actor)
    ctx.announced = True


# -- rated play: a player seated and leaving (game.players) --------------------------------


def _player_in(ctx: _Context) -> None:
    fields = ctx.command.fields
    players.rating_session_open(
        live_row=ctx.live_row,
        actor=ctx.actor,
        seat=fields.get("seat"),
        card=fields.get("player_card"),
    )
    ctx.board = True


def _player_out(ctx: _Context) -> None:
    fields = ctx.command.fields
    players.rating_session_close(
        live_row=ctx.live_row,
        actor=ctx.actor,
        session=fields.get("session"),
        chips_taken=fields.get("chips_taken"),
    )
    ctx.board = True


HANDLERS: dict[str, Callable[[_Context], None]] = {
    "player-in": _player_in,
    "player-out": _player_out,
    "shuffle": _shuffle,
    "open-round": _open_round,
    "deal-next": _deal_next,
    "flag": _flag,
    "flag-seen": _flag_seen,
    "reserve": _reserve,
    "release": _release,
    "renew-reservation": _renew_reservation,
}
