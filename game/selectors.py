"""Read paths of the live table."""

from game.live import TableRound
from game.models import Round


def round_events(round_row: Round):
    return round_row.events.select_related("actor").order_by("seq")


def round_replay(round_row: Round) -> TableRound:
    """Rebuild a round from its event log alone (the opening event, then each command)."""
    events = list(round_events(round_row))
    opening = events[0].payload["opening"]
    return TableRound.replay(opening, [event.payload["command"] for event in events[1:]])


def round_replay_steps(round_row: Round):
    """Each event with the round's state after it: for the step-by-step replay."""
    events = list(round_events(round_row))
    state = TableRound(events[0].payload["opening"])
    yield events[0], state.to_dict()
    for event in events[1:]:
        state.apply(event.payload["command"])
        yield event, state.to_dict()
