"""Fill the rule-set facts kept on each table (decks, house edge) from its rules, and the
time it last opened from its history. The engine knows the facts, hence a ``game``
migration: ``tables`` sits below the engine."""

from decimal import Decimal

from django.db import migrations
from django.db.models import Max


def fill(apps, schema_editor):
    from game.engine import Rules, RulesError
    from game.engine.strategy import theoretical_edge

    Table = apps.get_model("tables", "Table")
    TableChange = apps.get_model("tables", "TableChange")
    for table in Table.objects.all():
        try:
            rules = Rules.from_json(table.rules or "standard")
        except RulesError:
            continue
        table.decks = rules.decks
        table.house_edge = Decimal(repr(round(theoretical_edge(rules), 6)))
        table.opened_at = TableChange.objects.filter(table=table, to_status="open").aggregate(
            m=Max("changed_at")
        )["m"]
        table.save(update_fields=["decks", "house_edge", "opened_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0004_audit_chain"),
        ("tables", "0006_table_rule_facts_opened_at"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
