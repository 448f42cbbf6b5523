"""The players' pages: the inspector and the duty administrator find a player by his card
and see his rated play; a card nobody has is said on the screen."""

import re

import pytest
from django.urls import reverse

from game.models import Player
from tests.game.test_rated_play import play_split_and_double

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(dealer_desk):
    Player.objects.create(card="PC-1", name="Ivan Petrov")
    dealer_desk.ok("player-in", seat="A", player_card="PC-1")
    play_split_and_double(dealer_desk)
    return dealer_desk


@pytest.mark.parametrize("person", ["inspector", "duty"])
def test_the_player_page_shows_today_and_the_month(client, crew, rated, person):
    crew[person].preferred_language = "en"
    crew[person].save(update_fields=["preferred_language"])
    client.force_login(crew[person])
    page = client.get(reverse("game:player", kwargs={"card": "PC-1"})).content.decode()
    assert "Ivan Petrov" in page
    assert 'data-testid="rating-day-hands">2<' in page
    assert 'data-testid="rating-day-total-bet">100.00<' in page
    result = re.search(r'data-testid="rating-day-result">([^<]*)<', page).group(1)
    assert result.endswith("200.00") and result[0] in "-\u2212"  # the house lost 200
    assert "BJ-1" in page


def test_the_search_by_card_opens_the_page(client, crew, rated):
    client.force_login(crew["inspector"])
    response = client.get(reverse("game:players"), {"card": " PC-1 "})
    assert response.status_code == 302
    assert response["Location"] == reverse("game:player", kwargs={"card": "PC-1"})
    listing = client.get(reverse("game:players")).content.decode()
    assert 'data-testid="player-link-PC-1"' in listing


def test_an_unknown_card_is_said_on_the_screen(client, crew, rated):
    client.force_login(crew["duty"])
    response = client.get(reverse("game:players"), {"card": "NOBODY"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert 'data-testid="player-search-error"' in response.content.decode()
    assert client.get(reverse("game:player", kwargs={"card": "NOBODY"})).status_code == 404


@pytest.mark.parametrize("person", ["dealer", "observer", "pitboss"])
def test_croupiers_and_the_pit_boss_do_not_see_player_pages(client, crew, rated, person):
    client.force_login(crew[person])
    assert client.get(reverse("game:player", kwargs={"card": "PC-1"})).status_code == 403
