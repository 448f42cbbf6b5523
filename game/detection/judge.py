"""The judge: the verdict the floor watch would reach on one player's session.

A session is ``{"decks": 6, "rounds": [{"bet": "25", "cards": ["Th", "5c", ...],
"shuffle_before": false}, ...]}`` — ``cards`` every card seen at the table that round, in
order; ``bet`` the player's total initial stake that round (``"0"`` when he sat out);
``shuffle_before`` true when the shoe was shuffled before that round (the first round always
starts a shoe). The verdict is ``{"alarm", "at_round", "score", "rounds", "played",
"advantage"}`` (:meth:`PlayerEvidence.verdict`), checked after every round with the production
settings.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation

from game.engine import EngineError

from .advantage import ALPHA, HOUSE_EDGE, PlayerEvidence
from .count import ShoeCounter

MAX_ROUNDS = 100_000


class SessionError(ValueError):
    """A session that cannot be judged, with a message that says why."""


def _bet(value, where: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise SessionError(f'{where}: bet must be an amount like "25", not {value!r}')
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise SessionError(f'{where}: bet must be an amount like "25", not {value!r}')
    if not amount.is_finite() or amount < 0 or amount >= Decimal("1e12"):
        raise SessionError(f"{where}: bet must be 0 or a positive amount, not {value!r}")
    return amount


def judge(
    session, *, alpha: float = ALPHA, house_edge: float = HOUSE_EDGE, carried: float | None = None
) -> dict:
    """Judge one session (a parsed JSON object); raise :class:`SessionError` if it is
    malformed (not an object, decks not 1-8, a bet that is not an amount, a card that is not
    a card or more copies of it than the shoe holds). ``carried``: the player's log-evidence
    from earlier sessions (:class:`PlayerEvidence`); the verdict then adds ``"evidence"``, the
    log-evidence at the session's end, to carry on."""
    if not isinstance(session, dict):
        raise SessionError('a session must be a JSON object with "decks" and "rounds"')
    decks = session.get("decks", 6)
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
        raise SessionError(f"decks must be a whole number from 1 to 8, not {decks!r}")
    rounds = session.get("rounds")
    if not isinstance(rounds, list):
        raise SessionError('rounds must be a list of {"bet", "cards", "shuffle_before"}')
    if len(rounds) > MAX_ROUNDS:
        raise SessionError(f"a session holds at most {MAX_ROUNDS} rounds, not {len(rounds)}")
    evidence = PlayerEvidence(alpha=alpha, house_edge=house_edge, carried=carried or 0.0)
    counter = None
    for n, r in enumerate(rounds, start=1):
        where = f"round {n}"
        if not isinstance(r, dict):
            raise SessionError(f"{where}: a round must be an object with bet and cards")
        bet = _bet(r.get("bet"), where)
        shuffle = r.get("shuffle_before", False)
        if not isinstance(shuffle, bool):
            raise SessionError(f"{where}: shuffle_before must be true or false, not {shuffle!r}")
        cards = r.get("cards", [])
        if not isinstance(cards, list):
            raise SessionError(f'{where}: cards must be a list of card codes like "Th"')
        new_shoe = counter is None or shuffle
        if new_shoe:
            counter = ShoeCounter(decks)
        evidence.observe(0, bet=bet, shoe=counter.state(), new_shoe=new_shoe)
        for code in cards:
            try:
                counter.take(code)
            except EngineError as e:
                raise SessionError(f"{where}: {e}")
    verdict = evidence.verdict()
    if carried is not None:
        verdict["evidence"] = evidence.log_evidence
    return verdict


def judge_lines(lines, out, *, alpha: float = ALPHA) -> int:
    """Judge each non-blank line of ``lines`` (JSON) and write one JSON line per session to
    ``out``: the verdict, or ``{"error": "line N: ..."}``. Returns the number of bad lines."""
    bad = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            try:
                session = json.loads(line)
            except ValueError as e:
                raise SessionError(f"not JSON ({e})")
            result = judge(session, alpha=alpha)
        except SessionError as e:
            bad += 1
            result = {"error": f"line {number}: {e}"}
        out.write(json.dumps(result) + "\n")
        out.flush()
    return bad
