"""The duty administrator's live screen (``/ws/duty/``): listen-only. The full state on
connect and on every ``sync``; after every committed change it shows, the new state
(``cashdesk.publish``)."""

from __future__ import annotations

from channels.db import database_sync_to_async

from cashdesk.publish import DUTY_TOPIC, duty_context, duty_sequence, render_duty
from floor import presence
from floor.groups import duty_group
from staff.consumers import ScreenConsumer
from staff.roles import Role


class DutyConsumer(ScreenConsumer):
    screen = "duty"

    async def allowed(self) -> bool:
        return await database_sync_to_async(self.user.has_role)(Role.DUTY_ADMINISTRATOR)

    async def start(self) -> None:
        self.seq = -1
        await self._watch()
        await self._send_full_state()

    async def _watch(self) -> None:
        await self.join(duty_group(self.language))
        await presence.mark(DUTY_TOPIC, "duty", self.language)

    async def sync(self, content: dict) -> None:
        """Whatever the screen knows, the full state again: the duty screen is one per duty
        administrator, and its state spans the whole floor (no single sequence to compare
        with after a lost commit)."""
        await self._watch()
        await self._send_full_state()

    async def _send_full_state(self) -> None:
        html, seq = await database_sync_to_async(self._render)()
        self.seq = max(self.seq, seq)
        await self.send(text_data=html)

    def _render(self) -> tuple[str, int]:
        seq = duty_sequence()
        return render_duty(duty_context(seq=seq), self.language), seq

    async def screen_fragment(self, event):
        if event["seq"] <= self.seq:
            return
        self.seq = event["seq"]
        await self.send(text_data=event["html"])
