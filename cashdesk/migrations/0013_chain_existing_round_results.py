# Round results written before they were chained become links of their chains, in the order
# they were written (floor/ledger.py, Adoption): tamper-evident from the upgrade on.

from django.db import migrations

FIELDS = (
    "round",
    "table",
    "gaming_day",
    "shift",
    "closed_at",
    "hands",
    "total_bet",
    "players_net",
    "theoretical_win",
    "winning_boxes",
    "voided",
)


def chain(apps, schema_editor):
    from floor.ledger import Adoption

    def chain_of(row):
        return f"results:{row.table_id}:{row.gaming_day}", row.gaming_day

    Adoption(apps).rows("cashdesk.RoundResult", FIELDS, (), chain_of)


class Migration(migrations.Migration):
    dependencies = [
        ("cashdesk", "0012_ledger_keys_and_chained_figures"),
        ("floor", "0005_register_existing_chains"),
    ]

    operations = [migrations.RunPython(chain, migrations.RunPython.noop)]
