"""``floor.changes`` over the realtime kernel: a service says "it changed" inside its
transaction; every topic changed in a transaction is rendered once and published once, after
the commit, and only then."""

import pytest
from django.db import transaction

from feed import bus
from floor import changes
from floor.models import TableFeed
from tests.desk import screen_seq

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def published(monkeypatch):
    """The messages the bus is given (instead of reaching any screen)."""
    calls = []
    monkeypatch.setattr(bus, "publish", calls.append)
    return calls


def feed(table):
    return TableFeed.objects.get(pk=table.pk)


def test_many_changes_in_one_transaction_publish_each_topic_once_after_the_commit(
    published, make_table
):
    one, two = make_table(1), make_table(2)
    before = screen_seq(one)
    with transaction.atomic():
        changes.table_changed(one.pk, board=False)
        changes.table_changed(two.pk, duty=True)
        changes.table_changed(one.pk)
        assert published == []  # nothing leaves before the commit
    assert len(published) == 1  # one publish for the whole transaction
    topics = [m.topic for m in published[0]]
    assert sorted(topics) == ["duty", f"table.{one.pk}", f"table.{two.pk}"]
    assert screen_seq(one) == before + 1  # said twice: moved once, one number per commit
    sent = {m.topic: m.seq for m in published[0]}
    assert sent[f"table.{one.pk}"] == screen_seq(one)


def test_a_rolled_back_change_publishes_nothing_and_moves_nothing(published, table):
    before, board = screen_seq(table), feed(table).board
    with pytest.raises(RuntimeError), transaction.atomic():
        changes.table_changed(table.pk)
        raise RuntimeError("refused")
    assert published == []
    assert (screen_seq(table), feed(table).board) == (before, board)


def test_only_the_round_changing_leaves_the_board_version_alone(published, table):
    before, board = screen_seq(table), feed(table).board
    with transaction.atomic():
        changes.table_changed(table.pk, board=False)
    assert screen_seq(table) == before + 1 and feed(table).board == board
    with transaction.atomic():
        changes.table_changed(table.pk)
    assert feed(table).board == board + 1


def test_outside_a_transaction_a_change_is_published_at_once(published, table):
    changes.table_changed(table.pk)
    assert len(published) == 1 and [m.topic for m in published[0]] == [f"table.{table.pk}"]


def test_access_goes_first_and_carries_no_sequence(published, crew, table):
    with transaction.atomic():
        changes.table_changed(table.pk)
        changes.access_changed(user_id=crew["dealer"].pk, table_id=table.pk)
    first, second = published[-1]
    assert (first.topic, first.seq) == (f"user.{crew['dealer'].pk}", None)
    assert first.event == {"kind": "access", "table_id": table.pk}
    assert second.topic == f"table.{table.pk}" and second.seq is not None


def test_a_new_table_has_its_row_and_a_missing_one_is_made(published, table):
    assert feed(table).epoch  # made with the table
    TableFeed.objects.filter(pk=table.pk).delete()
    changes.table_changed(table.pk)
    assert feed(table).board == 1


def _order(queries, *tables) -> list[int]:
    """The position of the first statement writing each of ``tables``."""
    found = []
    for table in tables:
        at = [
            i
            for i, q in enumerate(queries)
            if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "WITH"))
            and table in q["sql"]
        ]
        assert at, (table, [q["sql"][:80] for q in queries])
        found.append(at[0])
    return found


def test_every_writer_moves_a_tables_sequence_before_its_board(published, make_table):
    """One lock order for a table's two feed rows: its topic's sequence, then its board.
    A cash-in took them the other way round and deadlocked with a round's close on
    PostgreSQL (bench_live at 100 tables)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from feed.models import Topic

    table = make_table(1)
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        changes.table_changed(table.pk, duty=True)

    seq_at, board_at = _order(
        captured.captured_queries, Topic._meta.db_table, TableFeed._meta.db_table
    )
    assert seq_at < board_at
