"""Two duty administrators (or one double tap) resolving the same exception at the same
moment: one resolution, and the other is told it is already resolved (PostgreSQL)."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from cashdesk import days, services
from cashdesk.models import Resolution
from tests.cashdesk.conftest import signed_by, today

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


def test_resolving_one_exception_twice_at_once_records_it_once(crew, table):
    drop = services.drop_enter(
        table=table, gaming_day=today(), amount="1500", actor=crew["duty"]
    )  # no cash-in registered: a drop difference, an open exception
    barrier = threading.Barrier(2)
    outcomes = []

    def resolve():
        try:
            barrier.wait()
            days.exception_resolve(
                kind="drop",
                object_id=drop.pk,
                actor=crew["duty"],
                note="counted again",
                **signed_by(crew["inspector"]),
            )
            outcomes.append("ok")
        except ValidationError as error:
            outcomes.append(getattr(error, "code", repr(error)))
        finally:
            connection.close()

    threads = [threading.Thread(target=resolve) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "signed"]
    assert Resolution.objects.filter(kind="drop", object_id=drop.pk).count() == 1
