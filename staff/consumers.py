"""The base of every live screen's socket: who is there, in which language, what they may
send — the sign-in, role and close logic every screen shares.

A subclass says whether the person may open it (:meth:`ScreenConsumer.allowed`), what to do
once they are in (:meth:`start`: join the groups of what it shows, mark its presence, send
the full state), how to answer ``sync`` and commands. Close codes: 4401 not signed in, 4403
not allowed (or no longer allowed). Every message is read here once: at most
``MAX_MESSAGE`` characters of JSON, an object; anything else is answered ``bad_message`` and
the socket stays open.

A screen acts only while the session it was opened with is valid: before every message it
reads that session again from the session store (signed out, expired, another person, a
changed password: 4401), the person again (deactivated: 4401) and the right to the screen
(4403). A person's sign-out, deactivation or lost role reaches their open screens at once
through their ``user.<id>`` group (``staff.signals``); an expired session is noticed within
``SCREEN_SESSION_RECHECK_SECONDS`` even on a screen that sends nothing.

Limits: a screen may send ``SCREEN_MESSAGE_BURST`` messages at once and
``SCREEN_MESSAGES_PER_SECOND`` on average (a token bucket); one more is answered
``too_fast`` and the socket closes (4429). A person has at most ``SCREENS_PER_PERSON``
screens open; one more is answered ``too_many_screens`` and closed (4429).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from importlib import import_module

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.utils import translation
from django.utils.crypto import constant_time_compare
from django.utils.html import escape
from django.utils.translation import gettext_lazy

from floor import metrics, presence
from floor.groups import user_group
from staff.language import screen_language

PROTOCOL_MESSAGES = {
    "bad_message": gettext_lazy("The screen sent a message the table cannot read."),
    "bad_action": gettext_lazy("That is not an action the table knows."),
}
LIMIT_MESSAGES = {
    "too_fast": gettext_lazy(
        "This screen sent too many messages too fast; it is closed. Reload the page."
    ),
    "too_many_screens": gettext_lazy(
        "You have %(limit)s screens open already; close one, then reload this page."
    ),
}

log = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_LIMIT = 4429
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


def session_still_valid(session_key: str | None, user) -> bool:
    """Is ``session_key`` still a live session of ``user`` (not signed out, not expired,
    the same person, the password unchanged), and is ``user`` still active? Reads both
    again from the store and the database; refreshes ``user`` (and forgets its roles)."""
    if not session_key:
        return False
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
    if str(data.get(SESSION_KEY, "")) != str(user.pk):
        return False  # signed out, expired, or never this person's
    try:
        user.refresh_from_db(fields=["is_active", "password"])
    except type(user).DoesNotExist:
        return False
    user._roles_cache = None
    if not user.is_active:
        return False
    stored = data.get(HASH_SESSION_KEY)
    return bool(stored) and constant_time_compare(stored, user.get_session_auth_hash())


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
        self.closed = False
        self.watch = None
        self.registered = False
        self.tokens = float(settings.SCREEN_MESSAGE_BURST)
        self.refilled = time.monotonic()
        session = self.scope.get("session")
        self.session_key = getattr(session, "session_key", None)
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await self.allowed():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = screen_language(self.scope)
        self.registered = True
        if await presence.screen_open(self.user.pk, self.channel_name) > (
            settings.SCREENS_PER_PERSON
        ):
            await self.refuse("too_many_screens", {"limit": settings.SCREENS_PER_PERSON})
            await self.close(code=CLOSE_LIMIT)
            return
        await self.join(user_group(self.user.pk))
        metrics.SCREENS.labels(self.screen).inc()
        self.counted = True
        self.watch = asyncio.ensure_future(self._watch_session())
        await self.start()

    async def close(self, code=None, reason=None):
        self.closed = True
        await super().close(code=code, reason=reason)

    async def still_valid(self) -> bool:
        """The session, the person and the right to this screen, read again; a screen whose
        session ended closes with 4401, one whose right ended with 4403."""
        if self.closed:
            return False
        session, allowed = await self.recheck()
        if not session:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return False
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return False
        return True

    async def recheck(self) -> tuple[bool, bool]:
        """(Is the session still valid, and — if it is — may this person still see this
        screen?). A subclass may read both in one trip to a database thread."""
        if not await database_sync_to_async(session_still_valid)(self.session_key, self.user):
            return False, False
        return True, await self.allowed()

    async def _watch_session(self) -> None:
        """Check the session now and then, so an expired one closes a silent screen too."""
        while not self.closed:
            await asyncio.sleep(settings.SCREEN_SESSION_RECHECK_SECONDS)
            try:
                if not await self.still_valid():
                    return
                await presence.screen_seen(self.user.pk, self.channel_name)
            except Exception:  # a database or Redis hiccup: the next round checks again
                log.exception("checking a screen's session failed")

    def too_fast(self) -> bool:
        """One more message: over the rate (a token bucket of ``SCREEN_MESSAGE_BURST``,
        refilled at ``SCREEN_MESSAGES_PER_SECOND``)?"""
        now = time.monotonic()
        self.tokens = min(
            float(settings.SCREEN_MESSAGE_BURST),
            self.tokens + (now - self.refilled) * settings.SCREEN_MESSAGES_PER_SECOND,
        )
        self.refilled = now
        if self.tokens < 1:
            return True
        self.tokens -= 1
        return False

    async def disconnect(self, code):
        self.closed = True
        if self.watch is not None and self.watch is not asyncio.current_task():
            self.watch.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.watch
            self.watch = None
        if self.registered:
            self.registered = False
            with contextlib.suppress(Exception):  # the count heals by itself
                await presence.screen_closed(self.user.pk, self.channel_name)
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
        if self.closed:
            return
        if self.too_fast():
            metrics.SCREEN_LIMITED.labels(self.screen).inc()
            await self.refuse("too_fast")
            await self.close(code=CLOSE_LIMIT)
            return
        if not await self.still_valid():
            return
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
            if code in LIMIT_MESSAGES:
                text = str(LIMIT_MESSAGES[code]) % (params or {})
            else:
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
        if not await self.still_valid():
            return
        await self.access_changed(event.get("table_id"))

    async def access_changed(self, table_id) -> None:
        """Still allowed: a subclass may adjust what it shows."""
