from django.db import migrations


class Migration(migrations.Migration):
    """Alert now belongs to the floor app; its database table is unchanged."""

    dependencies = [
        ("tables", "0004_lifecycle_checklists_reservations"),
        ("floor", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Alert")],
            database_operations=[],
        ),
    ]
