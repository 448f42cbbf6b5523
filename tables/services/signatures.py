"""The second person of a two-person act (docs/operations.md, "Security"): resolving a money
exception, clearing a critical money alert, confirming a correction of a counted figure,
waiving the day close's checks.

The second person proves who he is with his own name and password (``signer_authenticate``,
throttled like every sign-in), is another person than the first, holds a role that may sign
it, and — a separate rule, :func:`refuse_figure_author` — never entered or corrected the
figure the act is about.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from floor.errors import Refused
from staff import seats
from staff.roles import Role
from staff.selectors import inspects
from tables.services.lifecycle import signer_authenticate


def refuse_figure_author(person, authors: Iterable[int]) -> None:
    """Whoever entered or corrected a figure never signs off on it: not the resolution of
    its exception, not the clearing of its alert, not the confirmation of its correction."""
    if person is not None and person.pk in set(authors):
        raise Refused(
            "figure_author",
            _(
                "%(name)s entered or corrected this figure: someone else signs it off, "
                "another duty administrator or the inspector."
            )
            % {"name": person.display_name},
        )


def may_second(person, *, table_id: int | None, pit_boss: bool = False) -> bool:
    """Whether ``person`` may be the second signature: a duty administrator, an inspector of
    the record's table (any inspector for a record of no table) or, where ``pit_boss``, a
    pit boss."""
    if person.has_role(Role.DUTY_ADMINISTRATOR):
        return True
    if pit_boss and person.has_role(Role.PIT_BOSS):
        return True
    if not person.has_role(Role.INSPECTOR):
        return False
    return table_id is None or inspects(user=person, table_id=table_id)


def second_signer(
    *,
    request,
    identifier: str,
    secret: str,
    first,
    table_id: int | None,
    authors: Iterable[int] = (),
    pit_boss: bool = False,
):
    """The second person, proved by his own password, or a refusal: none named
    (``second_required``), a wrong password (``bad_credential``, ``throttled``), the first
    person again (``same_person``), a role that may not sign it (``second_role``), or the
    person who entered or corrected the figure (``figure_author``)."""
    if not (identifier or "").strip() or not secret:
        raise Refused(
            "second_required",
            _(
                "This needs a second person: another duty administrator or the inspector "
                "enters his own name and password."
            ),
        )
    person = signer_authenticate(request=request, identifier=identifier, secret=secret)
    if first is not None and person.pk == first.pk:
        raise Refused("same_person", _("The second signature must be another person's, not yours."))
    if not may_second(person, table_id=table_id, pit_boss=pit_boss):
        if pit_boss:
            text = _(
                "%(name)s cannot give the second signature: it is another duty "
                "administrator's, a pit boss's or the table's inspector's."
            )
        else:
            text = _(
                "%(name)s cannot give the second signature: it is another duty "
                "administrator's or the table's inspector's."
            )
        raise Refused("second_role", text % {"name": person.display_name})
    if table_id is not None and table_id in seats.croupier_table_ids(person):
        raise Refused(
            "second_seated",
            _("%(name)s deals or observes at this table: the second signature is someone else's.")
            % {"name": person.display_name},
        )
    refuse_figure_author(person, authors)
    return person
