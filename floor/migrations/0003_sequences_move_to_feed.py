from django.db import migrations


class Migration(migrations.Migration):
    """The screen sequences live in ``feed.Topic`` now (copied by feed's first migration):
    the table's row keeps its board version and round boundary; the duty counter goes."""

    dependencies = [("floor", "0002_alert_second_signature"), ("feed", "0001_initial")]

    operations = [
        migrations.RemoveField(model_name="tablefeed", name="seq"),
        migrations.DeleteModel(name="Counter"),
    ]
