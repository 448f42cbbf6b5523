"""On PostgreSQL, with threads: a cash-desk write locks its table's row without blocking
another transaction's rows that merely point at that table. A dealer's command commits
rows referring to the table (checked by PostgreSQL at commit with FOR KEY SHARE on the
table's row) after moving the table's screen sequence; a cash-in holding FOR UPDATE on the
table's row and then moving that sequence deadlocked with it (seen in bench_live with money
traffic: the command's socket closed 1011). The cash desk now locks FOR NO KEY UPDATE."""

import threading

import pytest
from django.db import connection, transaction

from cashdesk import services
from floor.alerts import alert_raise

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


def test_a_cash_in_holding_the_table_lets_a_row_pointing_at_the_table_commit(
    monkeypatch, cash_table, crew
):
    locked, go = threading.Event(), threading.Event()
    real = services.table_changed

    def paused(*args, **kwargs):
        locked.set()  # the cash-in holds the table's row lock now
        go.wait(timeout=10)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "table_changed", paused)
    outcome = {}

    def cash_in():
        try:
            outcome["cash_in"] = services.cash_in_record(
                table=cash_table, actor=crew["dealer"], notes={"5000": 1}, chips={"5000": 1}
            )
        except Exception as error:
            outcome["cash_in"] = error
        finally:
            connection.close()

    def pointing_row():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '3s'")
                alert_raise(table_id=cash_table.pk, kind="flag", params={"note": "Box 1"})
            outcome["alert"] = "committed"
        except Exception as error:
            outcome["alert"] = error
        finally:
            connection.close()

    first = threading.Thread(target=cash_in)
    first.start()
    assert locked.wait(timeout=10)
    second = threading.Thread(target=pointing_row)
    second.start()
    second.join(timeout=15)
    go.set()
    first.join(timeout=15)
    assert outcome["alert"] == "committed", outcome["alert"]
    assert not isinstance(outcome["cash_in"], Exception), outcome["cash_in"]
