# The chains made before the registry existed are entered in it (floor/ledger.py, Adoption).

from django.db import migrations


def register(apps, schema_editor):
    from floor.ledger import Adoption

    Adoption(apps).register_heads()


class Migration(migrations.Migration):
    dependencies = [("floor", "0004_ledger_moved_here")]

    operations = [migrations.RunPython(register, migrations.RunPython.noop)]
