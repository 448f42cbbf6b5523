"""Moving and reading the topics' sequences (``feed.models.Topic``)."""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections

from feed.models import Topic


def _sql(using: str) -> tuple[str, str]:
    connection = connections[using]
    name = connection.ops.quote_name
    return name(Topic._meta.db_table), name


def topic_next_sql(topic: str, *, using: str = DEFAULT_DB_ALIAS) -> tuple[str, list]:
    """The statement that moves ``topic``'s sequence by one and returns it (an upsert: no
    race to create the row), for a caller that runs it with its own writes (``seq=`` of
    ``feed.send_on_commit``)."""
    table, name = _sql(using)
    seq = name("seq")
    # Only this model's quoted names are formatted in; the topic is a parameter.
    sql = (
        f"INSERT INTO {table} ({name('name')}, {seq}) VALUES (%s, 1) "  # noqa: S608
        f"ON CONFLICT ({name('name')}) DO UPDATE SET {seq} = {table}.{seq} + 1 RETURNING {seq}"
    )
    return sql, [topic]


def topic_next(topic: str, *, using: str = DEFAULT_DB_ALIAS) -> int:
    """Move ``topic``'s sequence by one in the current transaction and return it: one
    statement, made the first time it is needed. The row stays locked until the commit, so
    the numbers follow the commits' order."""
    sql, params = topic_next_sql(topic, using=using)
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.fetchone()[0])


def topic_seqs(topics, *, using: str = DEFAULT_DB_ALIAS) -> dict[str, int]:
    """The current sequence of each topic (0 for one that never moved), in one query: what
    a screen's ``sync`` is compared with — the database, not a worker's memory."""
    topics = list(topics)
    found = dict(Topic.objects.using(using).filter(pk__in=topics).values_list("pk", "seq"))
    return {topic: found.get(topic, 0) for topic in topics}
