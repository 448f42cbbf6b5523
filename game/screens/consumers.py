"""The live table's sockets: thin — who may watch, which topics they follow, commands to the
service.

Protocol: docs/protocol.md. Every screen is a ``feed.consumers.ScreenConsumer`` (sign-in at
connect, revocation by push, the topics' sequence, ``sync``); here only who may open which
screen, what it shows of which table topic, and what a command does.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from feed import metrics
from feed.consumers import ScreenConsumer, db_thread, error_html
from feed.sequences import topic_seqs
from floor.changes import table_id_of, table_topic
from game import services
from game.commands.messages import error_text
from game.screens.publish import live_fragment, render_fragment, table_view
from staff.permissions import at, may
from tables.models import Table
from tables.selectors import floor_tables, inspector_tables
from tables.services import reservation_expire_due

log = logging.getLogger(__name__)


class TableConsumer(ScreenConsumer):
    """One screen of one table: the tablet, the observer, the inspector, duty, pit boss."""

    screen = "table"

    def admit(self) -> bool:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not Table.objects.filter(pk=self.table_id).exists():
            return False
        place = at(self.user, self.table_id)
        self.role = place.role
        return may("game.follow_table", self.user, place)

    def topics(self) -> dict[str, str]:
        # The fragment of this kind of screen: only the controls its role may use.
        return {table_topic(self.table_id): live_fragment(self.role)}

    def full_state(self, topic: str) -> tuple[str, int] | None:
        view = table_view(self.table_id)
        if view is None:
            return None
        return render_fragment(view, live_fragment(self.role), self.language), view["seq"]

    def message_for(self, code, params, fallback) -> str:
        return error_text(code, params, fallback)

    async def before_sync(self, content: dict) -> None:
        if content.get("expire_due") is True:
            # A countdown reached zero on this screen: end due tokens now (the worker
            # run_reservation_expiry does it anyway); the change is published to all.
            await db_thread(reservation_expire_due)(table_id=self.table_id)

    async def command(self, content: dict) -> None:
        outcome = await db_thread(services.command_submit)(
            table_id=self.table_id, actor=self.user, command=content
        )
        ack = content.get("id") if isinstance(content.get("id"), str) else ""
        if outcome.ok:
            # A repeated id (a tap sent again after a reconnect) is answered as the first
            # time: its outcome and the round version after it; it acted once.
            await self.send(text_data=error_html("", ack=ack[:64], version=outcome.version))
            return
        await self.refuse(
            outcome.code, outcome.params, outcome.message, ack=ack[:64], version=outcome.version
        )
        if outcome.code == "not_your_action":
            await self.check_again()  # a right taken away behind the pushes' back: 4403
        elif outcome.code in ("stale", "round_already_closed"):
            self._heal_later()

    def _heal_later(self) -> None:
        """After a ``stale`` refusal: the newer fragment is almost always on its way (the
        command that moved the round was published to this screen too). Check once, after
        ``STALE_HEAL_SECONDS``, that it came; only a screen still behind the database gets
        the full state (one heal pending at a time)."""
        if not getattr(self, "healing", False):
            self.healing = True
            self._later(self._heal_after(settings.STALE_HEAL_SECONDS))

    async def _heal_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.healing = False
        if self.closed:
            return
        topic = table_topic(self.table_id)
        current = (await db_thread(topic_seqs)([topic]))[topic]
        if self.sent.get(topic, -1) < current:
            metrics.HEALED.labels(self.screen).inc()
            await self._send_full_states([topic])


class InspectorConsumer(ScreenConsumer):
    """The inspector's dashboard: a live tile for every table they oversee (a topic each)."""

    screen = "inspector"

    def admit(self) -> bool:
        return may("game.inspector_home", self.user)

    def table_ids(self) -> list[int]:
        return list(inspector_tables(user=self.user).values_list("pk", flat=True))

    def topics(self) -> dict[str, str]:
        return {table_topic(table_id): "tile" for table_id in self.table_ids()}

    def full_state(self, topic: str) -> tuple[str, int] | None:
        view = table_view(table_id_of(topic))
        if view is None:
            return None
        return render_fragment(view, "tile", self.language), view["seq"]

    def gone_html(self, topic: str) -> str:
        return f'<div id="tile-{table_id_of(topic)}" hx-swap-oob="delete"></div>'

    async def before_sync(self, content: dict) -> None:
        if content.get("expire_due") is True:
            for topic in [t for t, p in self.following.items() if p]:
                await db_thread(reservation_expire_due)(table_id=table_id_of(topic))


class PitConsumer(InspectorConsumer):
    """The pit overview of the pit boss and the duty administrator: every table's tile
    (dealer, round, result, open alerts), live, as the inspector's dashboard; a table new
    on the floor joins at the next ``sync``."""

    screen = "pit"
    topics_may_change = True

    def admit(self) -> bool:
        return may("game.pit_overview", self.user)

    def table_ids(self) -> list[int]:
        return list(floor_tables().values_list("pk", flat=True))
