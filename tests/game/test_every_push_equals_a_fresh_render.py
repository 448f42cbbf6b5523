"""The invariant of the realtime kernel (Zulip's ``verify_action``): for every command and
every money, staff or alert change, on every screen kind, what was pushed applied to the
screen's previous state — as the one client swaps it in by id — is exactly what a fresh full
render of that screen is. A scripted round plays every command kind at a table of each rule
preset (standard, hole-card, open-cards); the table screens (in two languages), the tile and
the duty floor watch it all.

The pushes are captured at the bus (``feed.bus.publish``) as every worker would get them,
rendered as a worker renders them — with its memory of the boxes it rendered before
(``game.templatetags.live.box_part``); a fresh render reads the database with the board cache
and the boxes' renders forgotten."""

import pytest

from cashdesk import services as cash
from cashdesk.models import CashIn
from cashdesk.publish import duty_context, duty_sequence, render_duty
from feed import bus, presence
from floor.alerts import alert_raise
from floor.changes import table_topic
from floor.models import Alert
from game.models import RatingSession
from game.screens.publish import render_fragment, table_view
from game.selectors import boards_forget
from game.table.live import TableRound
from game.templatetags.live import box_cache_clear
from staff import replacements
from staff.roles import Role, TableRole
from tables.services import alert_acknowledge
from tests.desk import Desk, current_round
from tests.screens_dom import apply, canonical, parse

pytestmark = pytest.mark.django_db(transaction=True)

TABLE_PAIRS = ("live:en", "live:ru", "tile:en")
DUTY_PAIR = "duty:en"
# Cards in the order they leave the shoe: a pair of eights on box 1, 5 6 on box 2, a
# Blackjack on box 3 and an ace up for the dealer where the rules have insurance; then
# middling cards until the round ends.
DEAL = ["8s", "5h", "Ah", "Ad", "8c", "6h", "Kd", "7c", "3d", "9h", "Tc", "2s", "Ts", "9s"]
FILL = ["4c", "Qh", "3c", "Js", "2d", "Kc", "5s", "6c", "Jd", "7h"] * 3
# Every command kind a manual table has (deal-next: the simulated table below).
ROUND_KINDS = {
    "shuffle",
    "open-round",
    "bet",
    "remove-share",
    "close-bets",
    "card",
    "correct-card",
    "double",
    "split",
    "stand",
    "confirm-settlement",
    "cut-card-out",
    "void",
    "newcomer-refused",
    "flag",
    "flag-seen",
    "reserve",
    "release",
    "player-in",
    "player-out",
}
INSURANCE_KINDS = {"insure", "even-money", "insurance-closed"}
EXPECTED = {
    "standard": ROUND_KINDS | INSURANCE_KINDS,
    "hole-card": ROUND_KINDS | {"insure", "insurance-closed"},
    "open-cards": ROUND_KINDS,
}


class Screens:
    """Every screen kind of one table as the client keeps it, checked after each change."""

    def __init__(self, table, monkeypatch):
        self.table = table
        self.topic = table_topic(table.pk)
        for watched in TABLE_PAIRS:
            presence.add(self.topic, watched)
        presence.add("duty", DUTY_PAIR)
        self.pushed = []
        monkeypatch.setattr(bus, "publish", self.pushed.extend)
        self.pages = {p: parse(self.fresh(p)) for p in (*TABLE_PAIRS, DUTY_PAIR)}
        self.kinds: set[str] = set()
        self.checked = 0

    def fresh(self, watched: str) -> str:
        """The screen's full state, read now, with nothing cached."""
        boards_forget()
        box_cache_clear()
        fragment, language = watched.split(":")
        if fragment == "duty":
            return render_duty(duty_context(seq=duty_sequence()), language)
        return render_fragment(table_view(self.table.pk), fragment, language)

    def check(self, what: str) -> None:
        """Apply what was pushed since the last check; every screen equals its fresh render."""
        pushed, self.pushed[:] = list(self.pushed), []
        for message in pushed:
            if message.seq is None:
                continue  # a revocation: no state
            pairs = TABLE_PAIRS if message.topic == self.topic else (DUTY_PAIR,)
            for watched in pairs:
                assert watched in message.fragments, f"{what}: {message.topic} lacks {watched}"
                missing = apply(self.pages[watched], message.fragments[watched])
                assert not missing, f"{what}: {watched} pushed {missing}, not on the screen"
        for watched, page in self.pages.items():
            assert canonical(page) == canonical(self.fresh(watched)), f"{what}: {watched}"
        self.checked += 1

    def command(self, desk, action, **fields):
        outcome = desk.send(action, **fields)
        assert outcome.ok, (action, fields, outcome)
        self.kinds.add(action)
        self.check(action)
        return outcome


def state_of(table) -> TableRound:
    return TableRound.from_dict(current_round(table).snapshot)


def play_out(screens, desk, table, cards) -> None:
    """The round from its first card to its settlement, every decision the kind not yet
    played when there is a choice; the dealer's first drawn card corrected."""
    corrected = False
    while True:
        state = state_of(table)
        legal = state.legal_commands()
        moves = {m.action: m for m in state.engine.legal_moves()}
        if "insure" in moves and "insure" not in screens.kinds:
            move = moves["insure"]
            screens.command(desk, "insure", box=move.box, amount=str(move.high))
        elif "even-money" in moves:
            screens.command(desk, "even-money", box=moves["even-money"].box)
        elif "insurance-closed" in legal:
            screens.command(desk, "insurance-closed")
        elif "split" in legal and "split" not in screens.kinds:
            screens.command(desk, "split")
        elif "double" in legal and "double" not in screens.kinds:
            screens.command(desk, "double")
        elif "stand" in legal:
            screens.command(desk, "stand")
        elif "card" in legal:
            screens.command(desk, "card", card=cards.pop(0))
            if not corrected and state.status == "dealer":  # the dealer's draw, mistyped
                screens.command(desk, "correct-card", card=cards.pop(0))
                corrected = True
        elif "confirm-settlement" in legal:
            screens.command(desk, "confirm-settlement")
            return
        else:
            raise AssertionError(f"stuck: {sorted(legal)} in {state.status}")


def shuffle(screens, desk, table, **fields):
    hole = table.rules.get("preset") == "hole-card"
    fields.setdefault("cards_behind_cut", 40 if hole else 80)
    if hole:
        fields.setdefault("burn_card", "2c")
    screens.command(desk, "shuffle", reason=fields.pop("reason", "new_shoe"), **fields)


def money_staff_and_alerts(screens, table, crew, spare):
    """Everything around the rounds the screens show: money, alerts, staff."""
    dealer, observer, inspector = crew["dealer"], crew["observer"], crew["inspector"]
    cash.cash_in_record(table=table, actor=dealer, notes={"100": 3}, chips={"100": 3})
    screens.check("cash-in")
    entry = CashIn.objects.filter(table=table).latest("pk")
    cash.cash_in_recount(cash_in=entry, actor=observer, notes={"100": 3})
    screens.check("recount")
    cash.tip_record(table=table, actor=dealer, box=1, amount="5", note="a winner's tip")
    screens.check("tip")
    alert = alert_raise(table_id=table.pk, kind="table_idle", params={"minutes": 20})
    screens.check("alert raised")
    alert_acknowledge(alert_id=alert.pk, by=inspector, note="Seen to")
    screens.check("alert acknowledged")
    request = replacements.replacement_request(
        table=table, role=TableRole.OBSERVING_CROUPIER, reason="Tired", requested_by=inspector
    )
    screens.check("replacement requested")
    replacements.replacement_approve(
        request_id=request.pk, decided_by=crew["duty"], replacement=spare
    )
    screens.check("replacement approved and handed over")
    assert Alert.objects.filter(table=table).exists()


@pytest.fixture(params=sorted(EXPECTED))
def preset(request):
    return request.param


@pytest.fixture
def table(make_table, preset):
    """The crew's table, at the rule preset under test."""
    return make_table(1, rules={"preset": preset}, chip_denominations=["5", "25", "100", "500"])


def test_every_push_applied_to_the_screen_equals_a_fresh_render(
    preset, table, make_user, crew, monkeypatch
):
    spare = make_user("spare", [Role.OBSERVING_CROUPIER])
    dealer, observer, inspector = (
        Desk(table, crew[p]) for p in ("dealer", "observer", "inspector")
    )
    screens = Screens(table, monkeypatch)

    # around the round: players, notes, tokens
    screens.command(dealer, "player-in", seat="P1")
    screens.command(observer, "reserve", box=6, seat="P6")
    screens.command(observer, "release", box=6)
    screens.command(observer, "flag", note="Box 2 looked short")
    flag = table.flags.filter(seen_at__isnull=True).latest("pk")
    screens.command(dealer, "flag-seen", flag=flag.pk)

    # round 1: shares, insurance, a split, a double, a correction, the settlement
    shuffle(screens, dealer, table)
    screens.command(dealer, "open-round")
    screens.command(dealer, "bet", box=1, seat="P1", stake="100")
    screens.command(dealer, "bet", box=1, seat="P2", stake="50")
    screens.command(dealer, "remove-share", box=1, seat="P2")
    screens.command(dealer, "bet", box=2, seat="P3", stake="200")
    screens.command(dealer, "bet", box=3, seat="P4", stake="100")
    screens.command(dealer, "close-bets")
    play_out(screens, dealer, table, DEAL + FILL)

    # round 2: a newcomer on a free box, refused by a seated player who bets there himself
    screens.command(dealer, "open-round")
    screens.command(dealer, "bet", box=1, seat="P1", stake="100")
    screens.command(dealer, "bet", box=4, seat="New", stake="25")
    screens.command(dealer, "newcomer-refused", box=4, seat="P3", stake="25")
    screens.command(dealer, "close-bets")
    play_out(screens, dealer, table, list(FILL))

    # round 3: the cut card comes out early, then the inspector voids the round
    screens.command(dealer, "open-round")
    screens.command(dealer, "bet", box=1, seat="P1", stake="100")
    screens.command(dealer, "close-bets")
    screens.command(dealer, "card", card="Tc")
    screens.command(dealer, "cut-card-out", confirmed="1")
    screens.command(inspector, "void", reason="Misdeal")
    shuffle(screens, dealer, table, reason="cut_card")

    money_staff_and_alerts(screens, table, crew, spare)
    session = RatingSession.objects.filter(table=table, ended_at__isnull=True).latest("pk")
    screens.command(dealer, "player-out", session=session.pk, chips_taken="150")

    missed = EXPECTED[preset] - screens.kinds
    assert not missed, f"the script never played {sorted(missed)}"
    assert screens.checked > 40


def test_a_simulated_tables_deal_next_pushes_what_a_fresh_render_shows(staffed_table, monkeypatch):
    table, desks = staffed_table(12, card_entry="simulated", chip_denominations=["100"])
    dealer = desks["dealer"]
    screens = Screens(table, monkeypatch)
    shuffle(screens, dealer, table)
    screens.command(dealer, "open-round")
    screens.command(dealer, "bet", box=1, seat="P1", stake="100")
    screens.command(dealer, "close-bets")
    for _ in range(40):  # the server deals; the player stands on whatever he gets
        legal = state_of(table).legal_commands()
        if "confirm-settlement" in legal:
            break
        if "insurance-closed" in legal:
            screens.command(dealer, "insurance-closed")
        elif "stand" in legal:
            screens.command(dealer, "stand")
        else:
            screens.command(dealer, "deal-next")
    screens.command(dealer, "confirm-settlement")
    assert "deal-next" in screens.kinds
