"""The live table's sockets: thin — who may watch, what they watch, commands to the service.

Protocol: docs/protocol.md. Close codes: 4401 not signed in, 4403 not allowed on this table
(or no such table). The common part (sign-in, language, reading a message, access changes)
is ``staff.consumers.ScreenConsumer``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from floor import metrics, presence
from floor.changes import table_sequences
from floor.groups import fragment_group
from floor.parsing import whole_number
from game import services
from game.messages import error_text
from game.publish import render_fragment, table_topic, table_view
from staff.consumers import ScreenConsumer, error_html, session_still_valid
from staff.roles import Role
from staff.selectors import table_role_for
from tables.models import Table
from tables.selectors import floor_tables, inspector_tables
from tables.services import reservation_expire_due

log = logging.getLogger(__name__)


def _db(function):
    """Run ``function`` on a worker thread (a pool of them on PostgreSQL: row locks keep
    concurrent commands right; on SQLite one thread, as SQLite has one writer)."""
    return database_sync_to_async(function, thread_sensitive=not settings.PARALLEL_COMMANDS)


class TableConsumer(ScreenConsumer):
    """One screen of one table: the tablet, the observer, the inspector, duty, pit boss."""

    screen = "table"

    async def allowed(self) -> bool:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.role = await _db(self._role)()
        return self.role is not None

    def _role(self):
        table = Table.objects.filter(pk=self.table_id).first()
        return None if table is None else table_role_for(user=self.user, table=table)

    async def recheck(self) -> tuple[bool, bool]:
        """The session and the role at this table, read in one trip to a database thread
        (every message asks both)."""
        session, self.role = await _db(self._recheck)()
        return session, self.role is not None

    def _recheck(self) -> tuple[bool, str | None]:
        if not session_still_valid(self.session_key, self.user):
            return False, None
        return True, self._role()

    async def start(self) -> None:
        self.seq = -1
        self.healing = None
        await self._watch()
        await self._send_full_state()

    async def disconnect(self, code):
        healing = getattr(self, "healing", None)
        if healing is not None and not healing.done():
            healing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await healing
        self.healing = None
        await super().disconnect(code)

    async def _watch(self) -> None:
        await self.join(fragment_group(self.table_id, "live", self.language))
        await presence.mark(table_topic(self.table_id), "live", self.language)

    def message_for(self, code, params, fallback) -> str:
        return error_text(code, params, fallback)

    async def sync(self, content: dict) -> None:
        await self._watch()
        if content.get("expire_due"):
            # A countdown reached zero on this screen: end due tokens now (the worker
            # run_reservation_expiry does it anyway); the change is published to all.
            await _db(reservation_expire_due)(table_id=self.table_id)
        known = whole_number(content.get("known_seq"))
        current = (await _db(table_sequences)([self.table_id])).get(self.table_id, 0)
        if known is None or known < current:
            metrics.HEALED.labels(self.screen).inc()
            await self._send_full_state()

    async def command(self, content: dict) -> None:
        outcome = await _db(services.command_submit)(
            table_id=self.table_id, actor=self.user, command=content
        )
        await presence.mark(table_topic(self.table_id), "live", self.language)
        if outcome.ok:
            # A repeated id (a message replayed after a reconnect) is answered as the first
            # time; the screen got the full state when it reconnected.
            await self.send(text_data=error_html(""))
            return
        await self.refuse(outcome.code, outcome.params, outcome.message)
        if outcome.code == "stale":
            self._heal_later()

    def _heal_later(self) -> None:
        """After a ``stale`` refusal: the newer fragment is almost always on its way (the
        command that moved the round was published to this screen too). Check once, after
        ``STALE_HEAL_SECONDS``, that it came; only a screen still behind the database gets
        the full state (one heal pending at a time)."""
        if self.healing is None or self.healing.done():
            self.healing = asyncio.ensure_future(self._heal_after(settings.STALE_HEAL_SECONDS))

    async def _heal_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        if self.closed:
            return
        try:
            current = (await _db(table_sequences)([self.table_id])).get(self.table_id, 0)
            if self.seq < current:
                metrics.HEALED.labels(self.screen).inc()
                await self._send_full_state()
        except Exception:  # the screen's next sync heals it
            log.exception("healing a screen after a stale refusal failed")

    async def _send_full_state(self) -> None:
        html, seq = await _db(self._render)()
        self.seq = max(self.seq, seq)
        await self.send(text_data=html)

    def _render(self) -> tuple[str, int]:
        view = table_view(self.table_id)
        return render_fragment(view, "live", self.language), view["seq"]

    async def screen_fragment(self, event):
        """A new state published for this table: forward it unless already overtaken."""
        if event["seq"] <= self.seq:
            return
        self.seq = event["seq"]
        await self.send(text_data=event["html"])

    async def access_changed(self, table_id) -> None:
        self.role = await _db(self._role)()


class InspectorConsumer(ScreenConsumer):
    """The inspector's dashboard: a live tile for every table they oversee."""

    screen = "inspector"

    async def allowed(self) -> bool:
        return await _db(self.user.has_role)(Role.INSPECTOR)

    def _tables(self) -> list[int]:
        return list(inspector_tables(user=self.user).values_list("pk", flat=True))

    async def start(self) -> None:
        self.seqs: dict[int, int] = {}
        await self._follow(await _db(self._tables)(), send=True)

    async def _follow(self, table_ids: list[int], *, send: bool) -> None:
        """Watch the tiles of ``table_ids`` (and stop watching the others)."""
        for table_id in [t for t in self.seqs if t not in table_ids]:
            await self.leave(fragment_group(table_id, "tile", self.language))
            del self.seqs[table_id]
            await self.send(text_data=f'<div id="tile-{int(table_id)}" hx-swap-oob="delete"></div>')
        for table_id in table_ids:
            await self.join(fragment_group(table_id, "tile", self.language))
            await presence.mark(table_topic(table_id), "tile", self.language)
            if table_id not in self.seqs:
                self.seqs[table_id] = -1
                if send:
                    await self._send_tile(table_id)

    async def _send_tile(self, table_id: int) -> None:
        html, seq = await _db(self._render)(table_id)
        if html is not None:
            self.seqs[table_id] = max(self.seqs.get(table_id, -1), seq)
            await self.send(text_data=html)

    def _render(self, table_id: int) -> tuple[str | None, int]:
        view = table_view(table_id)
        if view is None:
            return None, -1
        return render_fragment(view, "tile", self.language), view["seq"]

    async def sync(self, content: dict) -> None:
        tables = await _db(self._tables)()
        new = [t for t in tables if t not in self.seqs]
        await self._follow(tables, send=True)
        if content.get("expire_due"):
            for table_id in tables:
                await _db(reservation_expire_due)(table_id=table_id)
        known = content.get("known") if isinstance(content.get("known"), dict) else {}
        current = await _db(table_sequences)(tables)
        for table_id in tables:
            if table_id in new:
                continue
            seen = whole_number(known.get(str(table_id)))
            if seen is None or seen < current.get(table_id, 0):
                metrics.HEALED.labels(self.screen).inc()
                await self._send_tile(table_id)

    async def screen_fragment(self, event):
        table_id = event.get("table_id")
        if table_id not in self.seqs or event["seq"] <= self.seqs[table_id]:
            return
        self.seqs[table_id] = event["seq"]
        await self.send(text_data=event["html"])

    async def access_changed(self, table_id) -> None:
        """An assignment of this inspector began or ended: add or drop the tile."""
        await self._follow(await _db(self._tables)(), send=True)


class PitConsumer(InspectorConsumer):
    """The pit overview of the pit boss and the duty administrator: every table's tile
    (dealer, round, result, open alerts), live, through the same pipeline as the
    inspector's dashboard (``game.publish`` renders the ``tile`` pair for whoever watches)."""

    screen = "pit"

    async def allowed(self) -> bool:
        return await _db(self._may_watch)()

    def _may_watch(self) -> bool:
        return self.user.has_role(Role.PIT_BOSS) or self.user.has_role(Role.DUTY_ADMINISTRATOR)

    def _tables(self) -> list[int]:
        return list(floor_tables().values_list("pk", flat=True))
