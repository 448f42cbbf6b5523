"""The one feed model: a sequence per topic.

A topic is what a live screen follows: ``table.<id>`` (a table's screens and its tile on the
inspector's dashboard and the pit overview), ``duty`` (the duty administrators' floor).
Its ``seq`` moves inside the transaction of every committed change its screens show
(``feed.send_on_commit``), under the row's lock, so the numbers follow the order of the
commits: a screen orders what it receives by them and asks (``sync``) when it sees a gap.
The inspector's dashboard and the pit overview follow many table topics at once, each tile
with its own table's number; a person's own topic (``user.<id>``: revocations) carries no
number and has no row.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Topic(models.Model):
    name = models.CharField(_("topic"), max_length=64, primary_key=True)
    seq = models.PositiveBigIntegerField(_("sequence"), default=0)

    class Meta:
        verbose_name = _("topic")
        verbose_name_plural = _("topics")

    def __str__(self) -> str:
        return f"{self.name}: {self.seq}"
