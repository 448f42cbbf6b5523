"""A past round, step by step, read-only: the same presenter and partial as the live
screens, fed with the round's state after each event of its log (never a recomputation:
every figure is the engine's, replayed from the events)."""

from __future__ import annotations

import copy

from game.live import TableRound
from game.models import LiveTable, Round
from game.presenters import table_view
from game.selectors import round_replay_steps

# What a live screen shows about the table *now* (not the round at that step), and every
# control: blanked on a replay.
_NOW_ONLY = {
    "flags": [],
    "alerts": [],
    "reservations": [],
    "reserved": set(),
    "table_open": False,
    "legal": frozenset(),
    "legal_list": "",
    "can_open_round": False,
    "can_shuffle": False,
    "awaiting": None,
    "decision": False,
    "lone_player": None,
    "last_settlement": None,
}


def step_view(round_row: Round, state: dict, version: int) -> dict:
    """The live screen's data for ``round_row`` in ``state`` (a ``TableRound`` dict)."""
    past = copy.copy(round_row)
    past.snapshot = state
    live_row = LiveTable(table=round_row.table, version=version)
    live_row.current_round = past
    live_row.current_shoe = None
    view = table_view(round_row.table, live_row)
    view.update(_NOW_ONLY)
    shoe = TableRound.from_dict(state).engine.shoe
    view["shoe"] = {
        "number": round_row.shoe.number,
        "dealt": shoe.dealt,
        "size": shoe.size,
        "left": shoe.size - shoe.dealt,
        "penetration_pct": round(100 * shoe.dealt / shoe.size) if shoe.size else 0,
        "cut_card_out": None,
        "needs_shuffle": False,
    }
    return view


def _summary(command: dict) -> dict:
    """The command's own fields for the step list (action aside)."""
    return {k: v for k, v in command.items() if k not in ("action", "occupancy_acknowledged")}


def replay_steps(round_row: Round) -> list[dict]:
    """Every step of the round: number, who, when, what, and the state after it."""
    steps = []
    for event, state in round_replay_steps(round_row):
        command = event.payload.get("command") or {}
        steps.append(
            {
                "seq": event.seq,
                "type": event.type,
                "actor": event.actor,
                "created_at": event.created_at,
                "version": event.version,
                "fields": _summary(command),
                "corrections": [
                    e for e in event.payload.get("events", []) if e.get("kind") == "correction"
                ],
                "state": state,
            }
        )
    return steps
