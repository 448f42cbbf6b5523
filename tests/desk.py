"""The test double of a tablet: ``Desk`` sends commands to a table as one person would.

The fixtures ``dealer_desk``, ``observer_desk`` and ``inspector_desk`` (tests/conftest.py) are
a ``Desk`` for each of the crew; ``staffed_table`` (tests/game/conftest.py) makes more tables
with their own."""

import uuid

from game.models import LiveTable
from game.services import command_submit


class Desk:
    """Sends commands to a table as one person would from a screen: a fresh id each time
    and the version the screen shows."""

    def __init__(self, table, user):
        self.table = table
        self.user = user

    @property
    def version(self) -> int:
        row = LiveTable.objects.filter(pk=self.table.pk).first()
        return row.version if row else 0

    def send(self, action, *, expected_version=None, command_id=None, **fields):
        if action == "close-bets":
            # Most round tests seat one player on a few boxes: he leaves the free boxes to
            # others (tests/tables/test_occupancy.py checks the rule itself).
            fields.setdefault("lone_player", "shared")
            # ... and the seated players agreed to any newcomer (test_table_procedures.py).
            fields.setdefault("newcomer_consent", "agreed")
            # ... and every new player was told the table's limits (test_limits_told.py).
            fields.setdefault("limits_announced", "told")
        command = {
            "id": str(command_id or uuid.uuid4()),
            "expected_version": self.version if expected_version is None else expected_version,
            "action": action,
            **fields,
        }
        return command_submit(table_id=self.table.pk, actor=self.user, command=command)

    def ok(self, action, **fields):
        outcome = self.send(action, **fields)
        assert outcome.ok, (action, fields, outcome)
        return outcome

    def cards(self, *codes):
        for code in codes:
            self.ok("card", card=code)

    def start_round(self, bets=None, cards_behind_cut=None):
        hole_card = self.table.rules.get("preset") == "hole-card"
        if cards_behind_cut is None:  # in the range of the table's cut card (game.table.cuts)
            cards_behind_cut = 40 if hole_card else 80
        live = LiveTable.objects.filter(pk=self.table.pk).first()
        if live is None or live.current_shoe is None or live.current_shoe.cut_card_out:
            self.ok(
                "shuffle",
                reason="new_shoe",
                cards_behind_cut=cards_behind_cut,
                **({"burn_card": "2c"} if hole_card else {}),
            )
        self.ok("open-round")
        for box, stake in (bets or {}).items():
            self.ok("bet", box=box, seat=f"P{box}", stake=str(stake))


def current_round(table):
    return LiveTable.objects.get(pk=table.pk).current_round


def screen_seq(table) -> int:
    """The table's screen sequence: its topic's in the feed (how often its screens were told
    it changed)."""
    from feed.sequences import topic_seqs
    from floor.changes import table_topic

    topic = table_topic(table.pk)
    return topic_seqs([topic])[topic]
