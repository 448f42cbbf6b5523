"""Write paths for pits, tables and alerts."""

from django.db import transaction

from tables.models import Alert, Table


def alert_raise(
    *,
    table: Table | None,
    kind: str,
    params: dict | None = None,
    severity: str = Alert.Severity.WARNING,
    raised_by=None,
) -> Alert:
    """Record an alert for the inspector and the duty administrator and push it live.

    ``kind`` is a stable code (its message is translated on the screens, see
    ``tables/alerts.py``); ``params`` holds what the message needs (JSON-safe values).
    """
    alert = Alert(
        table=table, kind=kind, params=params or {}, severity=severity, raised_by=raised_by
    )
    alert.full_clean()
    alert.save()
    if table is not None:
        table_id = table.pk

        def publish():
            from game.publish import publish_table

            publish_table(table_id)

        transaction.on_commit(publish)
    return alert
