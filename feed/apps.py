from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FeedConfig(AppConfig):
    """The realtime kernel, at the very bottom of the layering (it uses Django and Redis,
    no app of the project): topics with their sequences, ``send_on_commit``, the bus that
    carries one publish per change to every worker, the screens' presence, and the base of
    every live screen's socket (docs/architecture.md, "The realtime kernel")."""

    name = "feed"
    verbose_name = _("Live feed")
