"""Issue 19, item 2: ``audit_verify`` verifies the records, not only the chains it knows.

Each test tampers the database the way the review did (SQL behind the app's back, on what
is in effect a copy of the database) and asserts that ``audit_verify`` exits 1 and names the
break: a row slipped in with blank chain fields, a chain's head deleted, a whole chain
deleted with its head and registry entry still there, a chip count's total changed, a round
result's and a round's totals changed, a sealed day rolled back to an earlier consistent
state, a seal kept outside that no longer matches. And the key: independent of
``SECRET_KEY``, with an id on each link so that it can be rotated."""

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from cashdesk import days, services
from cashdesk.models import CashIn, GamingDayClose, RoundResult, Tip
from floor.ledger import REGISTRY, AuditChain, AuditEntry, ledger_verify
from game.models import Round
from tables.models import ChipCount, Table
from tests.cashdesk.conftest import today
from tests.game.conftest import Desk

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def verify(*args) -> tuple[int, str]:
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
def floor(cash_table, crew, count_chips):
    """A played round, an opening chip count and a day of cash records at one table."""
    chips = count_chips(cash_table, ChipCount.Kind.OPENER, "20000")
    desk = Desk(cash_table, crew["dealer"])
    desk.start_round({1: 100})
    desk.ok("close-bets")
    desk.cards("Th", "6d", "9c")
    desk.ok("stand")
    desk.cards("Ks", "Qd")
    desk.ok("confirm-settlement")
    cash_in = services.cash_in_record(
        table=cash_table, actor=crew["dealer"], notes={"1000": 2}, chips={"1000": 2}
    )
    services.cash_in_recount(cash_in=cash_in, actor=crew["observer"], notes={"1000": 2})
    tips = [
        services.tip_record(table=cash_table, actor=crew["dealer"], box=1, amount=a, note="n")
        for a in ("100", "200")
    ]
    return {"table": cash_table, "cash_in": cash_in, "tips": tips, "chips": chips}


def test_the_untouched_record_verifies_with_every_kind_of_chain(floor):
    status, output = verify()

    assert status == 0, output
    table = floor["table"].pk
    keys = set(AuditChain.objects.values_list("key", flat=True))
    for kind in ("round_events", "cash", "results", "chips"):
        assert f"{kind}:{table}:{today()}" in keys
    registered = set(AuditEntry.objects.filter(chain=REGISTRY).values_list("content", flat=True))
    assert registered == keys - {REGISTRY}
    assert RoundResult.objects.get().audit_chain == f"results:{table}:{today()}"


def test_a_cash_in_inserted_with_blank_chain_fields_is_a_record_outside_any_chain(floor):
    original = CashIn.objects.get(pk=floor["cash_in"].pk)
    original.pk = None
    original.audit_chain, original.audit_seq, original.audit_hash = "", None, ""
    CashIn.objects.bulk_create([original])  # an INSERT that skips the model's save
    slipped = CashIn.objects.exclude(pk=floor["cash_in"].pk).get()

    status, output = verify()

    assert status == 1
    assert f"cashdesk.cashin #{slipped.pk}" in output
    assert "a record outside any chain" in output


def test_a_deleted_head_with_its_cash_ins_edited_is_reported(floor):
    key = floor["cash_in"].audit_chain
    sql("DELETE FROM cashdesk_auditchain WHERE key = %s", key)
    sql("UPDATE cashdesk_cashin SET amount = 50000 WHERE id = %s", floor["cash_in"].pk)

    status, output = verify()

    assert status == 1
    assert f"chain {key}" in output and "the chain's head is missing" in output
    assert "a registered chain is gone" in output


def test_a_whole_chain_deleted_with_its_links_and_head_is_a_registered_chain_gone(floor):
    key = floor["cash_in"].audit_chain
    sql("DELETE FROM cashdesk_auditentry WHERE chain = %s", key)
    sql("DELETE FROM cashdesk_cashin WHERE audit_chain = %s", key)
    sql("DELETE FROM cashdesk_tip WHERE audit_chain = %s", key)
    sql("DELETE FROM cashdesk_auditchain WHERE key = %s", key)
    assert not CashIn.objects.exists() and not Tip.objects.exists()

    status, output = verify()

    assert status == 1
    assert f"({key}): a registered chain is gone" in output


def test_deleting_the_registry_entry_too_breaks_the_registry(floor):
    key = floor["cash_in"].audit_chain
    sql("DELETE FROM cashdesk_auditentry WHERE chain = %s OR content = %s", key, key)
    sql("DELETE FROM cashdesk_cashin WHERE audit_chain = %s", key)
    sql("DELETE FROM cashdesk_tip WHERE audit_chain = %s", key)
    sql("DELETE FROM cashdesk_auditchain WHERE key = %s", key)

    status, output = verify()

    assert status == 1
    assert f"chain {REGISTRY}" in output


def test_a_chip_count_total_changed_is_reported(floor):
    chips = floor["chips"]
    sql("UPDATE tables_chipcount SET total = 185000 WHERE id = %s", chips.pk)

    status, output = verify("--day", today().isoformat())

    assert status == 1
    assert f"tables.chipcount #{chips.pk}" in output
    assert "the recorded values do not match their hash" in output
    assert "the count's total is not the sum of its chips" in output


def test_a_round_result_total_changed_is_reported(floor):
    result = RoundResult.objects.get()
    sql("UPDATE cashdesk_roundresult SET players_net = -5000 WHERE id = %s", result.pk)

    status, output = verify()

    assert status == 1
    assert f"cashdesk.roundresult #{result.pk}" in output
    assert "the recorded values do not match their hash" in output
    assert "the round's totals differ from its recorded result" in output


def test_a_round_total_changed_is_reported_against_its_recorded_result(floor):
    played = Round.objects.get()
    sql("UPDATE game_round SET total_bet = 900, players_net = 0 WHERE id = %s", played.pk)

    status, output = verify("--day", today().isoformat())

    assert status == 1
    assert f"game.round #{played.pk}" in output
    assert "the round's totals differ from its recorded result" in output


def test_a_closed_round_without_its_result_is_reported(floor):
    result = RoundResult.objects.get()
    sql("DELETE FROM cashdesk_roundresult WHERE id = %s", result.pk)
    sql("DELETE FROM cashdesk_auditchain WHERE key = %s", result.audit_chain)

    status, output = verify()

    assert status == 1
    assert f"game.round #{result.round_id}" in output
    assert "a closed round without its recorded result" in output


def _count_the_drop(floor, crew):
    Table.objects.update(status=Table.Status.CLOSED)
    services.drop_enter(table=floor["table"], gaming_day=today(), amount="2000", actor=crew["duty"])


def _close_the_day(floor, crew):
    if not floor["table"].drops.exists():
        _count_the_drop(floor, crew)
    return days.gaming_day_close(gaming_day=today(), actor=crew["duty"])


def test_the_closed_day_is_sealed_and_its_report_prints_the_seal(floor, crew, client):
    close = _close_the_day(floor, crew)

    stored = GamingDayClose.objects.get(pk=close.pk)
    assert len(stored.seal) == 64 and stored.seal_key == "test"
    assert f"cash:{floor['table'].pk}:{today()}" in stored.sealed_heads
    status, output = verify("--day", today().isoformat(), "--seal", stored.seal)
    assert status == 0 and f"OK (gaming day {today()} and its seal)" in output, output
    client.force_login(crew["duty"])
    day = today().isoformat()
    page = client.get("/cash/reports/", {"first": day, "last": day})
    assert page.status_code == 200
    assert stored.seal in page.content.decode()


def test_a_rollback_to_an_earlier_consistent_state_breaks_the_seal(floor, crew):
    _count_the_drop(floor, crew)
    key = floor["cash_in"].audit_chain
    before = AuditChain.objects.values("length", "head", "mac", "key_id").get(key=key)
    last = services.tip_record(
        table=floor["table"], actor=crew["dealer"], box=1, amount="300", note="n"
    )
    _close_the_day(floor, crew)
    assert verify()[0] == 0
    # The tip and the head as they were before it: a chain that is whole again — only the
    # seal knows it had one more link.
    sql("DELETE FROM cashdesk_tip WHERE id = %s", last.pk)
    sql(
        "UPDATE cashdesk_auditchain SET length = %s, head = %s, mac = %s, key_id = %s "
        "WHERE key = %s",
        before["length"],
        before["head"],
        before["mac"],
        before["key_id"],
        key,
    )

    status, output = verify()

    assert status == 1
    assert f"chain {key}, link {last.audit_seq}" in output
    assert "a sealed link is gone" in output


def test_a_seal_kept_outside_that_differs_is_reported(floor, crew):
    close = _close_the_day(floor, crew)
    other = ("0" if close.seal[0] != "0" else "1") + close.seal[1:]

    status, output = verify("--day", today().isoformat(), "--seal", other)

    assert status == 1 and "the seal stored is not the one given" in output


def test_a_seal_edited_in_the_database_or_removed_is_reported(floor, crew):
    close = _close_the_day(floor, crew)
    sql("UPDATE cashdesk_gamingdayclose SET seal = %s WHERE id = %s", "ab" * 32, close.pk)
    status, output = verify()
    assert status == 1 and "the seal does not match the heads it sealed" in output

    sql("UPDATE cashdesk_gamingdayclose SET seal = '' WHERE id = %s", close.pk)
    status, output = verify()
    assert status == 1 and "a closed gaming day without its seal" in output


def test_a_bad_seal_argument_is_a_clear_error(db):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="64 hexadecimal"):
        call_command("audit_verify", "--day", "2026-01-01", "--seal", "1e9999")
    with pytest.raises(CommandError, match="needs --day"):
        call_command("audit_verify", "--seal", "a" * 64)


def test_rotating_secret_key_leaves_the_record_verifiable(floor):
    with override_settings(SECRET_KEY="another-secret-key-" + "y" * 40):
        assert verify()[0] == 0


def test_a_rotated_chain_key_keeps_verifying_the_links_it_made(floor, crew, settings):
    old = dict(settings.AUDIT_CHAIN_KEYS)
    settings.AUDIT_CHAIN_KEY_ID = "k2"
    settings.AUDIT_CHAIN_KEYS = {**old, "k2": "the-second-key-" + "z" * 40}
    tip = services.tip_record(
        table=floor["table"], actor=crew["dealer"], box=1, amount="300", note="n"
    )
    assert Tip.objects.get(pk=tip.pk).audit_key == "k2"
    assert Tip.objects.get(pk=floor["tips"][0].pk).audit_key == "test"
    assert verify()[0] == 0

    settings.AUDIT_CHAIN_KEYS = {"k2": settings.AUDIT_CHAIN_KEYS["k2"]}  # the old key lost
    status, output = verify()
    assert status == 1
    assert "a key this installation does not hold (id 'test')" in output


def test_whoever_lacks_the_key_cannot_forge_a_link(floor, settings):
    settings.AUDIT_CHAIN_KEYS = {"test": "a-guessed-key-" + "w" * 40}

    status, output = verify()

    assert status == 1 and "the chain's head was changed" in output


def test_a_bet_changed_in_the_rounds_state_mid_round_is_caught_by_replaying_its_events(
    cash_table, crew
):
    """The round's state (``game_round.snapshot``) is not chained: a bet raised in it while
    the round is open settles into a result that agrees with the round's totals. Replaying
    the chained events gives the real bet — ``audit_verify`` compares (the day close does
    not: the replay of a whole day is the nightly check's)."""
    desk = Desk(cash_table, crew["dealer"])
    desk.start_round({1: 100})
    desk.ok("close-bets")
    desk.cards("Th", "6d", "9c")
    played = Round.objects.get()
    state = dict(played.snapshot)
    engine = state["engine"]
    engine["bets"]["1"] = "1000.00"
    for box in engine["seats"]:
        if box["box"] == 1:
            box["bet"] = "1000.00"
            for hand in box["hands"]:
                hand["bet"] = "1000.00"
    Round.objects.filter(pk=played.pk).update(snapshot=state)  # an UPDATE behind the app
    desk.ok("stand")
    desk.cards("Ks", "Qd")
    desk.ok("confirm-settlement")
    result = RoundResult.objects.get()
    assert result.total_bet == 1000  # the forged bet was settled and recorded

    assert ledger_verify(day=today(), thorough=False).breaks == []  # the close's checks
    status, output = verify("--day", today().isoformat())

    assert status == 1
    assert f"cashdesk.roundresult #{result.pk} (game.round #{played.pk})" in output
    assert "the recorded result is not what the round's events settle" in output


def test_a_head_moved_to_another_day_is_still_checked_by_that_days_close(floor):
    key = floor["cash_in"].audit_chain
    sql("UPDATE cashdesk_tip SET amount = 999999 WHERE id = %s", floor["tips"][0].pk)
    sql("UPDATE cashdesk_auditchain SET gaming_day = '1990-01-01' WHERE key = %s", key)

    breaks = [str(b) for b in ledger_verify(day=today(), thorough=False).breaks]

    assert any(key in b and "the chain's head was changed" in b for b in breaks), breaks


def test_the_upgrade_chains_the_counts_and_results_written_before(floor):
    """What the upgrade's migrations do (floor/ledger.py, Adoption): a chip count and a round
    result written before they were chained (blank chain fields, their chains unknown) become
    links, and the record verifies again."""
    from django.apps import apps

    from floor.ledger import Adoption

    chips, result = floor["chips"], RoundResult.objects.get()
    for key in (chips.audit_chain, result.audit_chain):
        sql("DELETE FROM cashdesk_auditentry WHERE chain = %s OR content = %s", key, key)
        sql("DELETE FROM cashdesk_auditchain WHERE key = %s", key)
    sql("UPDATE tables_chipcount SET audit_chain = '', audit_seq = NULL, audit_hash = ''")
    sql("UPDATE cashdesk_roundresult SET audit_chain = '', audit_seq = NULL, audit_hash = ''")
    assert verify()[0] == 1  # the registry no longer follows, the rows are outside

    adoption = Adoption(apps)
    adoption.rows(
        "tables.ChipCount",
        ChipCount.audit_fields,
        ChipCount.audit_state_fields,
        lambda row: (f"chips:{row.table_id}:{today()}", today()),
    )
    adoption.rows(
        "cashdesk.RoundResult",
        RoundResult.audit_fields,
        (),
        lambda row: (f"results:{row.table_id}:{row.gaming_day}", row.gaming_day),
    )
    # the registry lost its entries above: a copy restored it from before their deletion
    # is what the registry check is for; here the registry is rebuilt from its own heads
    sql("DELETE FROM cashdesk_auditentry WHERE chain = %s", REGISTRY)
    sql("DELETE FROM cashdesk_auditchain WHERE key = %s", REGISTRY)
    adoption.register_heads()

    status, output = verify()
    assert status == 0, output
    assert ChipCount.objects.get(pk=chips.pk).audit_chain == f"chips:{chips.table_id}:{today()}"


def test_links_made_before_key_ids_verify_with_the_key_they_were_made_with(floor):
    """A database from before key ids: its links carry no key id and their MACs have the
    older form, made with the key derived from SECRET_KEY. They verify unchanged."""
    import hashlib
    import hmac

    from django.conf import settings

    from floor.ledger import content_of

    old_key = hashlib.sha256(b"casino.audit-chain:" + settings.SECRET_KEY.encode()).digest()

    def old_mac(*parts):
        return hmac.new(old_key, "\x1f".join(parts).encode(), hashlib.sha256).hexdigest()

    key = floor["cash_in"].audit_chain
    links = [*CashIn.objects.filter(audit_chain=key), *Tip.objects.filter(audit_chain=key)]
    links += list(AuditEntry.objects.filter(chain=key))
    links.sort(key=lambda link: getattr(link, "audit_seq", None) or link.seq)
    prev = "0" * 64
    for link in links:
        if isinstance(link, AuditEntry):
            digest = old_mac(
                key, str(link.seq), prev, link.model, str(link.object_id), link.content
            )
            AuditEntry.objects.filter(pk=link.pk).update(prev=prev, hash=digest, key_id="")
        else:
            label = type(link)._meta.label_lower
            content = content_of(link, link.audit_fields)
            digest = old_mac(key, str(link.audit_seq), prev, label, content)
            type(link).objects.filter(pk=link.pk).update(
                audit_prev=prev, audit_hash=digest, audit_key=""
            )
        prev = digest
    length = len(links)
    AuditChain.objects.filter(key=key).update(
        head=prev, length=length, key_id="", mac=old_mac("head", key, str(length), prev)
    )

    status, output = verify()

    assert status == 0, output
    sql("UPDATE cashdesk_tip SET amount = 1 WHERE id = %s", floor["tips"][0].pk)
    assert verify()[0] == 1
