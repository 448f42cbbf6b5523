"""The tamper-evident record: round events and cash-desk records are links of hash chains.
An edit made in SQL behind the app's back (a value, a later state, a deleted or cut-off
link) is reported by ``manage.py audit_verify`` with the first broken link and exit status
1, and the gaming-day close refuses a broken day."""

import io
import threading

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection

from cashdesk import days, services, slips
from cashdesk.models import CashIn, GamingDayClose, Slip, Tip
from floor.ledger import AuditChain
from game.models import RoundEvent
from tables.models import Table
from tests.cashdesk.conftest import today, yesterday
from tests.game.conftest import Desk

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]  # tests/conftest.py


def verify(*args) -> tuple[int, str]:
    """Run ``audit_verify``: (exit status, what it printed)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("audit_verify", *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    return status, out.getvalue() + err.getvalue()


def sql(statement: str, *params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


@pytest.fixture
def floor(cash_table, crew):
    """A played round and a day of cash records at ``cash_table``."""
    desk = Desk(cash_table, crew["dealer"])
    desk.start_round({1: 100})
    desk.ok("close-bets")
    desk.cards("Th", "6d", "9c")
    desk.ok("stand")
    desk.cards("Ks", "Qd")
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    tips = [
        services.tip_record(table=cash_table, actor=crew["dealer"], box=1, amount=amount, note="n")
        for amount in ("100", "200", "300")
    ]
    slip = slips.slip_request(
        table=cash_table, actor=crew["inspector"], kind="fill", counts_by_denomination={"100": 5}
    )
    slips.slip_issue(slip=slip, actor=crew["duty"])
    slips.slip_receive(slip=slip, actor=crew["dealer"])
    return {"cash_in": cash_in, "tips": tips, "slip": slip}


def test_an_untouched_record_verifies(floor):
    status, output = verify()

    assert status == 0, output
    assert output.startswith("OK (all gaming days):")
    assert RoundEvent.objects.filter(audit_seq__isnull=True).count() == 0
    keys = set(AuditChain.objects.values_list("key", flat=True))
    table = floor["cash_in"].table_id
    assert f"cash:{table}:{today()}" in keys
    assert f"round_events:{table}:{today()}" in keys


def test_a_round_event_edited_in_sql_is_reported(floor):
    event = RoundEvent.objects.order_by("pk")[3]
    sql("UPDATE game_roundevent SET version = version + 1 WHERE id = %s", event.pk)

    status, output = verify()

    assert status == 1
    assert f"round_events:{floor['cash_in'].table_id}:{today()}" in output
    assert f"link {event.audit_seq} (game.roundevent #{event.pk})" in output
    assert "the recorded values do not match their hash" in output


def test_a_cash_in_amount_edited_in_sql_is_reported(floor):
    cash_in = floor["cash_in"]
    sql("UPDATE cashdesk_cashin SET amount = 20000 WHERE id = %s", cash_in.pk)

    status, output = verify("--day", today().isoformat())

    assert status == 1
    assert f"cashdesk.cashin #{cash_in.pk}" in output
    assert "the recorded values do not match their hash" in output


def test_a_recount_changed_in_sql_is_reported(floor):
    cash_in = floor["cash_in"]
    sql("UPDATE cashdesk_cashin SET recount_amount = 1500 WHERE id = %s", cash_in.pk)

    status, output = verify()

    assert status == 1
    assert f"cashdesk.cashin #{cash_in.pk}" in output
    assert "its current state is not the last one recorded" in output


def test_a_slip_signature_changed_in_sql_is_reported(floor, crew):
    slip = floor["slip"]
    sql("UPDATE cashdesk_slip SET received_by_id = %s WHERE id = %s", crew["observer"].pk, slip.pk)

    status, output = verify()

    assert status == 1 and f"cashdesk.slip #{slip.pk}" in output


def test_a_recorded_change_altered_in_sql_is_reported(floor):
    sql(
        "UPDATE cashdesk_auditentry SET content = %s WHERE model = %s",
        '{"status":"confirmed"}',
        "cashdesk.cashin",
    )

    status, output = verify()

    assert status == 1 and "the change was altered" in output


def test_a_deleted_link_is_reported(floor):
    middle = floor["tips"][1]
    sql("DELETE FROM cashdesk_tip WHERE id = %s", middle.pk)

    status, output = verify()

    assert status == 1
    assert f"link {middle.audit_seq} (—): the link is missing" in output


def test_a_cut_off_tail_is_reported_even_with_the_head_rewritten(floor, crew):
    last = services.tip_record(
        table=floor["cash_in"].table, actor=crew["dealer"], box=1, amount=5, note="n"
    )
    before = Tip.objects.get(pk=floor["tips"][-1].pk)
    assert before.audit_seq < last.audit_seq
    sql("DELETE FROM cashdesk_tip WHERE id = %s", last.pk)
    assert verify()[0] == 1
    # Rewriting the head to end at the new last link needs the key for its MAC.
    sql(
        "UPDATE cashdesk_auditchain SET length = length - 1, head = %s WHERE key = %s",
        before.audit_hash,
        last.audit_chain,
    )

    status, output = verify()

    assert status == 1 and "the chain's head was changed" in output


def test_saving_a_changed_recorded_value_through_the_app_is_refused(floor):
    tip = Tip.objects.get(pk=floor["tips"][0].pk)
    tip.amount = 1

    with pytest.raises(ValidationError) as refusal:
        tip.save()

    assert refusal.value.code == "recorded"
    assert Tip.objects.get(pk=tip.pk).amount == floor["tips"][0].amount
    assert verify()[0] == 0


def test_day_limits_the_check_to_that_gaming_day(floor, crew):
    drop = services.drop_enter(
        table=floor["cash_in"].table, gaming_day=yesterday(), amount="100", actor=crew["duty"]
    )
    sql("UPDATE cashdesk_dropcount SET amount = 1 WHERE id = %s", drop.pk)

    assert verify("--day", today().isoformat())[0] == 0
    status, output = verify("--day", yesterday().isoformat())
    assert status == 1 and f"cashdesk.dropcount #{drop.pk}" in output
    assert verify()[0] == 1


def _resolve_all(floor, crew):
    for kind, pk in (("slip", floor["slip"].pk),):
        days.exception_resolve(kind=kind, object_id=pk, actor=crew["duty"], note="checked")


def test_the_day_close_refuses_a_broken_day_and_closes_an_intact_one(floor, crew):
    from cashdesk.selectors import open_exceptions

    assert open_exceptions(gaming_day=today()) == []
    Table.objects.update(status=Table.Status.CLOSED)  # a day closes with every table closed
    services.drop_enter(  # and with the drop of every table that played counted
        table=floor["cash_in"].table, gaming_day=today(), amount="2000", actor=crew["duty"]
    )
    sql("UPDATE cashdesk_tip SET amount = 1 WHERE id = %s", floor["tips"][0].pk)

    with pytest.raises(ValidationError) as refusal:
        days.gaming_day_close(gaming_day=today(), actor=crew["duty"])

    assert refusal.value.code == "audit_broken"
    assert "fails its tamper check" in refusal.value.messages[0]
    assert not GamingDayClose.objects.filter(gaming_day=today()).exists()

    sql("UPDATE cashdesk_tip SET amount = 100 WHERE id = %s", floor["tips"][0].pk)
    close = days.gaming_day_close(gaming_day=today(), actor=crew["duty"])
    assert close.audit_chain == f"desk:{today()}"
    assert verify("--day", today().isoformat())[0] == 0


def test_a_bad_day_argument_is_a_clear_error(db):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("audit_verify", "--day", "9999-99-99")


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_of_one_chain_take_turns(cash_table, crew):
    """Tips and cash-ins at one table at the same moment each get their own place."""
    barrier = threading.Barrier(4)
    errors = []

    def write(n):
        try:
            barrier.wait()
            if n % 2:
                services.tip_record(
                    table=cash_table, actor=crew["dealer"], box=1, amount=n, note="n"
                )
            else:
                services.cash_in_record(
                    table=cash_table, actor=crew["dealer"], notes={"1000": 1}, chips={"1000": 1}
                )
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    seqs = sorted(
        [*Tip.objects.values_list("audit_seq", flat=True)]
        + [*CashIn.objects.values_list("audit_seq", flat=True)]
    )
    # Two tips and two cash-ins (each cash-in also records its first state): six links.
    assert AuditChain.objects.get(key=f"cash:{cash_table.pk}:{today()}").length == 6
    assert len(set(seqs)) == 4
    assert verify()[0] == 0


def test_every_slip_state_change_is_a_link(floor):
    slip = Slip.objects.get(pk=floor["slip"].pk)
    from floor.ledger import AuditEntry

    entries = AuditEntry.objects.filter(model="cashdesk.slip", object_id=slip.pk)
    # requested (its first state), issued, received
    assert entries.count() == 3
    assert all(e.chain == slip.audit_chain for e in entries)
