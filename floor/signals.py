"""Every table gets its feed row when it is made, so the first change of a table never
races to create it."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from floor.models import TableFeed


@receiver(post_save, sender="tables.Table", dispatch_uid="floor-table-feed")
def table_feed_create(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        TableFeed.objects.get_or_create(table_id=instance.pk)
