"""The commands outside a round: a shuffle, a new round, the simulated shoe's next card,
the observer's notes and tokens, rated play. Each is a handler of a :class:`Context`, named
by the dispatch table (``game.commands.dispatch.COMMANDS``) and called by
``game.services.command_submit`` under the table's lock; its fields were read by its form
(``game.commands.forms``)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.utils import timezone

from floor.alerts import alert_raise
from floor.errors import Refused
from floor.parsing import whole_number
from game import players
from game.configuration.services import table_rules
from game.engine import Card, EngineError, ShoeState
from game.models import ErrorFlag, Round, RoundEvent, Shoe
from game.recording import Context, current_round, record
from game.table import live
from game.table.cuts import cut_limits
from game.table.shoes import shoe_before_opening, shoe_used
from staff import seats
from tables.models import Table
from tables.services import reservation_place, reservation_release, reservation_renew

# -- commands outside a round --------------------------------------------------------------


def open_round(ctx: Context) -> None:
    table, live_row = ctx.table, ctx.live_row
    if table.status != Table.Status.OPEN:
        raise Refused("table_not_open")
    current = live_row.current_round
    if current is not None and current.is_open:
        raise Refused("round_in_progress")
    crew = seats.crew_refusal(table)  # three different people in the three seats
    if crew is not None:
        raise crew
    shoe = live_row.current_shoe
    if shoe is None or shoe.cut_card_out is not None or shoe_before_opening(shoe, table):
        raise Refused("shuffle_needed")
    rules = table_rules(table)
    if rules.shuffle_every_round and shoe_used(shoe):
        # docs/sources.md#shuffle-when: «Перед началом игры крупье перетасовывает все карты».
        raise Refused("shuffle_every_round")
    opening = {
        "rules": rules.to_json(),
        "limits": {"min": str(table.min_bet), "max": str(table.max_bet)},
        "boxes": table.box_numbers,
        "shoe": shoe.state,
        **_last_round_players(current, table),
    }
    state = live.TableRound(opening)
    version = ctx.next_version()
    round_row = Round.objects.create(
        table=table,
        shoe=shoe,
        number=_next_number(Round, table),
        snapshot=state.to_dict(),
        version=version,
        opened_by=ctx.actor,
    )
    ctx.append_event(
        RoundEvent(
            round=round_row,
            seq=1,
            type="open-round",
            payload={"opening": opening},
            actor=ctx.actor,
            version=version,
            created_at=ctx.now,
        )
    )
    live_row.current_round = round_row
    ctx.round_open = True


def _last_round_players(last_round: Round | None, table: Table) -> dict:
    """What a new round knows of the table's last one since it opened: its players (seat
    labels: a newcomer takes a free box only with their consent,
    docs/sources.md#newcomer-free-box) and everyone told the table's limits so far
    (docs/sources.md#limits-told). Read from the row the command locked: no statement."""
    if last_round is None or (table.opened_at and last_round.opened_at < table.opened_at):
        return {"seated": [], "informed": []}
    state = live.TableRound.from_dict(last_round.snapshot)
    seated = sorted({share.seat for shares in state.shares.values() for share in shares})
    return {"seated": seated, "informed": state.informed_after()}


def _seated(last_round: Round | None, table: Table) -> list[str]:
    """The players (seat labels) of the table's last round since it opened."""
    return _last_round_players(last_round, table)["seated"]


def _next_number(model, table) -> int:
    """The next per-table sequence number of a shoe or a round (callers hold the table's
    live row locked, so two commands cannot take the same number)."""
    last = model.objects.filter(table=table).order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


def deal_next(ctx: Context) -> None:
    """Simulated shoe: the server takes the next card and records it as any card entry."""
    if ctx.table.card_entry != Table.CardEntry.SIMULATED:
        raise Refused("simulated_only")
    round_row = current_round(ctx)
    state = live.TableRound.from_dict(round_row.snapshot)
    shoe = state.engine.shoe
    if not shoe.virtual:
        raise Refused("simulated_only")
    if (
        shoe.cut_card_out
        and state.cut_card_out is None
        and "cut-card-out" in state.legal_commands()
    ):
        command = {"action": "cut-card-out"}
        record(ctx, round_row, command, state.apply(command), state)
    command = {"action": "card", "card": shoe.next_card().code, "simulated": 1}
    record(ctx, round_row, command, state.apply(command), state)


def shuffle(ctx: Context) -> None:
    table, live_row, fields = ctx.table, ctx.live_row, ctx.command.fields
    if table.status != Table.Status.OPEN:
        raise Refused("table_not_open")  # a shoe belongs to an opening (shoe_before_opening)
    current = live_row.current_round
    if current is not None and current.is_open:
        raise Refused("round_in_progress")
    rules = table_rules(table)
    reason = fields.get("reason") or Shoe.Reason.NEW_SHOE
    if reason not in Shoe.Reason.values:
        raise Refused("bad_message")
    previous = live_row.current_shoe
    if reason == Shoe.Reason.PLAYER_REQUEST:
        _player_reshuffle_allowed(table, previous, current)
    low, high = cut_limits(rules.decks, rules.cut_card)
    behind = fields.get("cards_behind_cut")
    if behind is None or not low <= behind <= high:
        raise Refused("bad_cut", low=low, high=high)
    cut_by = fields.get("cut_by_box")
    if cut_by is not None and cut_by not in table.box_numbers:
        raise Refused("unknown_box", box=cut_by)
    entitled = None
    if previous is not None and previous.cut_card_out:
        entitled = previous.cut_card_out.get("box")  # None: the dealer chooses who cuts
    # 000 (docs/sources.md#who-cuts): the entitled player cuts, or passes the right on.
    passed = bool(fields.get("cut_passed")) and entitled is not None
    passed = passed and cut_by is not None and cut_by != entitled
    if entitled is not None and cut_by is not None and cut_by != entitled and not passed:
        raise Refused("cut_not_entitled", entitled=entitled, box=cut_by)
    simulated = table.card_entry == Table.CardEntry.SIMULATED
    seed = secrets.token_hex(8) if simulated else ""
    if simulated:
        engine_shoe = ShoeState.shuffled(rules.decks, seed)
        engine_shoe.cut = engine_shoe.size - behind
    else:
        engine_shoe = ShoeState(rules.decks)
    burn = ""
    if rules.burns_first_card:  # docs/sources.md#burn-card (rule key burn_card)
        burn = _burn(engine_shoe, fields, simulated)
    live_row.current_shoe = Shoe.objects.create(
        table=table,
        number=_next_number(Shoe, table),
        decks=rules.decks,
        simulated=simulated,
        seed=seed,
        state=engine_shoe.to_dict(),
        reason=reason,
        shuffled_by=ctx.actor,
        cut_entitled_box=entitled,
        cut_by_box=cut_by,
        cut_passed=passed,
        cards_behind_cut=behind,
        burn_card=burn,
    )
    ctx.next_version()


def _player_reshuffle_allowed(table: Table, previous: Shoe | None, last_round: Round | None):
    """docs/sources.md#re-shuffle-on-request: at a player's request the dealer repeats the
    shuffle he has just made — before the first round of that shoe (``reshuffle_not_just_
    shuffled`` otherwise) — and only once (``reshuffle_limit``); a player alone at the table
    (one seat label in the table's last round since it opened) may ask for a shuffle at any
    moment between rounds. A table where nobody has played yet has no lone player."""
    players = len(_seated(last_round, table))
    if players == 1:
        return
    if previous is None or shoe_before_opening(previous, table):
        raise Refused("reshuffle_not_just_shuffled", players=players)
    if last_round is not None and last_round.shoe_id == previous.pk:  # played on
        raise Refused("reshuffle_not_just_shuffled", players=players)
    if previous.reason == Shoe.Reason.PLAYER_REQUEST:
        raise Refused("reshuffle_limit", players=players)


def _burn(engine_shoe: ShoeState, fields: dict, simulated: bool) -> str:
    """The first card after the shuffle is burnt where the rule set says so (``burn_card``:
    with a hole card, always, or never; docs/sources.md#burn-card)."""
    if simulated:
        return engine_shoe.draw().code
    try:
        card = Card.parse(str(fields.get("burn_card") or ""))
    except EngineError:
        raise Refused("burn_card_required")
    engine_shoe.take(card)
    return card.code


# -- notes and reservations: they change what the screens show, never the round ----------


def flag(ctx: Context) -> None:
    note = str(ctx.command.fields.get("note") or "").strip()
    if not note:
        raise Refused("note_required")
    ErrorFlag.objects.create(
        table=ctx.table, round=ctx.live_row.current_round, raised_by=ctx.actor, note=note[:1000]
    )
    alert_raise(
        table_id=ctx.table.pk, kind="flag", params={"note": note[:1000]}, raised_by=ctx.actor
    )


def flag_seen(ctx: Context) -> None:
    flag = ErrorFlag.objects.filter(
        pk=ctx.command.fields.get("flag"),
        table=ctx.table,
        seen_at__isnull=True,
    ).first()
    if flag is None:
        raise Refused("bad_message")
    flag.seen_by = ctx.actor
    flag.seen_at = timezone.now()
    flag.save(update_fields=["seen_by", "seen_at"])
    ctx.board = True


def reserve(ctx: Context) -> None:
    """The observing croupier puts a token on a box (a player paused)."""
    box = ctx.command.fields["box"]
    current = ctx.live_row.current_round
    if current is not None and current.is_open:
        state = live.TableRound.from_dict(current.snapshot)
        if box in state.shares or box in state.engine.bets:
            raise Refused("box_in_play", box=box)
    reservation_place(
        table=ctx.table,
        box=box,
        seat=str(ctx.command.fields.get("seat") or ""),
        placed_by=ctx.actor,
        duration=_reservation_minutes(ctx),
        played_after=_box_played_after(ctx.table, box),
    )


def _reservation_minutes(ctx: Context) -> timedelta | None:
    """The time a token is put for: the minutes chosen (1 to the table's time,
    docs/sources.md#box-reservation: "no more than twenty minutes"), or None — the
    table's time."""
    minutes = ctx.command.fields.get("minutes")
    if minutes in (None, ""):
        return None
    most = ctx.table.reservation_max_minutes
    chosen = whole_number(minutes, low=1, high=most)
    if chosen is None:
        raise Refused("bad_reservation_time", most=most)
    return timedelta(minutes=chosen)


def _box_played_after(table: Table, box: int):
    """Whether ``box`` had a stake in a round opened after a moment: the player was back
    (docs/sources.md#box-reservation: a token holds a box twenty minutes per absence). One
    statement, asked only where a token of the box ended by its time."""

    def played_after(moment) -> bool:
        rounds = Round.objects.filter(table=table, opened_at__gt=moment)
        return rounds.filter(**{"snapshot__shares__has_key": str(box)}).exists()

    return played_after


def renew_reservation(ctx: Context) -> None:
    """The inspector holds a box longer than one absence of its player allows, with a note
    (docs/sources.md#box-reservation)."""
    box = ctx.command.fields["box"]
    if box not in ctx.table.box_numbers:
        raise Refused("unknown_box", box=box)
    reservation_renew(
        table=ctx.table,
        box=box,
        renewed_by=ctx.actor,
        note=str(ctx.command.fields.get("note") or "")[:500],
        duration=_reservation_minutes(ctx),
        played_after=_box_played_after(ctx.table, box),
    )


def release(ctx: Context) -> None:
    """The player is back: the observing croupier takes the token off."""
    reservation_release(table=ctx.table, box=ctx.command.fields["box"], released_by=ctx.actor)
    ctx.announced = True


# -- rated play: a player seated and leaving (game.players) --------------------------------


def player_in(ctx: Context) -> None:
    fields = ctx.command.fields
    players.rating_session_open(
        live_row=ctx.live_row,
        actor=ctx.actor,
        seat=fields.get("seat"),
        card=fields.get("player_card"),
    )
    ctx.board = True


def player_out(ctx: Context) -> None:
    fields = ctx.command.fields
    players.rating_session_close(
        live_row=ctx.live_row,
        actor=ctx.actor,
        session=fields.get("session"),
        chips_taken=fields.get("chips_taken"),
    )
    ctx.board = True
