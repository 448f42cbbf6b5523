"""docs/examples/play_round.py really plays a round against a live server."""

import subprocess
import sys
from pathlib import Path

from game.models import Round
from tests.conftest import PASSWORD

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "play_round.py"


def test_the_documented_websockets_script_plays_a_round(
    daphne_server, transactional_db, crew, table
):
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), daphne_server, "dealer", PASSWORD, str(table.pk)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "phase: settled" in result.stdout
    closed = Round.objects.get(table=table)
    assert closed.status == "closed"
    assert closed.players_net == 100
