"""The checklist signature checks a colleague's password: a pit boss trying passwords for the
inspector is throttled by source like any sign-in (tests/staff/test_sign_in_throttle.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from tables import services as table_services
from tests.conftest import PASSWORD
from tests.tables.conftest import do_opening_steps

pytestmark = pytest.mark.django_db

ATTACKER = "10.0.0.66"


def _client(address: str) -> Client:
    return Client(REMOTE_ADDR=address, headers={"accept-language": "en"})


def test_the_checklist_signature_is_throttled(closed_table, crew):
    checklist = table_services.checklist_start(
        table=closed_table, kind="opening", started_by=crew["pitboss"]
    )
    do_opening_steps(checklist, crew["pitboss"])
    pitboss = _client(ATTACKER)
    pitboss.force_login(crew["pitboss"])
    url = reverse("tables:table", kwargs={"table_id": closed_table.pk})

    def sign(secret):
        form = {"op": "sign", "slot": "second", "identifier": "inspector", "secret": secret}
        return pitboss.post(url, form, follow=True).content.decode()

    for _ in range(4):
        assert "Wrong name or password." in sign("guess")
    refused = sign(PASSWORD)

    assert "Too many wrong tries from this device for this name." in refused
    checklist.refresh_from_db()
    assert checklist.second_signed_by is None

    inspector_desk = _client("10.0.0.8")
    inspector_desk.force_login(crew["pitboss"])
    form = {"op": "sign", "slot": "second", "identifier": "inspector", "secret": PASSWORD}
    inspector_desk.post(url, form)
    checklist.refresh_from_db()
    assert checklist.second_signed_by == crew["inspector"], "another device still signs"
