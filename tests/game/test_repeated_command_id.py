"""Issue 11 ("also settle"): a repeated command id is answered only after the permission
check, and only to the same person's same command at the same table; anyone else gets a
refusal, never the first outcome."""

import uuid

import pytest

from game.models import Command
from staff import services as staff_services
from staff.models import TableAssignment
from staff.roles import TableRole

pytestmark = pytest.mark.django_db


def _bet(desk, command_id):
    return desk.send("bet", box=1, seat="A", stake="100", command_id=command_id)


def test_a_repeated_id_from_a_person_without_the_right_is_refused(
    dealer_desk, observer_desk, table
):
    dealer_desk.start_round()
    command_id = uuid.uuid4()
    assert _bet(dealer_desk, command_id).ok
    replay = _bet(observer_desk, command_id)
    assert not replay.ok and replay.code == "not_your_action"
    assert not replay.duplicate


def test_a_repeated_id_after_the_role_was_lost_is_refused(dealer_desk, crew, table):
    dealer_desk.start_round()
    command_id = uuid.uuid4()
    assert _bet(dealer_desk, command_id).ok
    assignment = TableAssignment.objects.get(
        table=table, user=crew["dealer"], role=TableRole.DEALING_CROUPIER, ends_at__isnull=True
    )
    staff_services.assignment_end(assignment=assignment)
    again = _bet(dealer_desk, command_id)
    assert not again.ok and again.code == "not_your_action"


def test_another_persons_id_is_not_answered_with_its_outcome(dealer_desk, inspector_desk, table):
    dealer_desk.start_round()
    command_id = uuid.uuid4()
    assert _bet(dealer_desk, command_id).ok
    # The inspector may void, but the id is the dealer's bet: refused, nothing voided.
    stolen = inspector_desk.send("void", reason="x", command_id=command_id)
    assert not stolen.ok and stolen.code == "bad_message" and not stolen.duplicate
    # The dealer's own id for another action is refused as well.
    other = dealer_desk.send("close-bets", command_id=command_id)
    assert not other.ok and other.code == "bad_message"
    assert Command.objects.filter(pk=command_id).count() == 1
    from tests.game.conftest import current_round

    assert current_round(table).status == "betting"


def test_the_same_persons_repeat_still_acts_once(dealer_desk, table):
    dealer_desk.start_round()
    command_id = uuid.uuid4()
    first = _bet(dealer_desk, command_id)
    again = _bet(dealer_desk, command_id)
    assert first.ok and again.ok and again.duplicate and again.version == first.version
