"""Scenarios: the JSON the ``play`` command reads, played through a ``RoundState``."""

from __future__ import annotations

from .actions import CLOSE_BETS, Bet, parse_action, to_amount
from .errors import EngineError
from .round import Limits, RoundState
from .rules import Rules


class ScenarioError(EngineError):
    """An illegal scenario; ``step`` is the index of the script item, or None."""

    code = "bad_scenario"

    def __init__(self, error: EngineError, step: int | None):
        super().__init__(error.message, code=error.code, **error.params)
        self.step = step


def play(scenario: dict, events: list | None = None) -> RoundState:
    """Play a scenario ``{"rules", "limits"?, "bets", "script"}``; raise ``ScenarioError``.

    ``events``: a list that receives every event of the round, in order (also those before a
    refused step)."""
    log = events if events is not None else []
    if not isinstance(scenario, dict):
        raise ScenarioError(EngineError("A scenario is a JSON object", code="bad_scenario"), None)
    unknown = sorted(set(scenario) - {"rules", "limits", "bets", "script", "boxes"})
    if unknown:
        raise ScenarioError(
            EngineError(f"Unknown scenario keys: {', '.join(unknown)}", code="bad_scenario"), None
        )
    try:
        rules = Rules.from_json(scenario.get("rules", "standard"))
        limits = Limits.from_dict(scenario.get("limits"))
        boxes = scenario.get("boxes", range(1, 8))
        r = RoundState(rules, limits, boxes)
        bets = scenario.get("bets", {})
        if not isinstance(bets, dict):
            raise EngineError('bets must be an object like {"1": 100}', code="bad_scenario")
        for key, amount in bets.items():
            try:
                box = int(key)
            except ValueError:
                raise EngineError(f"Not a box number: {key!r}", code="bad_scenario")
            log += r.apply(Bet(box, to_amount(amount, "bet")))
        log += r.apply(CLOSE_BETS)
        script = scenario.get("script", [])
        if not isinstance(script, list):
            raise EngineError("script must be a list", code="bad_scenario")
    except EngineError as e:
        raise ScenarioError(e, None)
    for i, item in enumerate(script):
        try:
            log += r.apply(parse_action(item))
        except EngineError as e:
            raise ScenarioError(e, i)
    return r
