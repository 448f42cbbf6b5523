"""Write paths of the pit's tables, one module per concern:

- :mod:`tables.services.lifecycle` — closed → opening → open → closing → closed, the opening
  and closing checklists and their two signatures;
- :mod:`tables.services.steps` — what each checklist step records and checks (a table of
  step handlers);
- :mod:`tables.services.chips` — the chip set and chip counts;
- :mod:`tables.services.reservations` — box reservation tokens and their expiry;
- :mod:`tables.services.alerts` — the inspector's acknowledgement of an alert (raising one
  is ``floor.alerts.alert_raise``).

A table's configuration (rule set, limits, chip set...) is written by
``game.configuration.services.table_configure``: it needs the engine, which sits above this app.
Refusals are ``floor.errors.Refused`` with a translated message and a stable ``code``.
"""

from tables.services.alerts import alert_acknowledge, own_critical
from tables.services.chips import chip_count_record, table_validate_chips
from tables.services.lifecycle import (
    checklist_current,
    checklist_missing_steps,
    checklist_sign,
    checklist_start,
    checklist_step_record,
    float_discrepancy,
    player_edge,
    signer_authenticate,
    table_close,
    table_open,
    witness_authenticate,
)
from tables.services.reservations import (
    RESERVATION_WARNING,
    reservation_expire_due,
    reservation_place,
    reservation_release,
    reservation_renew,
    reservations_clear,
)

__all__ = [
    "RESERVATION_WARNING",
    "alert_acknowledge",
    "own_critical",
    "checklist_current",
    "checklist_missing_steps",
    "checklist_sign",
    "checklist_start",
    "checklist_step_record",
    "chip_count_record",
    "float_discrepancy",
    "player_edge",
    "reservation_expire_due",
    "reservation_place",
    "reservation_release",
    "reservation_renew",
    "reservations_clear",
    "signer_authenticate",
    "table_close",
    "table_open",
    "table_validate_chips",
    "witness_authenticate",
]
