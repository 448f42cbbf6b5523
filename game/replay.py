"""A past round, step by step, read-only: the same view and partial as the live screens,
fed with the round's state after each event of its log (never a recomputation: every
figure is the engine's, replayed from the events). Rendering one step replays the log once,
up to that step: O(events) whatever the step."""

from __future__ import annotations

from types import SimpleNamespace

from game.configuration import table_rules
from game.live import TableRound
from game.models import Round
from game.presenters import TableSnapshot, screen_view
from game.selectors import round_replay_steps

# What a live screen shows about the table *now* (not the round at that step), and every
# control: blanked on a replay.
_NOW_ONLY = {
    "legal": frozenset(),
    "legal_list": "",
    "table_open": False,
    "can_open_round": False,
    "can_shuffle": False,
    "awaiting": None,
    "decision": False,
    "lone_player": None,
}
_NO_BOARD = {
    "staff": {},
    "flags": [],
    "alerts": [],
    "reservations": [],
    "last_settlement": None,
    "dashboard": {},
}


def step_view(round_row: Round, state: TableRound, version: int) -> dict:
    """The live screen's data for ``round_row`` in ``state``."""
    past = SimpleNamespace(number=round_row.number, pk=round_row.pk, snapshot=state.to_dict())
    snapshot = TableSnapshot(
        table=round_row.table,
        rules=table_rules(round_row.table),
        version=version,
        seq=0,
        round=past,
        board=_NO_BOARD,
    )
    view = screen_view(snapshot, now_iso="")
    view.update(_NOW_ONLY)
    shoe = state.engine.shoe
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


def replay_steps(round_row: Round):
    """Every step of the round (number, who, when, what) and a function giving the round's
    state after step ``i`` (0-based)."""
    events, state_after = round_replay_steps(round_row)
    steps = [
        {
            "seq": event.seq,
            "type": event.type,
            "actor": event.actor,
            "created_at": event.created_at,
            "version": event.version,
            "fields": _summary(event.payload.get("command") or {}),
            "corrections": [
                e for e in event.payload.get("events", []) if e.get("kind") == "correction"
            ],
        }
        for event in events
    ]
    return steps, state_after
