"""Two commands racing on one round (PostgreSQL row locks): exactly one applies."""

import threading
import uuid

import pytest
from django.db import connection

from game.models import RoundEvent
from game.services import command_submit
from tests.game.conftest import current_round

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


def test_two_commands_racing_on_one_round_exactly_one_applies(dealer_desk, table):
    assert connection.vendor == "postgresql"
    dealer_desk.start_round()
    version = dealer_desk.version
    barrier = threading.Barrier(2)
    outcomes = []

    def send(box):
        try:
            barrier.wait()
            outcomes.append(
                command_submit(
                    table_id=table.pk,
                    actor=dealer_desk.user,
                    command={
                        "id": str(uuid.uuid4()),
                        "expected_version": version,
                        "action": "bet",
                        "box": box,
                        "seat": "A",
                        "stake": "100",
                    },
                )
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(box,)) for box in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.ok for o in outcomes) == [False, True]
    loser = next(o for o in outcomes if not o.ok)
    assert loser.code == "stale"  # the screen is told to resync
    assert RoundEvent.objects.filter(round=current_round(table), type="bet").count() == 1
    assert dealer_desk.version == version + 1
