"""Every table gets its feed row when it is made, so the first change of a table never
races to create it. And the floor's word that a round closed, for whoever keeps its figures."""

from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from floor.models import TableFeed


@receiver(post_save, sender="tables.Table", dispatch_uid="floor-table-feed")
def table_feed_create(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        TableFeed.objects.get_or_create(table_id=instance.pk)


# A round closed (or was voided after a payment made at once, ``voided=True``): said by the
# live table (game.services) inside the transaction that closes the round, with its figures
# (round_id, table_id, closed_at, hands, total_bet, players_net, theoretical_win,
# winning_boxes, voided). The cash desk writes its own row from it (cashdesk.receivers) in
# the same transaction: with the round's close or not at all — a receiver that fails rolls
# the close back. Sent with ``send``, never ``send_robust``, for that reason.
round_closed = Signal()
