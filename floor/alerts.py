"""Alerts: raising one, and the translated message of each kind.

Add a kind to ``ALERT_MESSAGES`` and ``ALERT_KIND_LABELS`` when you raise a new one.
"""

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _

from floor.changes import duty_changed, table_changed
from floor.formats import number_text
from floor.models import Alert

ALERT_MESSAGES = {
    "flag": _("The observing croupier flagged an error: %(note)s"),
    "cash_in_large": _("A large cash-in: %(amount)s (threshold %(threshold)s)"),
    "cash_in_player_day": _(
        "Player card %(card)s: cash-ins today %(amount)s (threshold %(threshold)s)"
    ),
    "tip_large": _("An unusual tip at box %(box)s: %(amount)s (threshold %(threshold)s)"),
    "slip_large": _("An unusual slip %(slip)s: %(amount)s (threshold %(threshold)s)"),
    "recount_mismatch": _(
        "Recount mismatch: the dealer entered %(entered)s, the observer counted %(recounted)s"
    ),
    "reservation_expiring": _(
        "Box %(box)s (%(seat)s): the reservation ends in %(minutes)s minutes."
    ),
    "reservation_expired": _("Box %(box)s (%(seat)s): the reservation expired; the box is free."),
    "card_corrected": _("Round %(round)s: the dealer corrected a card entry, %(old)s → %(new)s"),
    "round_voided": _("Round %(round)s voided: %(reason)s"),
    "table_idle": _("No command at the table for %(minutes)s minutes."),
    "croupier_rotation": _(
        "%(name)s has been at the table for %(minutes)s minutes (rotation every %(limit)s minutes)."
    ),
    "result_deviation": _(
        "Shift result %(result)s against a theoretical %(theoretical)s: %(z)s standard "
        "deviations over %(rounds)s rounds."
    ),
    "advantage_play": _(
        "%(name)s: the bets follow the true count (evidence %(evidence)s after %(rounds)s "
        "rounds; estimated player edge %(edge)s): possible card counting."
    ),
    "float_difference": _(
        "Chip float at opening %(opener)s differs from the last closing count %(closer)s "
        "by %(difference)s."
    ),
    "float_par_difference": _(
        "Chip float at opening %(opener)s differs from the par float %(par)s by %(difference)s."
    ),
    "pin_locked": _(
        "The PIN of %(name)s is locked after wrong PINs from several devices: check with "
        "the croupier, then unlock it (Locked sign-ins)."
    ),
}


ALERT_KIND_LABELS = {
    "flag": _("Observer's note"),
    "cash_in_large": _("Large cash-in"),
    "cash_in_player_day": _("Player's cash-ins today"),
    "tip_large": _("Unusual tip"),
    "slip_large": _("Unusual slip"),
    "recount_mismatch": _("Recount mismatch"),
    "reservation_expiring": _("Reservation ending"),
    "reservation_expired": _("Reservation expired"),
    "card_corrected": _("Card corrected"),
    "round_voided": _("Round voided"),
    "table_idle": _("Table idle"),
    "croupier_rotation": _("Croupier rotation"),
    "result_deviation": _("Result deviation"),
    "advantage_play": _("Possible card counting"),
    "float_difference": _("Chip float difference"),
    "float_par_difference": _("Chip float differs from par"),
    "pin_locked": _("PIN locked"),
}


# Critical alerts about a money figure (a cash amount, a chip float): clearing one takes a
# second person, and never the person who entered or corrected the figure
# (tables.services.alerts.alert_acknowledge).
MONEY_ALERT_KINDS = frozenset({"recount_mismatch", "float_difference", "float_par_difference"})

# kind -> function(alert) -> ids of the people who entered or corrected the alert's figure,
# registered by the app that owns the figure (its AppConfig.ready): the alert only names
# its record in ``params``.
_FIGURE_AUTHORS: dict[str, Callable] = {}


def figure_authors_register(kind: str, authors: Callable) -> None:
    _FIGURE_AUTHORS[kind] = authors


def money_critical(alert) -> bool:
    """A critical alert about a money figure (``MONEY_ALERT_KINDS``)."""
    return alert.severity == Alert.Severity.CRITICAL and alert.kind in MONEY_ALERT_KINDS


def figure_authors(alert) -> set[int]:
    """Who entered or corrected the figure ``alert`` is about: whoever raised it by his own
    count, and what the owning app says of the record (``figure_authors_register``)."""
    found = {alert.raised_by_id} if alert.raised_by_id else set()
    authors = _FIGURE_AUTHORS.get(alert.kind)
    if authors is not None:
        found |= set(authors(alert))
    return found


def alert_kind_label(kind: str) -> str:
    return str(ALERT_KIND_LABELS.get(kind, kind))


# The parameters of the messages that are amounts of money: shown in the reader's format
# (``−95 000,00``), never as stored (``-95000.00``).
MONEY_PARAMS = frozenset(
    {
        "amount",
        "threshold",
        "difference",
        "opener",
        "closer",
        "par",
        "entered",
        "recounted",
        "result",
        "theoretical",
    }
)


def alert_text(alert) -> str:
    template = ALERT_MESSAGES.get(alert.kind)
    if template is None:
        return alert.kind
    params = dict(alert.params or {})
    for key in MONEY_PARAMS & params.keys():
        params[key] = number_text(params[key], 2)
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return str(template)


def alert_raise(
    *,
    table_id: int | None,
    kind: str,
    params: dict | None = None,
    severity: str = Alert.Severity.WARNING,
    raised_by=None,
) -> Alert:
    """Record an alert for the inspector and the duty administrator; the screens that show
    it (the table's, the inspector's tile, the duty home) are published once the caller's
    transaction commits, with whatever else it changed.

    ``kind`` is a stable code (its message is translated on the screens); ``params`` holds
    what the message needs (JSON-safe values).
    """
    alert = Alert(
        table_id=table_id, kind=kind, params=params or {}, severity=severity, raised_by=raised_by
    )
    alert.full_clean(exclude=["table"] if table_id is not None else None)
    alert.save()
    if table_id is not None:
        table_changed(table_id, duty=True)
    else:
        duty_changed()
    return alert
