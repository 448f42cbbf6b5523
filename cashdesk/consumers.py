"""The duty administrator's live cash-in totals: joins the ``duty`` group, sends the totals
fragment on connect and again after every cash-desk write."""

import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import timezone, translation

from cashdesk.gaming import gaming_day_of
from cashdesk.publish import DUTY_GROUP
from cashdesk.selectors import live_totals
from staff.roles import Role
from tables.selectors import open_alerts

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403


class DutyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        self.joined = False
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await database_sync_to_async(self.user.has_role)(Role.DUTY_ADMINISTRATOR):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        from game.consumers import screen_language

        self.language = screen_language(self.scope)
        await self.channel_layer.group_add(DUTY_GROUP, self.channel_name)
        self.joined = True
        await self.send(text_data=await self._render())

    async def disconnect(self, code):
        if self.joined:
            await self.channel_layer.group_discard(DUTY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        return  # listens only

    async def duty_refresh(self, event):
        await self.send(text_data=await self._render())

    async def duty_replacements(self, event):
        await self.send(text_data=await self._render_replacements())

    @database_sync_to_async
    def _render_replacements(self) -> str:
        from staff.selectors import replacement_panel

        cookies = self.scope.get("cookies") or {}
        with translation.override(self.language):
            return render_to_string(
                "staff/_replacement_panel.html",
                {
                    "open_replacements": replacement_panel(),
                    "version": time.time_ns() // 1000,
                    "csrf_token": cookies.get("csrftoken", ""),
                },
            ).strip()  # static/js/duty.js tells the panel by how the message starts

    @database_sync_to_async
    def _render(self) -> str:
        with translation.override(self.language):
            day = gaming_day_of(timezone.now())
            return render_to_string(
                "cashdesk/duty_home.html#totals",
                {
                    "totals": live_totals(gaming_day=day),
                    "alerts": open_alerts(),
                    "gaming_day": day,
                    "version": time.time_ns() // 1000,
                },
            )
