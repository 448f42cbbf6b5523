"""Players and rated play for the inspector and the duty administrator: who played today,
a player by his card, and his page — today, this month, per table (game.players)."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from game.players import CARD_MAX_LENGTH, player_by_card, player_page, players_today
from staff.access import permission_required


@permission_required("game.players")
def players(request):
    """The players rated this gaming day, and a search by player card (an unknown card is
    said on the screen, nothing else happens)."""
    typed = request.GET.get("card", "")
    error = ""
    if "card" in request.GET:
        player = player_by_card(typed)
        if player is not None:
            return redirect("game:player", card=player.card)
        error = _("No player has the card “%(card)s”.") % {"card": typed[:CARD_MAX_LENGTH]}
    status = 400 if error else 200
    return render(
        request,
        "game/players.html",
        {"rows": players_today(), "typed": typed[:CARD_MAX_LENGTH], "error": error},
        status=status,
    )


@permission_required("game.players")
def player(request, card):
    """A player's page: today, this month and per table, and today's sessions."""
    found = player_by_card(card)
    if found is None:
        raise Http404(_("No such player."))
    return render(request, "game/player.html", player_page(player=found))
