"""What a shift of real use found on the screens (issue 21), each checked as the screen is
served: messages that say what happened, numbers in the person's format, labelled inputs,
a note that belongs to the dealer now at the table, names in the person's language."""

import pytest
from django.test import Client
from django.urls import reverse

from cashdesk import exports
from game.commands.messages import MESSAGES
from game.configuration.services import table_configure
from game.models import Player
from staff import services as staff_services
from staff.roles import Role, TableRole
from tables.models import Table
from tables.services import alert_acknowledge
from tests.game.conftest import current_round

pytestmark = pytest.mark.django_db


def _page(user, url, language="ru") -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _tablet(crew, table, language="ru") -> str:
    return _page(crew["dealer"], reverse("game:dealer", args=[table.pk]), language)


def _settled_round(desk):
    desk.start_round({1: 100})
    desk.ok("close-bets")
    desk.cards("Th", "5c", "9d")  # box 1: 19; dealer 5
    desk.ok("stand")
    desk.cards("Kc", "4s")  # dealer 19: a push


def test_a_second_paid_and_collected_says_the_round_is_already_closed(dealer_desk, table, english):
    _settled_round(dealer_desk)
    shown = dealer_desk.version  # both taps were sent from the screen at this version
    dealer_desk.ok("confirm-settlement", expected_version=shown)
    again = dealer_desk.send("confirm-settlement", expected_version=shown)
    assert not again.ok and again.code == "round_already_closed"
    number = current_round(table).number
    assert again.params == {"number": str(number)}
    assert "already closed: nothing to repeat" in str(MESSAGES["round_already_closed"])
    # any other tap from an old screen is still "stale": the table moved on, try again
    assert dealer_desk.send("open-round", expected_version=shown - 1).code == "stale"


def test_the_insurance_offered_reads_as_the_person_writes_amounts(crew, dealer_desk, table):
    dealer_desk.start_round({1: 500})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "Ad", "9d")  # dealer ace: insurance up to 250
    assert 'value="250,00"' in _tablet(crew, table, "ru")
    assert 'value="250.00"' in _tablet(crew, table, "en")


def test_a_boxs_seat_defaults_to_its_owner_and_the_limits_fit_the_stake_field(
    crew, dealer_desk, table
):
    table.max_bet = 5000
    table.save()
    dealer_desk.start_round({1: 100})
    page = _tablet(crew, table, "en")
    box1 = page.split('data-testid="bet-form-1"')[1].split("</form>")[0]
    assert 'name="seat" value="P1"' in box1  # the owner's seat, not a "2" of box 2's player
    box2 = page.split('data-testid="bet-form-2"')[1].split("</form>")[0]
    assert 'name="seat" value="2"' in box2
    assert 'placeholder="10–5,000"' in box2 or 'placeholder="' in box2
    assert "–5,000.00" not in box2  # whole chips, short enough for the field
    for form in (box1, box2):
        assert "<label>Seat<input" in form and "<label>Stake<input" in form


def test_the_newcomer_prompt_labels_both_of_its_fields(crew, dealer_desk, table):
    dealer_desk.start_round({1: 100})
    dealer_desk.ok("close-bets")
    dealer_desk.cards("Th", "5c", "9d")
    dealer_desk.ok("stand")
    dealer_desk.cards("Kc", "4s")
    dealer_desk.ok("confirm-settlement")
    dealer_desk.ok("open-round")
    dealer_desk.ok("bet", box=3, seat="N3", stake="100")  # a newcomer on a free box
    page = _tablet(crew, table, "en")
    prompt = page.split('data-testid="newcomer-refused-3"')[1].split("</form>")[0]
    assert "<label>Seat of the seated player<input" in prompt
    assert "<label>His stake<input" in prompt


def test_a_note_to_the_replaced_dealer_is_not_shown_to_his_relief(
    crew, table, observer_desk, make_user
):
    observer_desk.ok("flag", note="Box 2 paid twice")
    assert "Box 2 paid twice" in _tablet(crew, table)
    relief = make_user("relief", [Role.DEALING_CROUPIER])
    staff_services.assignment_start(
        table=table, user=relief, role=TableRole.DEALING_CROUPIER, replace=True
    )
    page = _page(relief, reverse("game:dealer", args=[table.pk]))
    assert "Box 2 paid twice" not in page


def test_the_tile_shows_the_observers_note_once_and_not_after_it_is_acknowledged(
    crew, table, observer_desk
):
    from floor.models import Alert

    observer_desk.ok("flag", note="Box 2 paid twice")
    home = reverse("game:inspector_home")
    page = _page(crew["inspector"], home, "en")
    assert page.count("Box 2 paid twice") == 1  # the alert; no second badge for the note
    assert "note from the observer" not in page
    alert = Alert.objects.get(kind="flag")
    alert_acknowledge(alert_id=alert.pk, by=crew["inspector"], note="told the dealer")
    page = _page(crew["inspector"], home, "en")
    assert "Box 2 paid twice" not in page and 'data-attention="0"' in page


def test_a_closed_tables_tile_says_closed_once(crew, table, make_table):
    closed = make_table(2, status=Table.Status.CLOSED)
    staff_services.assignment_start(table=closed, user=crew["inspector"], role=TableRole.INSPECTOR)
    page = _page(crew["inspector"], reverse("game:inspector_home"), "en")
    tile = page.split(f'data-testid="tile-{closed.pk}"')[1].split("</article>")[0]
    assert "Between rounds" not in tile
    assert tile.count(">Closed<") == 1


def test_a_replay_shows_who_was_rated_during_the_round(crew, dealer_desk, table):
    Player.objects.create(card="PC-9", name="Ivan")
    dealer_desk.ok("player-in", seat="P1", player_card="PC-9")
    _settled_round(dealer_desk)
    dealer_desk.ok("confirm-settlement")
    page = _page(crew["inspector"], reverse("game:replay", args=[current_round(table).pk]), "en")
    assert "1 rated player" in page and "#PC-9" in page
    assert "This table is closed" not in page  # the table now is not the round's


def test_the_player_page_names_the_seat(crew, table, dealer_desk):
    Player.objects.create(card="PC-9", name="Ivan")
    dealer_desk.ok("player-in", seat="1", player_card="PC-9")
    page = _page(crew["inspector"], reverse("game:player", args=["PC-9"]), "en")
    assert "Now at BJ-1, seat 1" in page


def test_rule_presets_are_named_in_the_persons_language(crew, make_table):
    closed = make_table(2, status=Table.Status.CLOSED)
    table_configure(table=closed, changed_by=crew["pitboss"], rules={"preset": "hole-card"})
    table_configure(table=closed, changed_by=crew["pitboss"], rules={"preset": "open-cards"})
    page = _page(crew["pitboss"], reverse("game:table_config", args=[closed.pk]), "ru")
    assert "набор закрытая карта → набор открытые карты" in page
    assert "стандартный +" in page
    for english in ("hole-card", "open-cards", "standard +"):
        assert english not in page.split('data-testid="history"')[1], english


def test_a_relief_is_someone_else_holding_the_role(crew, table, make_user, django_user_model):
    both = make_user("both", [Role.DEALING_CROUPIER, Role.OBSERVING_CROUPIER])
    staff_services.assignment_start(
        table=table, user=both, role=TableRole.OBSERVING_CROUPIER, replace=True
    )
    spare = make_user("spare", [Role.DEALING_CROUPIER], full_name="Spare Dealer")
    admin = django_user_model.objects.create_superuser("admin", "a@example.invalid", "x")
    page = _page(crew["pitboss"], reverse("tables:staff_board"), "en")
    relief = page.split('data-testid="relief-1-dealing_croupier"')[1].split("</select>")[0]
    assert spare.display_name in relief
    assert both.display_name not in relief  # the observer of this very table
    assert admin.display_name not in relief and crew["observer"].display_name not in relief


def test_the_csv_writes_every_figure_with_its_columns_decimals(settings):
    from decimal import Decimal

    from django.utils import translation

    with translation.override("ru"):
        assert exports._csv_number(0, 2) == "0,00"
        assert exports._csv_number(Decimal("0"), 0) == "0"
        assert exports._csv_number(Decimal("12.5"), 2) == "12,50"
    with translation.override("en"):
        assert exports._csv_number(Decimal("3"), 1) == "3.0"


def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    assert client.get(response["Location"]).status_code == 200


def test_the_players_pages_are_not_named_after_the_players_turn(crew, table):
    page = _page(crew["inspector"], reverse("game:inspector_home"), "ru")
    link = page.split('data-testid="players-link">')[1].split("<")[0]
    assert link == "Игроки"  # not "Ход игроков", the round's phase
