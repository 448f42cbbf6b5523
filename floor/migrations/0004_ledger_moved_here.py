# The ledger's own tables (the chains' heads and later changes) move from the cash desk to
# floor (floor/ledger.py), below every app that keeps chained records: the database tables
# keep their names; only Django's state moves. Then every link and head gets its key's id.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0003_sequences_move_to_feed"),
        ("cashdesk", "0010_cash_in_corrections"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditChain",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=80, unique=True)),
                        ("gaming_day", models.DateField(db_index=True)),
                        ("length", models.PositiveBigIntegerField(default=0)),
                        ("head", models.CharField(default="0" * 64, max_length=64)),
                        ("mac", models.CharField(blank=True, max_length=64)),
                    ],
                    options={
                        "verbose_name": "audit chain",
                        "verbose_name_plural": "audit chains",
                        "db_table": "cashdesk_auditchain",
                    },
                ),
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("chain", models.CharField(max_length=80)),
                        ("seq", models.PositiveBigIntegerField()),
                        ("model", models.CharField(max_length=64)),
                        ("object_id", models.PositiveBigIntegerField()),
                        ("content", models.TextField()),
                        ("prev", models.CharField(max_length=64)),
                        ("hash", models.CharField(max_length=64)),
                    ],
                    options={
                        "db_table": "cashdesk_auditentry",
                        "indexes": [models.Index(fields=["model", "object_id"], name="cashdesk_au_model_167d54_idx")],
                        "constraints": [models.UniqueConstraint(fields=("chain", "seq"), name="audit_entry_seq_per_chain")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AddField(
            model_name="auditchain",
            name="key_id",
            field=models.CharField(blank=True, max_length=16),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="key_id",
            field=models.CharField(blank=True, max_length=16),
        ),
    ]
