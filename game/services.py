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

from django.db import IntegrityError, transaction
from django.db.models import Subquery
from django.utils import timezone

from feed import metrics
from feed.send import said
from feed.sequences import topic_next_sql
from floor.changes import table_changed, table_topic
from floor.errors import Refused
from floor.ledger import AuditChain
from game.commands.commands import Outcome, ParsedCommand
from game.commands.dispatch import ALL_COMMANDS, COMMANDS, command_parse
from game.engine import EngineError
from game.models import Command, LiveTable, Round, round_chain_of
from game.recording import Context
from staff.permissions import At, may
from staff.selectors import table_role_subquery

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
        if not may(COMMANDS[command.action].act, actor, At(table_id, role)):
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
    kind = COMMANDS[command.action]
    if kind.round and command.expected != live_row.version:
        raise _stale(command, live_row)
    try:
        kind.handler(ctx)
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
    kind = COMMANDS[command.action]
    if kind.round:
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
            state=live_row if kind.on_round else None,
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
