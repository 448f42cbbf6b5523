"""``floor.changes``: a service says "it changed" inside its transaction; every table changed
in a transaction is published once, after the commit, and only then."""

import pytest
from django.db import transaction

from floor import changes
from floor.models import TableFeed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def published(monkeypatch):
    """What the publishers are called with (instead of rendering anything)."""
    calls = []
    monkeypatch.setattr(changes, "_subscribers", [calls.append])
    return calls


def feed(table):
    return TableFeed.objects.get(pk=table.pk)


def test_many_changes_in_one_transaction_publish_each_table_once_after_the_commit(
    published, make_table
):
    one, two = make_table(1), make_table(2)
    before = feed(one).seq
    with transaction.atomic():
        changes.table_changed(one.pk, board=False)
        changes.table_changed(two.pk, duty=True)
        changes.table_changed(one.pk)
        assert published == []  # nothing leaves before the commit
    assert len(published) == 1
    assert published[0].tables == {one.pk, two.pk} and published[0].duty
    assert feed(one).seq == before + 2  # said twice: moved twice, in commit order


def test_a_rolled_back_change_publishes_nothing_and_moves_nothing(published, table):
    before = feed(table)
    with pytest.raises(RuntimeError), transaction.atomic():
        changes.table_changed(table.pk)
        raise RuntimeError("refused")
    assert published == []
    after = feed(table)
    assert (after.seq, after.board) == (before.seq, before.board)


def test_only_the_round_changing_leaves_the_board_version_alone(published, table):
    before = feed(table)
    with transaction.atomic():
        changes.table_changed(table.pk, board=False)
    after = feed(table)
    assert after.seq == before.seq + 1 and after.board == before.board
    with transaction.atomic():
        changes.table_changed(table.pk)
    assert feed(table).board == before.board + 1


def test_a_failing_publisher_never_undoes_the_commit_nor_stops_the_others(monkeypatch, table):
    seen = []

    def broken(change):
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(changes, "_subscribers", [broken, seen.append])
    with transaction.atomic():
        changes.table_changed(table.pk)
    assert feed(table).seq >= 1  # committed
    assert seen and seen[0].tables == {table.pk}


def test_outside_a_transaction_a_change_is_published_at_once(published, table):
    changes.table_changed(table.pk)
    assert len(published) == 1 and published[0].tables == {table.pk}


def test_a_new_table_has_its_feed_and_a_missing_one_is_made(published, table):
    assert feed(table).epoch  # made with the table
    TableFeed.objects.filter(pk=table.pk).delete()
    changes.table_changed(table.pk)
    assert feed(table).seq == 1
