"""docs/sources.md#inspector-registers-cash: the inspector registers every cash-in — one tap on
his register, his name and the time; cash taken to the pit cash desk goes through him, and a
pit-desk cash-in he has not confirmed stays an open exception of the shift.
docs/sources.md#cash-in: the chips go to the player after the notes are recounted and dropped
(and, for the pit cash desk, after the inspector took them)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cashdesk import services
from cashdesk.models import CashIn, CashInChipsGiven, CashInRegistration
from cashdesk.selectors import open_exceptions

NOTES = {"5000": 1}


def _enter(table, crew, destination):
    cash_in = services.cash_in_record(
        table=table,
        actor=crew["dealer"],
        notes=NOTES,
        chips={"5000": 1},
        destination=destination,
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes=NOTES)
    return cash_in


def _exception_codes():
    return [e["code"] for e in open_exceptions()]


def test_a_pit_desk_cash_in_waits_for_the_inspectors_tap(client, cash_table, crew):
    cash_in = _enter(cash_table, crew, CashIn.Destination.PIT_CASH_DESK)
    assert _exception_codes() == ["awaiting_inspector"]
    client.force_login(crew["dealer"])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert 'data-testid="awaiting-inspector"' in page
    assert 'data-testid="inspector-confirm-' not in page  # only the inspector confirms
    client.force_login(crew["inspector"])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert f'data-testid="inspector-confirm-{cash_in.pk}"' in page
    response = client.post(
        reverse("cashdesk:cash_in_confirm", args=[cash_table.pk]), {"cash_in": cash_in.pk}
    )
    assert response.status_code == 302
    registration = CashInRegistration.objects.get(cash_in=cash_in)
    assert registration.registered_by == crew["inspector"] and registration.registered_at
    assert _exception_codes() == []
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert 'data-testid="inspector-confirmed"' in page
    with pytest.raises(ValidationError) as twice:
        services.cash_in_inspector_confirm(cash_in=cash_in, actor=crew["inspector"])
    assert twice.value.code == "signed"


def test_a_cash_box_cash_in_is_registered_too_and_is_no_exception(client, cash_table, crew):
    cash_in = _enter(cash_table, crew, CashIn.Destination.CASH_BOX)
    assert _exception_codes() == []  # the cash is in the sealed box: nothing waits on him
    from game.screens.publish import table_view

    view = table_view(cash_table.pk)
    assert view["dashboard"]["cash_ins_to_register"] == 1
    client.force_login(crew["inspector"])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert f'data-testid="inspector-confirm-{cash_in.pk}"' in page and ">Зарегистрировать<" in page
    client.post(reverse("cashdesk:cash_in_confirm", args=[cash_table.pk]), {"cash_in": cash_in.pk})
    registration = CashInRegistration.objects.get(cash_in=cash_in)
    assert registration.registered_by == crew["inspector"]
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert "Зарегистрировал инспектор: " in page  # the inspector reads Russian
    with pytest.raises(ValidationError) as twice:
        services.cash_in_inspector_confirm(cash_in=cash_in, actor=crew["inspector"])
    assert twice.value.code == "signed"


def test_the_chips_wait_for_the_recount_and_drop(client, cash_table, crew):
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes=NOTES, chips={"5000": 1}
    )
    with pytest.raises(ValidationError) as early:
        services.cash_in_chips_give(cash_in=cash_in, actor=crew["dealer"])
    assert early.value.code == "chips_before_recount"
    client.force_login(crew["dealer"])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert f'data-testid="chips-wait-{cash_in.pk}"' in page
    assert f'data-testid="chips-give-{cash_in.pk}"' not in page
    refused = client.post(
        reverse("cashdesk:cash_in_chips", args=[cash_table.pk]), {"cash_in": cash_in.pk}
    )
    assert refused.status_code == 400
    assert "наблюдающий крупье пересчитывает купюры" in refused.content.decode()
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes=NOTES)
    for person in ("observer", "inspector"):
        with pytest.raises(ValidationError):
            services.cash_in_chips_give(cash_in=cash_in, actor=crew[person])
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert f'data-testid="chips-give-{cash_in.pk}"' in page
    response = client.post(
        reverse("cashdesk:cash_in_chips", args=[cash_table.pk]), {"cash_in": cash_in.pk}
    )
    assert response.status_code == 302
    given = CashInChipsGiven.objects.get(cash_in=cash_in)
    assert given.given_by == crew["dealer"]
    assert given.given_at > CashIn.objects.get(pk=cash_in.pk).recounted_at
    page = client.get(reverse("cashdesk:table", args=[cash_table.pk])).content.decode()
    assert f'data-testid="chips-given-{cash_in.pk}"' in page
    with pytest.raises(ValidationError) as twice:
        services.cash_in_chips_give(cash_in=cash_in, actor=crew["dealer"])
    assert twice.value.code == "chips_given"


def test_pit_desk_chips_wait_for_the_inspector_and_a_mismatch_for_its_correction(cash_table, crew):
    cash_in = _enter(cash_table, crew, CashIn.Destination.PIT_CASH_DESK)
    with pytest.raises(ValidationError) as waiting:
        services.cash_in_chips_give(cash_in=cash_in, actor=crew["dealer"])
    assert waiting.value.code == "chips_before_inspector"
    services.cash_in_inspector_confirm(cash_in=cash_in, actor=crew["inspector"])
    services.cash_in_chips_give(cash_in=cash_in, actor=crew["dealer"])
    differs = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes=NOTES, chips={"5000": 1}
    )
    services.cash_in_recount(cash_in=differs, actor=crew["observer"], notes={"1000": 4})
    with pytest.raises(ValidationError) as mismatch:
        services.cash_in_chips_give(cash_in=differs, actor=crew["dealer"])
    assert mismatch.value.code == "chips_after_mismatch"
    assert not CashInChipsGiven.objects.filter(cash_in=differs).exists()


def test_only_the_tables_inspector_confirms(cash_table, crew):
    cash_in = _enter(cash_table, crew, CashIn.Destination.PIT_CASH_DESK)
    for person in ("dealer", "observer"):
        with pytest.raises(ValidationError):
            services.cash_in_inspector_confirm(cash_in=cash_in, actor=crew[person])
    assert not CashInRegistration.objects.exists()


def test_the_inspectors_tile_counts_the_cash_ins_he_has_to_confirm(cash_table, crew):
    from game.screens.publish import render_fragment, table_view

    cash_in = _enter(cash_table, crew, CashIn.Destination.PIT_CASH_DESK)
    _enter(cash_table, crew, CashIn.Destination.CASH_BOX)
    view = table_view(cash_table.pk)
    assert view["dashboard"]["cash_ins_to_confirm"] == 1
    tiles = {language: render_fragment(view, "tile", language) for language in ("en", "ru")}
    assert "1 cash-in to confirm" in tiles["en"]
    assert "подтвердить" in tiles["ru"]
    services.cash_in_inspector_confirm(cash_in=cash_in, actor=crew["inspector"])
    assert table_view(cash_table.pk)["dashboard"]["cash_ins_to_confirm"] == 0
