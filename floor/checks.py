"""Deployment checks of the ledger's key (``manage.py check --deploy``)."""

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def audit_chain_key(app_configs, **kwargs):
    """The key of the hash chains (floor/ledger.py) is set, long and not ``SECRET_KEY``."""
    key = getattr(settings, "AUDIT_CHAIN_KEY", "")
    found = []
    if settings.AUDIT_CHAIN_KEY_ID == "dev" or len(key) < 32:
        found.append(
            checks.Error(
                "AUDIT_CHAIN_KEY is not set, or shorter than 32 characters.",
                hint="Set AUDIT_CHAIN_KEY (python3 -c 'import secrets; "
                "print(secrets.token_urlsafe(48))') and keep it with the secrets.",
                id="floor.E001",
            )
        )
    for kid, old in settings.AUDIT_CHAIN_KEYS.items():
        if kid != settings.AUDIT_CHAIN_KEY_ID and (len(old) < 32 or old == settings.SECRET_KEY):
            found.append(
                checks.Error(
                    f"AUDIT_CHAIN_OLD_KEYS: the key with id {kid!r} is shorter than 32 "
                    "characters or equal to SECRET_KEY.",
                    id="floor.E003",
                )
            )
    if key and key == settings.SECRET_KEY:
        found.append(
            checks.Error(
                "AUDIT_CHAIN_KEY is the same as SECRET_KEY.",
                hint="The chains' key must survive a rotation of SECRET_KEY: use its own.",
                id="floor.E002",
            )
        )
    return found
