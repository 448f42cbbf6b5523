"""Fill where each table's cut card goes (``Table.cut_least``, ``cut_most``) from its rule
set: the engine knows it, hence a ``game`` migration (``tables`` sits below the engine)."""

from django.db import migrations


def fill(apps, schema_editor):
    from game.table.cuts import cut_limits
    from game.engine import Rules, RulesError

    Table = apps.get_model("tables", "Table")
    for table in Table.objects.all():
        try:
            rules = Rules.from_json(table.rules or "standard")
        except RulesError:
            continue
        table.cut_least, table.cut_most = cut_limits(rules.decks, rules.cut_card)
        table.save(update_fields=["cut_least", "cut_most"])


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0008_ledger_keys_and_chained_figures"),
        ("tables", "0014_table_cut_window"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
