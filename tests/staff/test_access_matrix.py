"""Every role (and an anonymous visitor, and a croupier of another table) against every
screen and every socket route: each reaches what it should and nothing else."""

import pytest
from channels.db import database_sync_to_async
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from game.models import Player
from staff import services as staff_services
from staff.roles import Role, TableRole
from tests.conftest import ws_communicator

PEOPLE = ["anonymous", "dealer", "observer", "inspector", "duty", "pitboss", "outsider"]

# name -> (kwargs, {person: expected status}); people not listed get 403.
# 302 means "redirected to their screen"; anonymous people are always sent to sign in.
SCREENS = {
    "root": (
        {},
        {
            "dealer": 302,
            "observer": 302,
            "inspector": 302,
            "duty": 302,
            "pitboss": 302,
            "outsider": 302,
        },
    ),
    "staff:home": (
        {},
        {
            "dealer": 302,
            "observer": 302,
            "inspector": 302,
            "duty": 302,
            "pitboss": 302,
            "outsider": 302,
        },
    ),
    "game:dealer_home": ({}, {"dealer": 302, "outsider": 302}),
    "game:observer_home": ({}, {"observer": 302}),
    "game:inspector_home": ({}, {"inspector": 200}),
    "game:dealer": ({"table_id": "T"}, {"dealer": 200}),
    "game:observer": (
        {"table_id": "T"},
        {"observer": 200, "inspector": 200, "duty": 200, "pitboss": 200},
    ),
    "cashdesk:duty_home": ({}, {"duty": 200}),
    "cashdesk:drop": ({}, {"duty": 200}),
    "cashdesk:report": ({}, {"duty": 200, "pitboss": 200}),
    "cashdesk:report_print": ({}, {"duty": 200, "pitboss": 200}),
    "cashdesk:export": ({}, {"duty": 200, "pitboss": 200}),
    "cashdesk:records": ({}, {"duty": 200, "pitboss": 200}),
    "cashdesk:records_export": ({}, {"duty": 200, "pitboss": 200}),
    "cashdesk:table": (
        {"table_id": "T"},
        {"dealer": 200, "observer": 200, "inspector": 200, "duty": 200, "pitboss": 200},
    ),
    "staff:lockouts": ({}, {"duty": 200}),
    "staff:replacement_request": ({"table_id": "T"}, {"inspector": 200}),
    "staff:replacements": ({}, {"inspector": 200, "duty": 200}),
    "game:replay_search": ({}, {"inspector": 200, "duty": 200}),
    "game:replay": ({"round_id": "R"}, {"inspector": 200, "duty": 200}),
    "tables:pit_home": ({}, {"pitboss": 200}),
    "tables:staff_board": ({}, {"pitboss": 200, "duty": 200}),
    "game:pit_overview": ({}, {"pitboss": 200, "duty": 200}),
    "tables:table": ({"table_id": "T"}, {"pitboss": 200}),
    "game:table_config": ({"table_id": "T"}, {"pitboss": 200}),
    "game:table_config_rules": ({"table_id": "T"}, {"pitboss": 200}),
    "tables:alerts": ({}, {"inspector": 200, "duty": 200}),
    "game:players": ({}, {"inspector": 200, "duty": 200}),
    "game:player": ({"card": "C"}, {"inspector": 200, "duty": 200}),
    "game:dealers": ({}, {"duty": 200, "pitboss": 200}),
    "game:dealers_export": ({}, {"duty": 200, "pitboss": 200}),
}
# Cash-desk actions reached with an empty form: the allowed person gets 400 (bad input).
POST_ONLY = {
    "staff:unlock": ({"user_id": "U"}, {"duty": 302}),
    "staff:source_lift": ({"attempt_id": "A"}, {"duty": 302}),
    "staff:replacement_decide": ({}, {"duty": 400}),
    "cashdesk:slip_issue": ({}, {"duty": 400}),
    "cashdesk:resolve": ({}, {"duty": 400}),
    "cashdesk:correction_confirm": ({}, {"duty": 400}),
    "cashdesk:day_close": ({}, {"duty": 400}),
    "cashdesk:day_reopen": ({}, {"duty": 400}),
    "cashdesk:cash_in": ({"table_id": "T"}, {"dealer": 400}),
    "cashdesk:tip": ({"table_id": "T"}, {"dealer": 400}),
    "cashdesk:recount": ({"table_id": "T"}, {"observer": 400}),
    "cashdesk:cash_in_confirm": ({"table_id": "T"}, {"inspector": 400}),
    "cashdesk:cash_in_chips": ({"table_id": "T"}, {"dealer": 400}),
    "cashdesk:cash_in_correct": ({"table_id": "T"}, {"inspector": 400, "duty": 400}),
    "cashdesk:chip_count_correct": (
        {"table_id": "T"},
        {"inspector": 400, "duty": 400, "pitboss": 400},
    ),
    "cashdesk:slip_request": ({"table_id": "T"}, {"inspector": 400}),
    "cashdesk:slip_receive": ({"table_id": "T"}, {"dealer": 400, "observer": 400}),
    "cashdesk:slip_void": ({"table_id": "T"}, {"inspector": 400, "duty": 400}),
    "tables:alert_acknowledge": ({}, {"inspector": 400, "duty": 400}),
}
PUBLIC = {
    "staff:login",
    "staff:pin_login",
    "staff:logout",
    "staff:language",
    "set_language",
    "floor:favicon",  # a redirect to the static icon, for anyone
}
# Operations endpoints: answered by the client's network, not by role
# (tests/floor/test_ops_endpoints.py).
OPS = {"floor:healthz", "floor:metrics"}

SOCKETS = {
    "/ws/tables/T/": {"dealer", "observer", "inspector", "duty", "pitboss"},
    "/ws/inspector/": {"inspector"},
    "/ws/pit/": {"pitboss", "duty"},
    "/ws/duty/": {"duty"},
}


@pytest.fixture
def people(crew, make_user, make_table):
    other = make_table(2)
    outsider = make_user("outsider", [Role.DEALING_CROUPIER])
    staff_services.assignment_start(table=other, user=outsider, role=TableRole.DEALING_CROUPIER)
    return {**crew, "outsider": outsider}


def _url(name, kwargs, table, people):
    values = {"T": table.pk, "U": people["dealer"].pk, "A": 1, "C": "PC-1"}
    if "C" in kwargs.values():
        Player.objects.get_or_create(card="PC-1")
    if "R" in kwargs.values():
        values["R"] = _a_round(table, people)
    return reverse(name, kwargs={k: values[v] for k, v in kwargs.items()})


def _a_round(table, people) -> int:
    """A round of ``table`` (opened by its dealing croupier), for the replay screen."""
    from tests.game.conftest import Desk, current_round

    Desk(table, people["dealer"]).start_round()
    return current_round(table).pk


def _all_names(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue
            ns = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            yield from _all_names(entry, ns)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + entry.name


def test_matrix_covers_every_named_url():
    covered = set(SCREENS) | set(POST_ONLY) | PUBLIC | OPS
    missing = sorted(set(_all_names()) - covered)
    assert not missing, f"add these URLs to the access matrix: {missing}"


@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_access(client, people, table, name, person):
    kwargs, allowed = SCREENS[name]
    if person != "anonymous":
        client.force_login(people[person])
    response = client.get(_url(name, kwargs, table, people))
    if person == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("staff:login"))
    else:
        assert response.status_code == allowed.get(person, 403), response.content[:300]
        if response.status_code == 302:
            assert not response["Location"].startswith(reverse("staff:login"))


@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize("name", sorted(POST_ONLY))
def test_action_access(client, people, table, name, person):
    kwargs, allowed = POST_ONLY[name]
    if person != "anonymous":
        client.force_login(people[person])
    response = client.post(_url(name, kwargs, table, people))
    if person == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("staff:login"))
    else:
        assert response.status_code == allowed.get(person, 403)


def test_forbidden_page_is_translated_not_a_server_error(client, people, table):
    client.force_login(people["dealer"])
    response = client.get(reverse("tables:pit_home"), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 403
    assert "Нет доступа" in response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize("route", sorted(SOCKETS))
async def test_socket_access(people, table, route, person):
    user = None if person == "anonymous" else people[person]
    path = route.replace("T", str(table.pk))
    communicator = await database_sync_to_async(ws_communicator)(path, user)
    connected, _ = await communicator.connect()
    try:
        if person in SOCKETS[route]:
            assert connected
            first = await communicator.receive_output(timeout=3)
            assert first["type"] == "websocket.send"  # the current state, not a close
            assert 'data-seq="' in first["text"]
        else:
            message = await communicator.receive_output(timeout=3)
            assert message["type"] == "websocket.close"
            expected = 4401 if person == "anonymous" else 4403
            assert message["code"] == expected
    finally:
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_socket_for_unknown_table_is_closed(people):
    communicator = await database_sync_to_async(ws_communicator)(
        "/ws/tables/9999/", people["dealer"]
    )
    await communicator.connect()
    message = await communicator.receive_output(timeout=3)
    assert message == {"type": "websocket.close", "code": 4403}
    await communicator.disconnect()
