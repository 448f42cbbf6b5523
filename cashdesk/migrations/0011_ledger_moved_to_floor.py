# The chains' own tables now belong to floor (floor/migrations/0004): the cash desk forgets
# them in Django's state only; the database tables stay as they are.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cashdesk", "0010_cash_in_corrections"),
        ("floor", "0004_ledger_moved_here"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="AuditEntry"),
                migrations.DeleteModel(name="AuditChain"),
            ],
            database_operations=[],
        ),
    ]
