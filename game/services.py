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
import time
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Subquery
from django.utils import timezone

from feed import metrics
from feed.send import said
from feed.sequences import topic_next_sql
from floor.changes import table_changed, table_topic
from floor.errors import Refused
from floor.ledger import AuditChain
from floor.parsing import box_number
from game.commands.commands import (
    ALL_COMMANDS,
    COMMAND_ACTS,
    ROUND_COMMANDS,
    Outcome,
    ParsedCommand,
    command_parse,
)
from game.commands.table_commands import HANDLERS
from game.engine import EngineError
from game.models import Command, LiveTable, Round, round_chain_of
from game.recording import Context, alert_for, current_round, record
from game.table import live
from game.table.cuts import cut_card_early
from staff.permissions import At, may
from staff.selectors import table_role_subquery
from tables import chips
from tables.models import Table
from tables.selectors import reserved_boxes

log = logging.getLogger(__name__)


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


def _submit(table_id: int, actor, command: ParsedCommand) -> Outcome:
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
        ctx = Context(
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


def _act(ctx: Context) -> Outcome:
    command, live_row = ctx.command, ctx.live_row
    if command.action in ROUND_COMMANDS and command.expected != live_row.version:
        raise _stale(command, live_row)
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


def _stale(command: ParsedCommand, live_row: LiveTable) -> Refused:
    """A round command sent from an older screen. Closing or voiding a round that is already
    closed or voided (a double tap, a second screen) has nothing to repeat: it is told so,
    not asked to try again."""
    current = live_row.current_round
    if command.action in ("confirm-settlement", "void") and current is not None:
        if current.status in (Round.Status.CLOSED, Round.Status.VOIDED):
            return Refused("round_already_closed", number=current.number)
    return Refused("stale")


def _finish(ctx: Context, outcome: Outcome) -> None:
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


def _previous_outcome(table_id: int, actor, command: ParsedCommand) -> Outcome | None:
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


def _round_command(ctx: Context) -> None:
    """A command on the current round (bet, card, stand, ..., void): the table layer and the
    engine decide."""
    round_row = current_round(ctx)
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
    record(ctx, round_row, command, events, state)
    if action in ("correct-card", "void"):
        alert_for(ctx, round_row, events)


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
    dealt = engine_shoe.dealt + state.engine.cards_face_down  # face down: out, not entered
    if cut_card_early(dealt=dealt, size=engine_shoe.size, behind=behind):
        raise Refused(
            "cut_card_early",
            dealt=dealt,
            size=engine_shoe.size,
            pct=round(100 * dealt / engine_shoe.size),
        )
