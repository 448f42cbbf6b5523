# Chip counts written before they were chained become links of their chains, in the order
# they were written (floor/ledger.py, Adoption): tamper-evident from the upgrade on.

from django.db import migrations

FIELDS = (
    "table",
    "kind",
    "counts",
    "total",
    "counted_by",
    "counted_at",
    "replaces",
    "note",
    "corrected_at",
)


def chain(apps, schema_editor):
    from floor.gaming import gaming_day_of
    from floor.ledger import Adoption

    def chain_of(row):
        day = gaming_day_of(row.corrected_at or row.counted_at)
        return f"chips:{row.table_id}:{day}", day

    Adoption(apps).rows("tables.ChipCount", FIELDS, ("confirmed_by", "confirmed_at"), chain_of)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_ledger_keys_and_chained_figures"),
        ("floor", "0005_register_existing_chains"),
    ]

    operations = [migrations.RunPython(chain, migrations.RunPython.noop)]
