"""Every table gets its live row when it is made: the row every command locks."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from game.models import LiveTable
from tables.models import Table


@receiver(post_save, sender=Table, dispatch_uid="game-live-table")
def live_table_create(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        LiveTable.objects.get_or_create(table=instance)
