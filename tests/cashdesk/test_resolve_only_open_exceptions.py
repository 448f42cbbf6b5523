"""Issue 11, row 8: only an exception that is open now can be resolved. A resolution for a
record that does not exist yet (the next id) would later hide a real mismatch silently."""

import pytest
from django.urls import reverse

from cashdesk import days, services
from cashdesk.models import CashIn, DropCount, Resolution, Slip
from cashdesk.selectors import open_exceptions
from floor.errors import Refused
from tests.cashdesk.conftest import today
from tests.cashdesk.test_bad_input_never_crashes import refusal
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def english(crew):
    for person in crew.values():
        person.preferred_language = "en"
        person.save(update_fields=["preferred_language"])
    return crew


def _next_id(model) -> int:
    last = model.objects.order_by("-pk").first()
    return (last.pk if last else 0) + 1


@pytest.mark.parametrize("kind, model", [("cash_in", CashIn), ("slip", Slip), ("drop", DropCount)])
def test_resolving_a_record_that_does_not_exist_yet_is_refused(
    client,
    cash_table,
    english,
    kind,
    model,
):
    client.force_login(english["duty"])
    post = {"kind": kind, "object_id": _next_id(model), "note": "pre-emptive"}
    assert refusal(client.post(reverse("cashdesk:resolve"), post)) == "No such exception."
    assert not Resolution.objects.exists()


def test_the_next_cash_in_mismatch_stays_an_open_exception(cash_table, crew):
    future = _next_id(CashIn)
    for object_id in range(future, future + 20):  # the next ids, whatever the sequence
        with pytest.raises(Refused) as refused:
            days.exception_resolve(
                kind="cash_in", object_id=object_id, actor=crew["duty"], note="x"
            )
        assert refused.value.code == "no_exception"
    assert not Resolution.objects.exists()
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 1})
    assert [(e["kind"], e["object"].pk) for e in open_exceptions(gaming_day=today())] == [
        ("cash_in", cash_in.pk)
    ]


def test_a_record_that_is_no_exception_cannot_be_resolved(client, cash_table, english):
    cash_in = services.cash_in_record(
        table=cash_table, actor=english["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=english["observer"], notes={"1000": 2})
    client.force_login(english["duty"])
    post = {"kind": "cash_in", "object_id": cash_in.pk, "note": "fine"}
    assert refusal(client.post(reverse("cashdesk:resolve"), post)) == (
        "This record is not an open exception: nothing to resolve."
    )
    # A drop that matches the registered cash is no exception either.
    drop = services.drop_enter(
        table=cash_table, gaming_day=today(), amount="2000", actor=english["duty"]
    )
    with pytest.raises(Refused) as refused:
        days.exception_resolve(kind="drop", object_id=drop.pk, actor=english["duty"], note="x")
    assert refused.value.code == "no_exception"
    assert not Resolution.objects.exists()


def test_an_exception_is_resolved_once(client, cash_table, english):
    cash_in = services.cash_in_record(
        table=cash_table, actor=english["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=english["observer"], notes={"1000": 1})
    client.force_login(english["duty"])
    post = {
        "kind": "cash_in",
        "object_id": cash_in.pk,
        "note": "player had 1000 back",
        "second": "inspector",
        "second_password": PASSWORD,
    }
    assert client.post(reverse("cashdesk:resolve"), post).status_code == 302
    assert refusal(client.post(reverse("cashdesk:resolve"), post)) == (
        "This exception is already resolved."
    )
    assert Resolution.objects.count() == 1
    assert open_exceptions(gaming_day=today()) == []
