"""Say "it changed" once: what the floor's services tell the realtime kernel.

A service that changes what a table's screens show calls :func:`table_changed` inside its
transaction (and :func:`duty_changed` for what only the duty floor shows); a change of who
may see what calls :func:`access_changed`. Each is a thin word of the floor's language over
``feed.send_on_commit`` — the only way anything reaches a screen: the table's topic
``table.<id>`` (its sequence moves in the transaction), the duty floor's topic ``duty``, the
person's topic ``user.<id>``. Everything said in one transaction is rendered once per topic
and published once, after the commit (docs/architecture.md, "The realtime kernel").

Besides the sequence, a table's change may move its **board version** (``TableFeed.board``:
everything but the round changed — staff, notes, alerts, reservations, the shift's money, a
round closing; the publisher caches what it read of the board by it) and its round
boundary (``round_open``, ``round_number``), which the apps below the live table read.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction

from feed.consumers import user_topic
from feed.send import said, send_on_commit
from feed.sequences import topic_next
from floor.models import TableFeed

DUTY_TOPIC = "duty"


def table_topic(table_id: int) -> str:
    """The topic of a table's screens (and of its tile on the dashboards)."""
    return f"table.{int(table_id)}"


def table_id_of(topic: str) -> int | None:
    kind, _, rest = topic.partition(".")
    return int(rest) if kind == "table" and rest.isdigit() else None


def table_changed(
    table_id: int,
    *,
    board: bool = True,
    duty: bool = False,
    round_open: bool | None = None,
    round_number: int | None = None,
    state: object | None = None,
    seq: int | None = None,
    using: str = DEFAULT_DB_ALIAS,
) -> None:
    """What the screens of ``table_id`` show has changed in this transaction.

    ``board=False`` when only the round or the shoe changed (a live command that does not
    close the round): the publisher may reuse what it read of the rest. ``duty`` when the
    duty administrators' floor shows it too (money, alerts, requests, staff). ``round_open``
    (with ``round_number``) is given by the live table when a round opens or ends.
    ``state``: what the caller holds of the table's state as it commits (the live table's
    locked row), handed to the renderer so it need not read it again. ``seq``: the caller
    moved the table topic's sequence in its own statement (``feed.sequences.topic_next_sql``)
    and this is the first word of the table in the transaction.
    """
    topic = table_topic(table_id)
    if seq is None and not said(topic, using=using):
        # The table's sequence first, its board after: the order every writer of a table
        # takes (a command moves the sequence in its write statement and the board after
        # it). A cash-in that moved the board first and the sequence at its first word
        # deadlocked with a round opening or ending at the same table (bench_live, 100
        # tables, PostgreSQL).
        seq = topic_next(topic, using=using)
    moved = None
    if board or round_open is not None:
        moved = _board_update(table_id, board, round_open, round_number, using)
    event = {"board": board, "state": state, "feed": moved}
    send_on_commit(topic, event, seq=seq, using=using)
    if duty:
        send_on_commit(DUTY_TOPIC, {"tables": [int(table_id)]}, using=using)


def _board_update(table_id, board, round_open, round_number, using) -> tuple[int, int]:
    """Move the table's board version (and round boundary) in one statement (UPDATE …
    RETURNING): its new (board, epoch)."""
    connection = connections[using]
    name = connection.ops.quote_name
    sets, params = [], []
    if board:
        sets.append(f"{name('board')} = {name('board')} + 1")
    if round_open is not None:
        sets += [f"{name('round_open')} = %s", f"{name('round_number')} = %s"]
        params += [round_open, round_number]
    # Only this model's quoted column names are formatted in; every value is a parameter.
    table, key = name(TableFeed._meta.db_table), name(TableFeed._meta.pk.column)
    returning = f"{name('board')}, {name('epoch')}"
    sql = f"UPDATE {table} SET {', '.join(sets)} WHERE {key} = %s RETURNING {returning}"  # noqa: S608
    params.append(table_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        if row is not None:
            return tuple(row)
    # The table's first change (rows are made with the table; this covers rows made
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
    """The duty administrators' floor shows something that changed in this transaction
    (nothing a table's screens show)."""
    send_on_commit(DUTY_TOPIC, {"tables": []}, using=using)


def access_changed(*, user_id: int, table_id: int | None = None, using=DEFAULT_DB_ALIAS) -> None:
    """After this transaction commits, ``user_id``'s live screens check again what they may
    show (an assignment to ``table_id`` began or ended; with no table: a role was taken
    away, the person was deactivated or signed out): a screen no longer theirs closes, a
    dashboard adds or drops a tile."""
    send_on_commit(user_topic(user_id), {"kind": "access", "table_id": table_id}, using=using)
