from django.db import migrations, models


def sequences_from_floor(apps, schema_editor):
    """Carry on every table's screen sequence and the duty screens' counter: a screen open
    across the upgrade sees its numbers go on, not start again."""
    TableFeed = apps.get_model("floor", "TableFeed")
    Counter = apps.get_model("floor", "Counter")
    Topic = apps.get_model("feed", "Topic")
    rows = [Topic(name=f"table.{pk}", seq=seq) for pk, seq in TableFeed.objects.values_list("pk", "seq")]
    rows += [Topic(name=name, seq=value) for name, value in Counter.objects.values_list("name", "value")]
    Topic.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    initial = True

    dependencies = [("floor", "0001_initial")]

    operations = [
        migrations.CreateModel(
            name="Topic",
            fields=[
                ("name", models.CharField(max_length=64, primary_key=True, serialize=False, verbose_name="topic")),
                ("seq", models.PositiveBigIntegerField(default=0, verbose_name="sequence")),
            ],
            options={"verbose_name": "topic", "verbose_name_plural": "topics"},
        ),
        migrations.RunPython(sequences_from_floor, migrations.RunPython.noop),
    ]
