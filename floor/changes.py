"""Say "it changed" once; publish once.

A service that changes something a screen shows calls :func:`table_changed` (or
:func:`duty_changed`) inside its transaction. Each call moves the table's screen sequence
(``TableFeed.seq``, and its ``board`` version unless only the round changed) under that
row's lock, so the sequence follows the order of the commits (a transaction that says it
twice moves it twice: a screen sees a gap, asks, and is told it is current). The tables
changed in one transaction are collected, and when it commits every subscriber (the
publishers of the apps above, named in ``settings.SCREEN_PUBLISHERS``) is called once with
all of them: each table is rendered and sent once per transaction, however many things in it
changed. Nothing here renders or knows a screen; it imports no other app.

Outside a transaction (autocommit), a call publishes at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import F
from django.utils.module_loading import import_string

from floor import metrics
from floor.groups import user_group
from floor.models import Counter, TableFeed

log = logging.getLogger(__name__)


@dataclass
class Changes:
    """What one committed transaction changed, as the publishers see it."""

    tables: set[int] = field(default_factory=set)
    duty: bool = False
    access: list[tuple[int, int | None]] = field(default_factory=list)  # (user, table)
    # Per changed table, its feed after this transaction's last change: (seq, board, epoch).
    feeds: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # Per changed table, what the changing service already holds of its state (opaque here,
    # ``table_changed(state=...)``), when every change of it in the transaction gave one.
    loaded: dict[int, object] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.tables or self.duty or self.access)


Subscriber = Callable[[Changes], None]
_subscribers: list[Subscriber] | None = None


def subscribers() -> list[Subscriber]:
    """The publishers called with a :class:`Changes` after each commit: the dotted paths in
    ``settings.SCREEN_PUBLISHERS`` (the apps above name theirs there, as middleware is named;
    this module imports none of them)."""
    global _subscribers
    if _subscribers is None:
        _subscribers = [import_string(path) for path in settings.SCREEN_PUBLISHERS]
    return _subscribers


class _Pending:
    """The changes of the transaction under way, flushed once when it commits."""

    def __init__(self):
        self.changes = Changes()

    def flush(self) -> None:
        changes, self.changes = self.changes, Changes()
        publish(changes)


def publish(changes: Changes) -> None:
    """Call every subscriber; a failing one is logged and never undoes the commit (a
    screen that missed it heals at its next ``sync``)."""
    if not changes:
        return
    # Access first: a screen that may no longer show a table closes before its new state.
    for user_id, table_id in changes.access:
        try:
            async_to_sync(get_channel_layer().group_send)(
                user_group(user_id),
                {"type": "screen.access", "user_id": user_id, "table_id": table_id},
            )
        except Exception:
            log.exception("telling user %s's screens failed", user_id)
            metrics.SEND_FAILURES.inc()
    for subscriber in list(subscribers()):
        try:
            subscriber(changes)
        except Exception:
            log.exception("publishing %s failed in %s", changes, subscriber)
            metrics.PUBLISH_FAILURES.inc()


def _pending(using: str) -> _Pending:
    connection = transaction.get_connection(using)
    pending = getattr(connection, "_floor_pending", None)
    if (
        pending is not None
        and connection.in_atomic_block
        and any(callback == pending.flush for _sids, callback, *_ in connection.run_on_commit)
    ):
        return pending
    pending = _Pending()
    connection._floor_pending = pending
    return pending


def _register(pending: _Pending, using: str) -> None:
    connection = transaction.get_connection(using)
    if not any(callback == pending.flush for _sids, callback, *_ in connection.run_on_commit):
        transaction.on_commit(pending.flush, using=using)


def table_changed(
    table_id: int,
    *,
    board: bool = True,
    duty: bool = False,
    round_open: bool | None = None,
    round_number: int | None = None,
    state: object | None = None,
    using: str = DEFAULT_DB_ALIAS,
) -> None:
    """What the screens of ``table_id`` show has changed in this transaction.

    ``board=False`` when only the round or the shoe changed (a live command that does not
    close the round): the publisher may reuse what it read of the rest. ``duty`` when the
    duty administrators' screens show it too (money, alerts, requests). ``round_open`` (with
    ``round_number``) is given by the live table when a round opens or ends. ``state``: what
    the caller holds of the table's state as it commits (the live table's locked row), handed
    to the publishers so they need not read it again; it is kept only when every change of
    the table in this transaction gave one.
    """
    pending = _pending(using)
    feed = _feed_update(table_id, board, round_open, round_number, using)
    changes = pending.changes
    if table_id not in changes.tables or changes.loaded.get(table_id) is not None:
        changes.loaded[table_id] = state
    changes.feeds[table_id] = feed
    changes.tables.add(table_id)
    changes.duty |= duty
    _register(pending, using)


def _feed_update(table_id, board, round_open, round_number, using) -> tuple[int, int, int]:
    """Move the table's feed in one statement (UPDATE … RETURNING): its new (seq, board,
    epoch)."""
    connection = connections[using]
    name = connection.ops.quote_name
    sets, params = [f"{name('seq')} = {name('seq')} + 1"], []
    if board:
        sets.append(f"{name('board')} = {name('board')} + 1")
    if round_open is not None:
        sets += [f"{name('round_open')} = %s", f"{name('round_number')} = %s"]
        params += [round_open, round_number]
    # Only this model's quoted column names are formatted in; every value is a parameter.
    table, key = name(TableFeed._meta.db_table), name(TableFeed._meta.pk.column)
    returning = f"{name('seq')}, {name('board')}, {name('epoch')}"
    sql = f"UPDATE {table} SET {', '.join(sets)} WHERE {key} = %s RETURNING {returning}"  # noqa: S608
    params.append(table_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        if row is not None:
            return tuple(row)
    # The table's first change (feeds are made with the table; this covers rows made
    # without signals, e.g. bulk inserts). A concurrent first change may win the insert.
    try:
        with transaction.atomic(using=using):
            TableFeed.objects.using(using).create(table_id=table_id)
    except IntegrityError:
        pass
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return tuple(cursor.fetchone())


def duty_changed(*, using: str = DEFAULT_DB_ALIAS) -> None:
    """The duty administrators' screens show something that changed in this transaction
    (nothing a table's screens show)."""
    pending = _pending(using)
    pending.changes.duty = True
    _register(pending, using)


def access_changed(*, user_id: int, table_id: int | None = None, using=DEFAULT_DB_ALIAS) -> None:
    """After this transaction commits, ``user_id``'s live screens check again what they may
    show (an assignment to ``table_id`` began or ended; with no table: a role was taken
    away, the person was deactivated or signed out): a screen no longer theirs closes, a
    dashboard adds or drops a tile."""
    pending = _pending(using)
    pending.changes.access.append((user_id, table_id))
    _register(pending, using)


def duty_sequence_next() -> int:
    """The next number of the duty screens' sequence (taken after the commit: the render
    that follows reads a state at least that new)."""
    updated = Counter.objects.filter(name="duty").update(value=F("value") + 1)
    if not updated:
        Counter.objects.get_or_create(name="duty")
        Counter.objects.filter(name="duty").update(value=F("value") + 1)
    return Counter.objects.filter(name="duty").values_list("value", flat=True).get()


def table_sequences(table_ids) -> dict[int, int]:
    """The current screen sequence of each table (one query): what ``sync`` compares with."""
    return dict(TableFeed.objects.filter(pk__in=list(table_ids)).values_list("pk", "seq"))
