"""A table's configuration: what is played there and how (rule set, limits, boxes, card
entry, chip set, par float, reservation time).

It lives in ``game`` because a rule set is checked, and its house edge computed, by the
engine — which ``tables`` (below this app) cannot use. The table row is ``tables.Table``;
this is its one configuration write path, and every change is kept as a ``TableChange``.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from floor.changes import table_changed
from floor.errors import Refused
from game.configuration.rule_fields import refusal_text
from game.engine import PRESETS, Rules, RulesError
from game.engine.strategy import theoretical_edge
from game.table.cuts import cut_limits
from tables.models import Table, TableChange
from tables.services import table_validate_chips

# The settings a table's configuration changes (the form shows them; the service takes them).
CONFIG_FIELDS = (
    "number",
    "name",
    "pit",
    "boxes",
    "min_bet",
    "max_bet",
    "rules",
    "card_entry",
    "chip_denominations",
    "par_float",
    "reservation_minutes",
    "reservation_seconds",
)


def table_rules(table: Table) -> Rules:
    """The engine's rule set of ``table``."""
    return Rules.from_json(table.rules or "standard")


@lru_cache(maxsize=128)
def _edge(rules_json: str) -> Decimal:
    rules = Rules.from_json(json.loads(rules_json) or "standard")
    return Decimal(repr(round(theoretical_edge(rules), 6)))


def house_edge(rules) -> Decimal | None:
    """The house edge of a rule set (a table's ``rules`` JSON) as a fraction of the total
    bet, from the engine (basic strategy, infinite deck); None for a rule set the engine
    refuses. Negative: the player has the advantage."""
    try:
        return _edge(json.dumps(rules or {}, sort_keys=True))
    except RulesError:
        return None


def rule_facts(rules) -> dict:
    """What ``tables`` keeps of a rule set (it cannot ask the engine): its number of decks,
    its house edge and where its cut card goes (docs/sources.md#cut-card-position). Raises
    ``RulesError`` for a rule set the engine refuses."""
    parsed = Rules.from_json(rules or "standard")
    least, most = cut_limits(parsed.decks, parsed.cut_card)
    return {
        "decks": parsed.decks,
        "house_edge": house_edge(rules),
        "cut_least": least,
        "cut_most": most,
    }


def preset_edges() -> list[tuple[str, Decimal]]:
    return [(name, house_edge({"preset": name})) for name in PRESETS]


def _jsonable(value):
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "pk"):
        return value.pk
    return value


def table_configure(*, table: Table, changed_by, **fields) -> TableChange | None:
    """Change a table's configuration; only while it is closed. Returns the history row
    (``None`` when nothing changed). The rule set is validated by the engine."""
    unknown = set(fields) - set(CONFIG_FIELDS)
    if unknown:
        raise Refused("bad_field", _("Unknown setting: %(name)s") % {"name": sorted(unknown)[0]})
    with transaction.atomic():
        table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
        if table.status != Table.Status.CLOSED:
            raise Refused(
                "table_not_closed",
                _("The table's settings and rules change only while the table is closed."),
            )
        changes = {}
        for name, value in fields.items():
            old = getattr(table, name)
            if old != value:
                changes[name] = [_jsonable(old), _jsonable(value)]
                setattr(table, name, value)
        if not changes:
            return None
        try:
            facts = rule_facts(table.rules)
        except RulesError as error:
            raise ValidationError({"rules": refusal_text(error)}, code="bad_rules")
        # Kept on the table for the layers below the engine (the opening checklist).
        for name, value in facts.items():
            setattr(table, name, value)
        table_validate_chips(table=table)
        table.full_clean()
        table.save()
        change = TableChange(
            table=table, kind=TableChange.Kind.CONFIG, changes=changes, changed_by=changed_by
        )
        change.full_clean()
        change.save()
        table_changed(table.pk, duty=True)
    return change
