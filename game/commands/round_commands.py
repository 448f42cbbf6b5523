"""The round's commands (bet, card, stand, ..., void) on the write path: the checks the table
layer cannot make alone — a reserved box, the table's chips, the croupier's words before bets
close, an early cut card — then the table layer and the engine decide
(``game.table.live.TableRound.apply``) and the command is recorded. Called by
``game.services.command_submit`` under the table's lock, through the dispatch table."""

from __future__ import annotations

from decimal import Decimal

from floor.errors import Refused
from game.recording import Context, alert_for, current_round, record
from game.table import live
from game.table.cuts import cut_card_early
from tables import chips
from tables.models import Table
from tables.selectors import reserved_boxes


def round_command(ctx: Context) -> None:
    """A command on the current round (bet, card, stand, ..., void): the table layer and the
    engine decide."""
    round_row = current_round(ctx)
    action = ctx.command.action
    simulated = ctx.table.card_entry == Table.CardEntry.SIMULATED
    if action in ("card", "correct-card") and simulated:
        raise Refused("manual_only")
    fields = ctx.command.fields
    state = live.TableRound.from_dict(round_row.snapshot)
    if action == "bet" and fields["box"] in reserved_boxes(table=ctx.table):
        raise Refused("box_reserved", box=fields["box"])
    if action in ("bet", "newcomer-refused"):
        _stake_in_chips(ctx.table, fields)
    if action == "cut-card-out" and not fields.get("confirmed"):
        _cut_card_not_early(ctx.live_row.current_shoe, state)
    if action == "close-bets":
        _close_bets_checks(ctx.table, state, fields)
    command = {"action": action, **fields}
    events = state.apply(command)
    record(ctx, round_row, command, events, state)
    if action in ("correct-card", "void"):
        alert_for(ctx, round_row, events)


def _close_bets_checks(table: Table, state: live.TableRound, fields: dict) -> None:
    """What "bets are placed" needs first: a lone player's choice, the seated players'
    consent to a newcomer. Each is kept in the event only where it applied."""
    _lone_player_choice(table, state, fields)
    _limits_told(state, fields)
    # docs/sources.md#newcomer-free-box: the seated players' consent, recorded with close-bets
    newcomers = state.newcomers()
    if not newcomers:
        fields.pop("newcomer_consent", None)
    elif fields.get("newcomer_consent") != "agreed":
        raise Refused(
            "newcomer_free_box",
            seats=", ".join(f"{n['seat']} ({n['box']})" for n in newcomers),
        )


def _limits_told(state: live.TableRound, fields: dict) -> None:
    """docs/sources.md#limits-told: every player is told the table's minimum and maximum
    bet. A player new at the table since it opened has his first stake on a box: bets close
    only once the croupier says he told him (``limits_announced: told``; else
    ``limits_not_announced``), and the event names who was told (``limits_told_to``)."""
    told = fields.pop("limits_announced", "")
    fields.pop("limits_told_to", None)  # the server says who was told
    seats = state.uninformed()
    if not seats:
        return
    if told != "told":
        limits = state.opening.get("limits") or {}
        raise Refused(
            "limits_not_announced",
            seats=", ".join(seats),
            min=limits.get("min", ""),
            max=limits.get("max", ""),
        )
    fields["limits_told_to"] = ", ".join(seats)


def _lone_player_choice(table: Table, state: live.TableRound, fields: dict) -> None:
    """docs/sources.md#lone-player-bets-every-box: a player alone at the table while boxes
    are free wants the table to himself — then he bets on every box (``lone_player:
    alone`` is refused, ``lone_player_every_box``, while a free box has no stake of his) —
    or he plays his boxes and the free ones stay open to other players (``lone_player:
    shared``, recorded in the event with the free boxes). Neither said: refused
    (``lone_player_free_boxes``). The reserved boxes are read only when one player leaves
    boxes free: a table of several players costs no statement."""
    choice = fields.pop("lone_player", "")
    fields.pop("free_boxes", None)  # the server says which boxes stayed free
    if state.lone_player() is None:
        return
    lone = state.lone_player(reserved_boxes(table=table))
    if lone is None:
        return
    if choice == "alone":
        raise Refused("lone_player_every_box", seat=lone["seat"], boxes=lone["boxes"])
    if choice != "shared":
        raise Refused("lone_player_free_boxes", seat=lone["seat"], boxes=lone["boxes"])
    fields["lone_player"] = "shared"
    fields["free_boxes"] = lone["boxes"]


def _stake_in_chips(table: Table, fields: dict) -> None:
    """A stake (read by the command's form) is chips on the box: over the table's maximum it is
    refused first, before any other arithmetic; then an amount the table's chips cannot
    make (a 150.50 where the smallest chip is 50), counted per denomination. A table without
    a chip set takes any amount."""
    stake = Decimal(fields["stake"])
    if stake > table.max_bet:
        raise Refused("bet_over_maximum", box=fields["box"], amount=stake, max=table.max_bet)
    if not chips.payable(stake, table.chip_denominations):
        chip_set = ",".join(
            str(d) for d in reversed(chips.denominations_of(table.chip_denominations))
        )
        raise Refused("stake_not_in_chips", amount=str(stake), chips=chip_set)


def _cut_card_not_early(shoe, state: live.TableRound) -> None:
    """ "The cut card came out" long before the place it was put at asks for a confirmation
    (``confirmed``): a slip of the finger would end the shoe."""
    engine_shoe = state.engine.shoe
    behind = shoe.cards_behind_cut if shoe is not None else None
    dealt = engine_shoe.dealt + state.engine.cards_face_down  # face down: out, not entered
    if cut_card_early(dealt=dealt, size=engine_shoe.size, behind=behind):
        raise Refused(
            "cut_card_early",
            dealt=dealt,
            size=engine_shoe.size,
            pct=round(100 * dealt / engine_shoe.size),
        )
