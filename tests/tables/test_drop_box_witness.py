"""The drop box's witness proves who he is and may witness (issue 11, row 14): he types his
own name and password on the form; a missing or wrong credential, an inactive person and a
person without a witnessing role are refused, and nothing is recorded."""

import pytest
from django.test import Client
from django.urls import reverse

from staff.roles import Role
from tables import services
from tables.models import ChecklistStep
from tests.conftest import PASSWORD
from tests.tables.conftest import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def closing(closed_table, crew):
    open_table(closed_table, crew["pitboss"], crew["inspector"])
    services.checklist_start(table=closed_table, kind="closing", started_by=crew["pitboss"])
    client = Client(REMOTE_ADDR="10.0.0.5", headers={"accept-language": "en"})
    client.force_login(crew["pitboss"])
    url = reverse("tables:table", kwargs={"table_id": closed_table.pk})

    def send(**fields):
        form = {"op": "step", "step": "drop_box", "seal": "D-9", "removed_by": crew["duty"].pk}
        form.update(fields)
        return client.post(url, form, follow=True).content.decode()

    return send


def recorded():
    return ChecklistStep.objects.filter(step="drop_box").first()


def test_a_witness_named_without_his_password_is_refused(closing, crew):
    page = closing(witness_identifier="inspector")
    assert "The witness enters his own name and password on the form." in page
    page = closing(witness=crew["inspector"].pk)  # the old form: a name from a list
    assert "The witness enters his own name and password on the form." in page
    assert recorded() is None


def test_a_wrong_password_is_refused(closing):
    page = closing(witness_identifier="inspector", witness_secret="guess")
    assert "The witness&#x27;s name or password is wrong." in page
    assert recorded() is None


def test_an_inactive_witness_is_refused(closing, crew):
    crew["inspector"].is_active = False
    crew["inspector"].save()
    page = closing(witness_identifier="inspector", witness_secret=PASSWORD)
    assert "The witness&#x27;s name or password is wrong." in page
    assert recorded() is None


@pytest.mark.parametrize("roles", [[], [Role.DEALING_CROUPIER], [Role.OBSERVING_CROUPIER]])
def test_a_person_without_a_witnessing_role_is_refused(closing, make_user, roles):
    make_user("bystander", roles, full_name="Bystander")
    page = closing(witness_identifier="bystander", witness_secret=PASSWORD)
    assert "Bystander cannot witness the drop box" in page
    assert recorded() is None


def test_the_remover_cannot_witness_himself(closing):
    page = closing(witness_identifier="duty", witness_secret=PASSWORD)
    assert "The witness must be another person than the one removing it." in page
    assert recorded() is None


def test_an_inactive_remover_is_refused(closing, crew):
    crew["duty"].is_active = False
    crew["duty"].save()
    closing(witness_identifier="inspector", witness_secret=PASSWORD)
    assert recorded() is None


def test_a_witness_who_proves_himself_is_recorded(closing, crew):
    page = closing(witness_identifier="inspector", witness_secret=PASSWORD)
    step = recorded()
    assert step is not None, page[-2000:]
    assert step.details["witness_id"] == crew["inspector"].pk
    assert step.details["removed_by_id"] == crew["duty"].pk


def test_guessing_a_witness_password_is_throttled(closing):
    for _ in range(4):
        closing(witness_identifier="inspector", witness_secret="guess")
    page = closing(witness_identifier="inspector", witness_secret=PASSWORD)
    assert "Too many wrong tries from this device for this name." in page
    assert recorded() is None


def test_the_form_asks_for_the_witness_password(closed_table, crew, client):
    open_table(closed_table, crew["pitboss"], crew["inspector"])
    services.checklist_start(table=closed_table, kind="closing", started_by=crew["pitboss"])
    client.force_login(crew["pitboss"])
    page = client.get(reverse("tables:table", kwargs={"table_id": closed_table.pk})).content
    page = page.decode()
    assert 'name="witness_secret"' in page and 'type="password"' in page
    assert 'name="witness"' not in page
