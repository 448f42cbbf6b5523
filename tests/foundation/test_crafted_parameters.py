"""Issue 11, row 12: crafted parameters answer 400 (or 404 for a path) with a clear
message, never 500, and nothing is saved. One test per parameter kind, over every view that
takes it: gaming days, months and periods; record ids in a query or a form; record ids in a
path (one bounded converter, ``<id:...>``, everywhere); date-times; amounts; chip values."""

import re
from html import unescape

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from cashdesk.models import CashIn, GamingDayClose, Resolution, Slip
from casino.routing import websocket_urlpatterns
from floor.models import Alert
from staff.models import ReplacementRequest
from tables.models import Table, TableChange

pytestmark = pytest.mark.django_db

BEYOND = str(2**63)  # one past the largest bigint id
HUGE = "9" * 40
DAY_RANGE = "Choose a day from 2000-01-01 to 2099-12-31."
MONTH_RANGE = "Choose a month from 2000-01 to 2099-12."


@pytest.fixture
def english(crew):
    for person in crew.values():
        person.preferred_language = "en"
        person.save(update_fields=["preferred_language"])
    return crew


def refusal(response) -> str:
    assert response.status_code == 400, response.status_code
    found = re.search(r'data-testid="error"[^>]*>([^<]*)<', response.content.decode())
    assert found, "the page shows no error"
    return unescape(found.group(1)).strip()


# -- gaming days, months, periods -----------------------------------------------------------

PERIOD_VIEWS = [
    "cashdesk:report",
    "cashdesk:report_print",
    "cashdesk:export",
    "cashdesk:records",
    "cashdesk:records_export",
]
BAD_PERIODS = [
    ({"month": "9999-12"}, MONTH_RANGE),
    ({"month": "0000-00"}, "“0000-00” is not a month (write it as YYYY-MM)."),
    ({"day": "9999-12-31"}, DAY_RANGE),
    ({"day": "0001-01-01"}, DAY_RANGE),
    ({"day": "2026-02-30"}, "“2026-02-30” is not a date."),
    ({"first": "0001-01-01", "last": "9999-12-31"}, DAY_RANGE),
    ({"first": "2026-01-01", "last": "9999-12-31"}, DAY_RANGE),
]


@pytest.mark.parametrize("name", PERIOD_VIEWS)
@pytest.mark.parametrize("params, message", BAD_PERIODS)
def test_a_crafted_period_is_refused_by_every_report_view(client, english, name, params, message):
    client.force_login(english["duty"])
    assert refusal(client.get(reverse(name), params)) == message


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2026-02-30", "1e9"])
def test_a_crafted_day_is_refused_by_the_drop_screen_and_the_day_forms(client, english, day):
    client.force_login(english["duty"])
    assert refusal(client.get(reverse("cashdesk:drop"), {"day": day}))
    table = Table.objects.first()
    post = {"table": table.pk, "gaming_day": day, "amount": "100"}
    assert refusal(client.post(reverse("cashdesk:drop"), post))
    assert refusal(client.post(reverse("cashdesk:day_close"), {"gaming_day": day}))
    assert not GamingDayClose.objects.exists()


# -- record ids in a query or a form --------------------------------------------------------

BAD_IDS = ["0", "-1", "abc", "²", "1.5", BEYOND, HUGE]


@pytest.mark.parametrize("value", BAD_IDS)
def test_a_crafted_id_in_a_filter_is_refused(client, english, value):
    client.force_login(english["duty"])
    for name, param, message in (
        ("cashdesk:records", "table", "No such table."),
        ("cashdesk:records", "pit", "No such pit."),
        ("cashdesk:records_export", "table", "No such table."),
        ("cashdesk:records_export", "pit", "No such pit."),
        ("cashdesk:records", "cash_ins_page", "No such page."),
        ("tables:alerts", "table", "No such table."),
    ):
        assert refusal(client.get(reverse(name), {param: value})) == message, (name, param)
    response = client.get(reverse("game:replay_search"), {"table": value})
    assert response.status_code == 400


@pytest.mark.parametrize("value", BAD_IDS)
def test_a_crafted_id_in_a_form_is_refused_and_nothing_is_saved(client, table, english, value):
    table.chip_denominations = ["100", "500"]
    table.save(update_fields=["chip_denominations"])
    posts = [
        ("duty", reverse("cashdesk:slip_issue"), {"slip": value}),
        ("duty", reverse("cashdesk:resolve"), {"kind": "cash_in", "object_id": value, "note": "x"}),
        ("duty", reverse("cashdesk:drop"), {"table": value, "gaming_day": "", "amount": "1"}),
        ("observer", reverse("cashdesk:recount", args=[table.pk]), {"cash_in": value}),
        ("dealer", reverse("cashdesk:slip_receive", args=[table.pk]), {"slip": value}),
        ("inspector", reverse("cashdesk:slip_void", args=[table.pk]), {"slip": value}),
        ("dealer", reverse("cashdesk:tip", args=[table.pk]), {"box": value, "amount": "10"}),
    ]
    for person, url, post in posts:
        client.force_login(english[person])
        assert refusal(client.post(url, post)), url
    client.force_login(english["inspector"])
    response = client.post(reverse("tables:alert_acknowledge"), {"alert": value, "note": "x"})
    assert response.status_code == 400
    client.force_login(english["duty"])
    response = client.post(
        reverse("staff:replacement_decide"), {"request": value, "decision": "reject", "note": "x"}
    )
    assert response.status_code == 400
    assert "Choose a request to decide." in response.content.decode()
    assert not Resolution.objects.exists()
    assert not Slip.objects.exists() and not CashIn.objects.exists()
    assert not Alert.objects.filter(acknowledged_at__isnull=False).exists()
    assert not ReplacementRequest.objects.exists()


# -- record ids in a path -------------------------------------------------------------------


def _patterns(resolver, prefix=""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


def test_every_path_id_uses_the_bounded_converter():
    routes = [route for route, _ in _patterns(get_resolver())]
    routes += [str(p.pattern) for p in websocket_urlpatterns]
    unbounded = [r for r in routes if "<int:" in r or "<path:" in r and "admin" not in r]
    assert unbounded == []
    assert any("<id:" in r for r in routes)


def _id_paths():
    out = []
    for route, entry in _patterns(get_resolver()):
        names = re.findall(r"<id:(\w+)>", route)
        if names and entry.name and not route.startswith("admin"):
            out.append((route, names))
    return out


@pytest.mark.parametrize("value", ["0", BEYOND, "9" * 19, HUGE])
def test_a_path_id_beyond_any_record_is_not_found(client, english, value):
    paths = _id_paths()
    assert len(paths) >= 15  # every screen and action of a table, a round, a person
    client.force_login(english["pitboss"])
    for route, _names in paths:
        path = "/" + re.sub(r"<id:\w+>", value, route)
        with pytest.raises(Resolver404):
            resolve(path)
        assert client.get(path).status_code == 404, path
        assert client.post(path).status_code == 404, path


def test_the_largest_id_still_reaches_the_view(client, english):
    client.force_login(english["pitboss"])
    path = reverse("tables:table", args=[2**63 - 1])
    assert client.get(path).status_code == 404  # no such table, answered by the view


# -- date-times and amounts -----------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        {"opened_from": "0001-01-01T00:00"},
        {"opened_to": "0001-01-01T00:00"},
        {"opened_from": "9999-12-31T23:59"},
        {"opened_from": "2026-02-30T10:00"},
        {"min_total_bet": "NaN"},
        {"min_total_bet": "Infinity"},
        {"min_result": "1e400"},
        {"box": BEYOND},
    ],
)
def test_a_crafted_round_search_is_refused(client, english, params):
    client.force_login(english["duty"])
    response = client.get(reverse("game:replay_search"), params)
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()


# -- chip values in the table configuration ---------------------------------------------------


@pytest.mark.parametrize(
    "chips, bad",
    [
        ("50, NaN", "NaN"),
        ("Infinity", "Infinity"),
        ("100, -Infinity", "-Infinity"),
        ("1e400", "1e400"),
        ("100, sNaN", "sNaN"),
        ("0", "0"),
        ("-5", "-5"),
        ("0.001", "0.001"),
        ("１００", "１００"),
    ],
)
def test_a_chip_value_that_is_not_one_is_refused_and_nothing_saved(
    client, table, english, chips, bad
):
    from tests.tables.test_configuration import config_data

    table.status = Table.Status.CLOSED
    table.chip_denominations = ["100", "500"]
    table.save()
    client.force_login(english["pitboss"])
    url = reverse("game:table_config", args=[table.pk])
    response = client.post(url, config_data(table, chips=chips))
    assert response.status_code == 400
    assert f"{bad} is not a chip value." in unescape(response.content.decode())
    assert Table.objects.get(pk=table.pk).chip_denominations == ["100", "500"]
    assert not TableChange.objects.exists()


@pytest.mark.parametrize("par", ["100 = 1e9", "100 = NaN", "100 = -1", "100 = " + HUGE])
def test_a_par_float_that_is_not_a_count_is_refused(client, table, english, par):
    from tests.tables.test_configuration import config_data

    table.status = Table.Status.CLOSED
    table.chip_denominations = ["100", "500"]
    table.save()
    client.force_login(english["pitboss"])
    url = reverse("game:table_config", args=[table.pk])
    response = client.post(url, config_data(table, par=par))
    assert response.status_code == 400
    assert not TableChange.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("value", ["0", BEYOND, HUGE])
async def test_a_socket_path_id_beyond_any_record_is_closed_not_found(crew, value):
    from channels.db import database_sync_to_async

    from tests.conftest import ws_communicator

    socket = await database_sync_to_async(ws_communicator)(f"/ws/tables/{value}/", crew["dealer"])
    try:
        assert await socket.connect() == (True, None)
        assert (await socket.receive_output())["code"] == 4404
    finally:
        await socket.disconnect()
