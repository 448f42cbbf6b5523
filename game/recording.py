"""What a command writes, inside its transaction: the :class:`Context` its handler works
with (the locked live row, the writes collected for one statement), the round's event,
snapshot and shoe (:func:`record`), and a round's end — the word that it closed
(``floor.signals.round_closed``), rated play, the croupier's hand-over."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from cashdesk.models import RoundResult
from floor.alerts import alert_raise
from floor.changes import table_changed
from floor.errors import Refused
from floor.ledger import AuditChain, chain_head_ensure, key_id, link_after
from floor.models import Alert
from floor.signals import round_closed
from game import players
from game.commands.commands import ParsedCommand
from game.configuration.services import house_edge
from game.models import LiveTable, Round, RoundEvent, Shoe, round_chain_of
from game.table import live
from game.table.cards import card_name
from game.writes import Writes
from staff.replacements import replacement_hand_over_due
from tables.models import Table


@dataclass
class Context:
    """What a command's handler works with, inside the command's transaction."""

    table: Table
    live_row: LiveTable
    actor: object
    role: str
    command: ParsedCommand
    now: object = None
    writes: Writes = field(default_factory=Writes)
    board: bool = False  # something besides the round changed (the publisher re-reads it)
    round_open: bool | None = None
    announced: bool = False  # the handler said itself what changed (floor.changes)

    def next_version(self) -> int:
        self.live_row.version += 1
        return self.live_row.version

    def append_event(self, event: RoundEvent) -> None:
        """Make ``event`` the next link of the table's round-event chain of the day (its
        head was read with the lock; the table's lock keeps other writers off) and add it,
        and the head's move, to this command's writes."""
        row = self.live_row
        key, day = round_chain_of(self.table.pk, event.created_at)
        if getattr(row, "chain_key", None) != key or row.chain_id is None:
            row.chain_id, row.chain_length, row.chain_head = chain_head_ensure(key, day)
            row.chain_key = key
            # The table's first command of the day also makes the chain its round results
            # will be links of (once a day: the round's close then only moves its head).
            chain_head_ensure(RoundResult.chain_key(self.table.pk, day), day)
        length, head, mac = link_after(
            event, key=key, day=day, length=row.chain_length, head=row.chain_head
        )
        row.chain_length, row.chain_head = length, head
        self.writes.insert(event)
        self.writes.update(
            AuditChain, row.chain_id, length=length, head=head, mac=mac, key_id=key_id()
        )


def current_round(ctx: Context) -> Round:
    round_row = ctx.live_row.current_round
    if round_row is None:
        raise Refused("no_round")
    return round_row


def alert_for(ctx: Context, round_row: Round, events: list[dict]) -> None:
    """A card correction or a voided round is something the inspector must see."""
    for event in events:
        if event.get("kind") in ("correction", "voided"):
            ctx.announced = True  # the alert says the table changed
        if event.get("kind") == "correction":
            alert_raise(
                table_id=ctx.table.pk,
                kind="card_corrected",
                params={
                    "round": round_row.number,
                    "old": card_name(event["old"]),
                    "new": card_name(event["new"]),
                },
                raised_by=ctx.actor,
            )
        elif event.get("kind") == "voided":
            alert_raise(
                table_id=ctx.table.pk,
                kind="round_voided",
                params={"round": round_row.number, "reason": event["reason"]},
                severity=Alert.Severity.CRITICAL,
                raised_by=ctx.actor,
            )


def record(ctx: Context, round_row: Round, command: dict, events, state) -> None:
    """Append the event, save the round's snapshot and the shoe (with the command's other
    writes, ``game.writes``); at the round's end, its result for the reports and the round
    boundary (a croupier's hand-over)."""
    version = ctx.next_version()
    round_row.events_count += 1
    ctx.append_event(
        RoundEvent(
            round=round_row,
            seq=round_row.events_count,
            type=command["action"],
            payload={"command": command, "events": events},
            actor=ctx.actor,
            version=version,
            created_at=ctx.now,
        )
    )
    round_row.table_round_set(state)
    round_row.status = state.status
    round_row.version = version
    round_row.total_bet = state.total_bet
    ended = state.status in ("closed", "voided")
    if ended:
        round_row.closed_at = ctx.now
        # A voided round's result is what was paid at once and stays paid (game.table.live).
        round_row.players_net = state.players_net
    ctx.writes.update(
        Round,
        round_row.pk,
        **{name: getattr(round_row, name) for name in ROUND_SAVED},
    )
    current_shoe = ctx.live_row.current_shoe
    shoe = current_shoe if current_shoe and current_shoe.pk == round_row.shoe_id else round_row.shoe
    shoe_state = state.engine.shoe.to_dict()
    cut_out = state.cut_card_out if state.cut_card_out and shoe.cut_card_out is None else None
    if shoe_state != shoe.state or cut_out:
        shoe.state = shoe_state
        shoe.cut_card_out = cut_out or shoe.cut_card_out
        ctx.writes.update(Shoe, shoe.pk, state=shoe.state, cut_card_out=shoe.cut_card_out)
    if ended:
        ctx.writes.run()  # the round as it ended, before its result is recorded from it
        round_ended(ctx, round_row, state)


ROUND_SAVED = (
    "events_count",
    "snapshot",
    "status",
    "version",
    "total_bet",
    "closed_at",
    "players_net",
)


def round_ended(ctx: Context, round_row: Round, state: live.TableRound) -> None:
    # The last settlement and the shift's result change; the round is no longer open —
    # said before the hand-over looks at it.
    table_changed(ctx.table.pk, board=True, round_open=False, round_number=round_row.number)
    ctx.announced = True
    if state.status == "closed":
        round_closed.send(
            sender=Round,
            round_id=round_row.pk,
            table_id=ctx.table.pk,
            closed_at=round_row.closed_at,
            hands=sum(1 for box in state.engine.seats if box.bet > 0),
            total_bet=round_row.total_bet,
            players_net=round_row.players_net,
            theoretical_win=round_row.total_bet * (house_edge(ctx.table.rules) or 0),
            winning_boxes=[box.number for box in state.engine.seats if box.net > 0],
            voided=False,
        )
        players.rated_round_record(
            live_row=ctx.live_row, state=state, edge=house_edge(ctx.table.rules)
        )
    elif round_row.players_net:
        # Voided after a payment made at once: the paid chips left the tray and stay with
        # the player, so the tray check and the report count them (not as a round played).
        round_closed.send(
            sender=Round,
            round_id=round_row.pk,
            table_id=ctx.table.pk,
            closed_at=round_row.closed_at,
            hands=0,
            total_bet=Decimal(0),
            players_net=round_row.players_net,
            theoretical_win=Decimal(0),
            winning_boxes=[],
            voided=True,
        )
    replacement_hand_over_due(table=ctx.table)
