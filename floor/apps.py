from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloorConfig(AppConfig):
    """The bottom of the app layering: what every other app may use and that uses none of
    them — alerts, the "something changed" mechanism and the screens' sequence numbers,
    the channel-layer group names and who is watching which screen."""

    name = "floor"
    verbose_name = _("Floor")

    def ready(self):
        from floor import checks, signals  # noqa: F401  (deploy checks; the receivers)
