"""Fixtures of the live-table tests. ``Desk`` and the crew's desks are shared by every test
package: tests/desk.py and tests/conftest.py."""

import pytest

from tests.desk import Desk, current_round  # noqa: F401 (imported from here by older tests)


@pytest.fixture
def staffed_table(make_table, make_user):
    """A new table with its own dealing croupier, observer and inspector; returns desks."""
    from staff import services as staff_services
    from staff.roles import Role, TableRole

    def make(number, **fields):
        table = make_table(number, **fields)
        people = {
            "dealer": make_user(f"dealer{number}", [Role.DEALING_CROUPIER]),
            "observer": make_user(f"observer{number}", [Role.OBSERVING_CROUPIER]),
            "inspector": make_user(f"inspector{number}", [Role.INSPECTOR]),
        }
        for key, role in (
            ("dealer", TableRole.DEALING_CROUPIER),
            ("observer", TableRole.OBSERVING_CROUPIER),
            ("inspector", TableRole.INSPECTOR),
        ):
            staff_services.assignment_start(table=table, user=people[key], role=role)
        return table, {key: Desk(table, user) for key, user in people.items()}

    return make
