"""Advantage-play and result-deviation detection: pure Python (the standard library and the
engine, no Django), tested and measured without a database. The method and its measured
rates: docs/detection.md; the command line: ``python -m game.detection judge`` (measured by
``python -m benchmarks.detection``). Beside them, the floor watch's Django side: ``watch``
(the alerts) and ``records`` (a shift's rounds read into per-player records); importing this
package loads neither.

* :class:`PlayerEvidence` — does one player's bet follow the count? Feed it every round of
  every table he was at (his stake, 0 when he sat out, and the shoe when the round opened);
  it alarms when the evidence reaches ln(1/α), valid when checked after every round.
* :class:`ShiftDeviation` / :func:`result_deviation` — is a table's shift result plausible?
* :func:`judge` — the verdict on one session in the judge's JSON form.
"""

from .advantage import ALPHA, EDGE_PER_TRUE_COUNT, HOUSE_EDGE, METHOD, Method, PlayerEvidence
from .count import HI_LO, CountState, ShoeCounter, running_count, true_count
from .deviation import (
    BOX_CORRELATION,
    BOX_CORRELATION_DEFAULT,
    MIN_ROUNDS,
    SD_PER_HAND,
    SD_PER_HAND_DEFAULT,
    SIGMAS,
    ShiftDeviation,
    result_deviation,
    round_variance,
)
from .judge import SessionError, judge

__all__ = [
    "ALPHA",
    "BOX_CORRELATION",
    "BOX_CORRELATION_DEFAULT",
    "EDGE_PER_TRUE_COUNT",
    "HI_LO",
    "HOUSE_EDGE",
    "METHOD",
    "MIN_ROUNDS",
    "Method",
    "PlayerEvidence",
    "SD_PER_HAND",
    "SD_PER_HAND_DEFAULT",
    "SIGMAS",
    "SessionError",
    "ShiftDeviation",
    "ShoeCounter",
    "CountState",
    "judge",
    "result_deviation",
    "round_variance",
    "running_count",
    "true_count",
]
