import django.db.models.deletion

import floor.models
from django.conf import settings
from django.db import migrations, models


def feeds_for_existing_tables(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    TableFeed = apps.get_model("floor", "TableFeed")
    TableFeed.objects.bulk_create(
        [
            TableFeed(table_id=pk, epoch=floor.models._random_epoch())
            for pk in Table.objects.values_list("pk", flat=True)
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("tables", "0004_lifecycle_checklists_reservations"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Alert moves from tables to floor: the database table (tables_alert) stays as it is.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Alert",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(max_length=40, verbose_name="kind")),
                        ("severity", models.CharField(choices=[("info", "Information"), ("warning", "Warning"), ("critical", "Critical")], default="warning", max_length=10, verbose_name="severity")),
                        ("params", models.JSONField(blank=True, default=dict, verbose_name="details")),
                        ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="raised at")),
                        ("acknowledged_at", models.DateTimeField(blank=True, null=True, verbose_name="acknowledged at")),
                        ("acknowledgement_note", models.TextField(blank=True, verbose_name="acknowledgement note")),
                        ("acknowledged_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="acknowledged by")),
                        ("raised_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="raised by")),
                        ("table", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="alerts", to="tables.table", verbose_name="table")),
                    ],
                    options={
                        "verbose_name": "alert",
                        "verbose_name_plural": "alerts",
                        "ordering": ["-created_at"],
                        "db_table": "tables_alert",
                        "indexes": [models.Index(fields=["table", "acknowledged_at"], name="tables_aler_table_i_f7504c_idx")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name="TableFeed",
            fields=[
                ("table", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name="feed", serialize=False, to="tables.table")),
                ("seq", models.PositiveBigIntegerField(default=0, verbose_name="screen sequence")),
                ("board", models.PositiveBigIntegerField(default=0, verbose_name="board version")),
                ("round_open", models.BooleanField(default=False, verbose_name="round in progress")),
                ("round_number", models.PositiveIntegerField(blank=True, null=True, verbose_name="round number")),
                ("epoch", models.BigIntegerField(default=floor.models._random_epoch, editable=False)),
            ],
        ),
        migrations.CreateModel(
            name="Counter",
            fields=[
                ("name", models.CharField(max_length=32, primary_key=True, serialize=False)),
                ("value", models.PositiveBigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(feeds_for_existing_tables, migrations.RunPython.noop),
    ]
