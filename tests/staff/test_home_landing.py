"""The home address sends each signed-in person to the screen of their role, and the
navigation offers one entry per role they hold."""

import pytest
from django.urls import reverse

from staff import services as staff_services
from staff.roles import Role, TableRole


def _nav_links(response) -> str:
    html = response.content.decode()
    start = html.index('<nav class="nav"')
    return html[start : html.index("</nav>", start)]


def test_anonymous_visitor_is_sent_to_sign_in(client_en, db):
    response = client_en.get(reverse("root"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("staff:login"))


@pytest.mark.parametrize(
    ("person", "url_name", "with_table"),
    [
        ("dealer", "game:dealer", True),
        ("observer", "game:observer", True),
        ("inspector", "game:inspector_home", False),
        ("duty", "cashdesk:duty_home", False),
        ("pitboss", "tables:pit_home", False),
    ],
)
def test_root_leads_each_role_to_its_home(client_en, crew, table, person, url_name, with_table):
    client_en.force_login(crew[person])

    response = client_en.get(reverse("root"), follow=True)

    expected = reverse(url_name, args=[table.pk] if with_table else [])
    assert response.request["PATH_INFO"] == expected
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("role", "home_name"),
    [
        (Role.DEALING_CROUPIER, "game:dealer_home"),
        (Role.OBSERVING_CROUPIER, "game:observer_home"),
    ],
)
def test_unassigned_croupier_sees_the_not_assigned_page(client_en, make_user, role, home_name):
    client_en.force_login(make_user("newcomer", [role]))

    response = client_en.get(reverse("root"), follow=True)

    assert response.request["PATH_INFO"] == reverse(home_name)
    assert response.status_code == 200
    assert "You are not assigned to a table right now." in response.content.decode()


def test_inspector_without_tables_is_told_so(client_en, make_user):
    client_en.force_login(make_user("inspector", [Role.INSPECTOR]))

    response = client_en.get(reverse("root"), follow=True)

    assert "You oversee no table right now." in response.content.decode()


def test_person_with_several_roles_gets_a_nav_item_for_each(client_en, make_user, table):
    person = make_user("versatile", [Role.INSPECTOR, Role.DUTY_ADMINISTRATOR, Role.PIT_BOSS])
    staff_services.assignment_start(table=table, user=person, role=TableRole.INSPECTOR)
    client_en.force_login(person)

    response = client_en.get(reverse("root"), follow=True)

    nav = _nav_links(response)
    for name in ("game:inspector_home", "cashdesk:duty_home", "staff:lockouts", "tables:pit_home"):
        assert f'href="{reverse(name)}"' in nav
    assert f'href="{reverse("game:dealer_home")}"' not in nav
    assert ">Inspector<" in nav and ">Pit<" in nav and ">Locked sign-ins<" in nav


def test_single_role_nav_has_only_that_role(client_en, crew):
    client_en.force_login(crew["pitboss"])

    nav = _nav_links(client_en.get(reverse("tables:pit_home")))

    assert f'href="{reverse("tables:pit_home")}"' in nav
    for name in (
        "game:inspector_home",
        "cashdesk:duty_home",
        "staff:lockouts",
        "game:dealer_home",
        "game:observer_home",
    ):
        assert f'href="{reverse(name)}"' not in nav


def test_superuser_without_a_role_lands_in_the_admin(client_en, django_user_model):
    admin = django_user_model.objects.create_superuser("boss", "b@example.invalid", "pw-12345")
    client_en.force_login(admin)

    response = client_en.get(reverse("root"))

    assert response["Location"] == reverse("admin:index")


def test_person_without_any_role_is_refused_not_crashed(client_en, make_user):
    client_en.force_login(make_user("nobody"))

    response = client_en.get(reverse("root"))

    assert response.status_code == 403
