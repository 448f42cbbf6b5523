"""The duty administrator's live screen (``/ws/duty/``): listen-only. The full state on
connect and on every ``sync``; after every committed change it shows, a delta: the changed
tables' rows and the floor-wide parts (``cashdesk.publish``).

A delta applies only on top of the one just before it (``data-seq`` one higher). Two
workers may publish two changes in the opposite order of their sequence numbers, so a delta
that arrives ahead of a missing one is held here for ``REORDER_SECONDS``: when the missing
one comes, both go out in order; when it does not (lost, or a worker died after the
commit), the held ones go out anyway, the screen sees the gap and asks for the full state."""

from __future__ import annotations

import asyncio
import contextlib

from channels.db import database_sync_to_async

from cashdesk.publish import DUTY_TOPIC, duty_context, duty_sequence, render_duty
from floor import presence
from floor.groups import duty_group
from staff.consumers import ScreenConsumer
from staff.roles import Role

REORDER_SECONDS = 0.3


class DutyConsumer(ScreenConsumer):
    screen = "duty"

    async def allowed(self) -> bool:
        return await database_sync_to_async(self.user.has_role)(Role.DUTY_ADMINISTRATOR)

    async def start(self) -> None:
        self.seq = -1
        self.held: dict[int, str] = {}
        self.releasing = None
        await self._watch()
        await self._send_full_state()

    async def disconnect(self, code):
        releasing = getattr(self, "releasing", None)
        if releasing is not None and not releasing.done():
            releasing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await releasing
        await super().disconnect(code)

    async def _watch(self) -> None:
        await self.join(duty_group(self.language))
        await presence.mark(DUTY_TOPIC, "duty", self.language)

    async def sync(self, content: dict) -> None:
        """Whatever the screen knows, the full state again: the duty screen is one per duty
        administrator, and its state spans the whole floor (no single sequence to compare
        with after a lost commit). A screen asks at once after a gap, and every 20 s."""
        await self._watch()
        await self._send_full_state()

    async def _send_full_state(self) -> None:
        html, seq = await database_sync_to_async(self._render)()
        self.seq = max(self.seq, seq)
        self.held = {s: h for s, h in self.held.items() if s > self.seq}
        await self.send(text_data=html)
        await self._forward_in_order()

    def _render(self) -> tuple[str, int]:
        seq = duty_sequence()
        return render_duty(duty_context(seq=seq), self.language), seq

    async def screen_fragment(self, event):
        """A delta: forward it in sequence order; one that came ahead of a missing one
        waits a moment for it."""
        seq = event["seq"]
        if seq <= self.seq or seq in self.held:
            return
        self.held[seq] = event["html"]
        await self._forward_in_order()
        if self.held and (self.releasing is None or self.releasing.done()):
            self.releasing = asyncio.ensure_future(self._release_later())

    async def _forward_in_order(self) -> None:
        while self.seq + 1 in self.held:
            self.seq += 1
            await self.send(text_data=self.held.pop(self.seq))

    async def _release_later(self) -> None:
        """The missing delta did not come: send what waits (the screen sees the gap)."""
        await asyncio.sleep(REORDER_SECONDS)
        while self.held:
            seq = min(self.held)
            html = self.held.pop(seq)
            if seq > self.seq:
                self.seq = seq
                await self.send(text_data=html)
