"""The base of every live screen's socket: who is there, in which language, what they may
send — the sign-in, role and close logic every screen shares.

A subclass says whether the person may open it (:meth:`ScreenConsumer.allowed`), what to do
once they are in (:meth:`start`: join the groups of what it shows, mark its presence, send
the full state), how to answer ``sync`` and commands. Close codes: 4401 not signed in, 4403
not allowed (or no longer allowed). Every message is read here once: at most
``MAX_MESSAGE`` characters of JSON, an object; anything else is answered ``bad_message`` and
the socket stays open.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext_lazy

from floor import metrics
from floor.groups import user_group
from staff.language import screen_language

PROTOCOL_MESSAGES = {
    "bad_message": gettext_lazy("The screen sent a message the table cannot read."),
    "bad_action": gettext_lazy("That is not an action the table knows."),
}

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
MAX_MESSAGE = 4096


def message_parse(text) -> dict | None:
    """A screen's message as a JSON object, or None (too long, not JSON, too deeply nested,
    not an object)."""
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        return None
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return content if isinstance(content, dict) else None


def error_html(text: str, code: str = "") -> str:
    """The refusal shown to the sender only (empty after an accepted command)."""
    return (
        f'<div id="table-error" class="table-error" role="alert" data-testid="table-error" '
        f'data-code="{escape(code)}" hx-swap-oob="true">{escape(text)}</div>'
    )


class ScreenConsumer(AsyncWebsocketConsumer):
    """One live screen of one person."""

    screen = "screen"  # the metrics label

    async def connect(self):
        self.user = self.scope.get("user")
        self.joined: set[str] = set()
        self.counted = False
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await self.allowed():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = screen_language(self.scope)
        await self.join(user_group(self.user.pk))
        metrics.SCREENS.labels(self.screen).inc()
        self.counted = True
        await self.start()

    async def disconnect(self, code):
        for group in list(self.joined):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.joined.clear()
        if self.counted:
            metrics.SCREENS.labels(self.screen).dec()
            self.counted = False

    async def join(self, group: str) -> None:
        """Join (or join again: channels-redis forgets a membership after its group expiry,
        so every ``sync`` re-joins) the group of something this screen shows."""
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined.add(group)

    async def leave(self, group: str) -> None:
        await self.channel_layer.group_discard(group, self.channel_name)
        self.joined.discard(group)

    async def receive(self, text_data=None, bytes_data=None):
        content = message_parse(text_data)
        if content is None:
            await self.refuse("bad_message")
            return
        if content.get("action") == "sync":
            await self.sync(content)
            return
        await self.command(content)

    # -- what a subclass says ---------------------------------------------------------------

    async def allowed(self) -> bool:
        """May this person open this screen now? (Checked again when their access changes.)"""
        raise NotImplementedError

    async def start(self) -> None:
        """Join the groups, mark the presence, send the full state."""
        raise NotImplementedError

    async def sync(self, content: dict) -> None:
        """The screen asks whether it is behind (``known_seq``); answer from the database."""
        raise NotImplementedError

    async def command(self, content: dict) -> None:
        """A listen-only screen takes no command."""
        await self.refuse("bad_action")

    async def refuse(self, code: str, params=None, fallback: str = "") -> None:
        """Tell the sender (only) why their message was refused, in their language."""
        with translation.override(self.language):
            text = self.message_for(code, params or {}, fallback)
        await self.send(text_data=error_html(text, code))

    def message_for(self, code: str, params: dict, fallback: str) -> str:
        """The person's message for a refusal ``code`` (a subclass knows its own codes)."""
        template = PROTOCOL_MESSAGES.get(code)
        if template is None:
            return fallback or str(PROTOCOL_MESSAGES["bad_message"])
        return str(template) % params if params else str(template)

    # -- events -----------------------------------------------------------------------------

    async def screen_access(self, event):
        """This person's right to a screen changed (an assignment ended or began, a role
        was taken away, they were deactivated or signed out): close the screen if it is no
        longer theirs; a subclass may also add or drop what it shows."""
        if event.get("user_id") != self.user.pk:
            return
        if not await database_sync_to_async(self._still_active)():
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await self.allowed():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.access_changed(event.get("table_id"))

    def _still_active(self) -> bool:
        self.user.refresh_from_db(fields=["is_active"])
        self.user._roles_cache = None
        return self.user.is_active

    async def access_changed(self, table_id) -> None:
        """Still allowed: a subclass may adjust what it shows."""
