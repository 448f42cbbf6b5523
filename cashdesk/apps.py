from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CashdeskConfig(AppConfig):
    name = "cashdesk"
    verbose_name = _("Cash desk")

    def ready(self):
        from cashdesk import (
            ledger,  # noqa: F401  (audit_verify's seal check)
            receivers,  # noqa: F401  ("round closed": the round's result)
        )
        from cashdesk.selectors import alert_authors_register

        alert_authors_register()
