"""The base of every live screen's socket: one person, the topics they follow, one protocol.

A screen is authenticated once, when it connects: the session is valid, the person active
and allowed on the screen (:meth:`ScreenConsumer.admit`); 4401 / 4403 otherwise. From then
on nothing is re-read per message. What can take the screen away is pushed to the person's
own topic ``user.<id>`` (sign-out, deactivation, a changed password, a role taken away, an
assignment that began or ended, a replacement): the screen checks again then — one trip to
the database — and closes (4401, 4403) or changes what it follows (a dashboard's tiles).
A session that simply expires is noticed by the check every
``SCREEN_SESSION_RECHECK_SECONDS``, which also runs before a command when the last one is
older than that. The write path checks the person's role under its lock anyway.

What a screen shows is a set of topics (``feed.models.Topic``): the table's for a table
screen, one per table for a dashboard of tiles, ``duty`` for the duty floor. For each the
screen gets its full state on connect, then every message of the topic, in sequence order
(``feed.hub``), of its own (fragment, language) pair. The screen asks ``sync`` with what it
shows — ``{"action": "sync", "known": {"<topic>": seq, ...}}`` — every 20 s and after a gap;
the answer compares with the database (one query): a current topic gets nothing, one a few
messages behind gets them again from the hub's memory, an older one its full state.

Limits: a screen may send ``SCREEN_MESSAGE_BURST`` messages at once and
``SCREEN_MESSAGES_PER_SECOND`` on average (a token bucket); one more is answered ``too_fast``
and the socket closes (4429). A person has at most ``SCREENS_PER_PERSON`` screens open.
Every message is read here once: at most ``MAX_MESSAGE`` characters of JSON, an object;
anything else is answered ``bad_message`` and the socket stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from importlib import import_module

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.utils import translation
from django.utils.crypto import constant_time_compare
from django.utils.html import escape
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy

from feed import hub as hubs
from feed import metrics, presence
from feed.bus import Message
from feed.sequences import topic_seqs

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
REORDER_SECONDS = 0.3  # a delta ahead of a missing one waits this long for it
SEQ_MAX = 2**63 - 1


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


def seq_parse(value) -> int | None:
    """A sequence number a screen says it shows: -1 (nothing yet) to 2⁶³ − 1, else None."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    text = str(value).strip()
    if not text or len(text) > 20:
        return None
    try:
        number = int(text)
    except ValueError:
        return None
    return number if -1 <= number <= SEQ_MAX else None


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


def error_html(text: str, code: str = "", *, ack: str = "", version: int | None = None) -> str:
    """The answer to the sender only: a refusal, or empty after an accepted command. ``ack``:
    the command id it answers, ``version``: the round version after it (the tablet's queue
    of taps sends the next one on it)."""
    extra = f' data-ack="{escape(ack)}"' if ack else ""
    if version is not None:
        extra += f' data-version="{int(version)}"'
    return (
        f'<div id="table-error" class="table-error" role="alert" data-testid="table-error" '
        f'data-code="{escape(code)}"{extra} hx-swap-oob="true">{escape(text)}</div>'
    )


def user_topic(user_id: int) -> str:
    """A person's own topic: what may take their screens away (not sequenced)."""
    return f"user.{int(user_id)}"


def db_thread(function):
    """Run ``function`` on a worker thread (a pool of them on PostgreSQL: row locks keep
    concurrent commands right; on SQLite one thread, as SQLite has one writer)."""
    parallel = getattr(settings, "PARALLEL_COMMANDS", False)
    return database_sync_to_async(function, thread_sensitive=not parallel)


class ScreenConsumer(AsyncWebsocketConsumer):
    """One live screen of one person. A subclass says who may open it (:meth:`admit`),
    which topics it shows and as which fragment (:meth:`topics`), the full state of each
    (:meth:`full_state`), and what a command does (:meth:`command`)."""

    screen = "screen"  # the metrics label
    topics_may_change = False  # re-read topics() at every sync (the pit: new tables)
    # The feed carries every push: no channel layer (and no per-message receive loop).
    channel_layer_alias = "feed:no-channel-layer"

    # -- what a subclass says (the sync ones run on a database thread) -------------------

    def admit(self) -> bool:
        """May this person open this screen now? (Asked at connect and after every push to
        their topic.)"""
        raise NotImplementedError

    def topics(self) -> dict[str, str]:
        """topic → the fragment this screen shows of it (``live``, ``tile``, ``duty``)."""
        raise NotImplementedError

    def full_state(self, topic: str) -> tuple[str, int] | None:
        """The complete HTML of what this screen shows of ``topic`` and the topic's sequence
        it was read at (None: the topic is gone)."""
        raise NotImplementedError

    def gone_html(self, topic: str) -> str:
        """What replaces a topic's part when the screen stops following it (a tile)."""
        return ""

    async def command(self, content: dict) -> None:
        """A listen-only screen takes no command."""
        await self.refuse("bad_action")

    async def before_sync(self, content: dict) -> None:
        """Work a ``sync`` asks for before it is answered (reservations due)."""

    def message_for(self, code: str, params: dict, fallback: str) -> str:
        """The person's message for a refusal ``code`` (a subclass knows its own codes)."""
        template = PROTOCOL_MESSAGES.get(code)
        if template is None:
            return fallback or str(PROTOCOL_MESSAGES["bad_message"])
        return str(template) % params if params else str(template)

    # -- connecting -------------------------------------------------------------------------

    async def connect(self):
        self.user = self.scope.get("user")
        self.closed = False
        self.hub = None
        self.counted = self.registered = False
        self.following: dict[str, str | None] = {}  # topic → the pair shown (None: control)
        self.sent: dict[str, int] = {}  # topic → the last sequence sent to the screen
        self.rendering: set[str] = set()
        self.held: dict[str, dict[int, Message]] = {}
        self.paused: list[Message] | None = None  # messages waiting for a revocation's check
        self.tasks: set[asyncio.Task] = set()
        self.screen_id = secrets.token_hex(8)
        self.tokens = float(settings.SCREEN_MESSAGE_BURST)
        self.refilled = time.monotonic()
        self.checked = time.monotonic()
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        verdict, topics = await db_thread(self._check)()
        if verdict is not None:
            await self.close(code=verdict)
            return
        self.language = import_string(settings.FEED_LANGUAGE)(self.scope)
        self.hub = hubs.current()
        self.registered = True
        open_now = await presence.screen_open(self.hub.redis, self.user.pk, self.screen_id)
        if open_now > settings.SCREENS_PER_PERSON:
            await self.refuse("too_many_screens", {"limit": settings.SCREENS_PER_PERSON})
            await self.close(code=CLOSE_LIMIT)
            return
        await self._follow(user_topic(self.user.pk), None)
        metrics.SCREENS.labels(self.screen).inc()
        self.counted = True
        self._later(self._watch_session())
        await self._set_topics(topics)

    def _check(self) -> tuple[int | None, dict[str, str]]:
        """(A close code, or None when the screen may stay; what it shows): the session,
        the person and the right to the screen, read in one trip to the database."""
        self.checked = time.monotonic()
        if not session_still_valid(self.session_key, self.user):
            return CLOSE_UNAUTHENTICATED, {}
        if not self.admit():
            return CLOSE_FORBIDDEN, {}
        return None, self.topics()

    async def check_again(self) -> bool:
        """Read the session and the right to this screen again; close (4401, 4403) when
        either ended, else follow what the screen may show now. False when closed."""
        if self.closed:
            return False
        verdict, topics = await db_thread(self._check)()
        if verdict is not None:
            await self.close(code=verdict)
            return False
        await self._set_topics(topics)
        return True

    async def _watch_session(self) -> None:
        """Check the session now and then, so an expired one closes a silent screen too."""
        while not self.closed:
            await asyncio.sleep(settings.SCREEN_SESSION_RECHECK_SECONDS)
            try:
                if not await self.check_again():
                    return
                await presence.screen_seen(self.hub.redis, self.user.pk, self.screen_id)
            except Exception:  # a database or Redis hiccup: the next round checks again
                log.exception("checking a screen's session failed")

    async def close(self, code=None, reason=None):
        self.closed = True
        await super().close(code=code, reason=reason)

    async def dispatch(self, message):
        # As channels' own, without closing old database connections before every message
        # (a thread hop each): every database call here goes through database_sync_to_async,
        # which does that around itself.
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code):
        self.closed = True
        for task in list(self.tasks):
            if task is not asyncio.current_task():
                task.cancel()
        if self.registered:
            self.registered = False
            with contextlib.suppress(Exception):  # the count heals by itself
                await presence.screen_closed(self.hub.redis, self.user.pk, self.screen_id)
        if self.hub is not None:
            for topic, watched_pair in list(self.following.items()):
                await self.hub.unfollow(topic, self, watched_pair)
        self.following.clear()
        if self.counted:
            metrics.SCREENS.labels(self.screen).dec()
            self.counted = False

    # -- following topics -------------------------------------------------------------------

    async def _follow(self, topic: str, watched_pair: str | None) -> None:
        self.following[topic] = watched_pair
        await self.hub.follow(topic, self, watched_pair)

    async def _set_topics(self, topics: dict[str, str]) -> None:
        """Follow exactly ``topics`` (besides the person's own): leave the others (their part
        removed from the screen), and send the full state of each new one."""
        if self.closed:
            return
        shown = {t for t, p in self.following.items() if p is not None}
        for topic in sorted(shown - set(topics)):
            await self.hub.unfollow(topic, self, self.following.pop(topic))
            self.sent.pop(topic, None)
            self.held.pop(topic, None)
            gone = self.gone_html(topic)
            if gone:
                await self.send(text_data=gone)
        new = [t for t in topics if t not in shown]
        for topic in new:
            await self._follow(topic, presence.pair(topics[topic], self.language))
            self.sent[topic] = -1
        if new:
            await self._send_full_states(new)

    async def _send_full_states(self, topics: list[str]) -> None:
        """Render and send the full state of ``topics`` (one trip to a database thread);
        then whatever of them arrived meanwhile."""
        topics = [t for t in topics if t not in self.rendering and self.following.get(t)]
        if not topics:
            return
        self.rendering.update(topics)
        try:
            states = await db_thread(self._render_states)(topics)
        finally:
            self.rendering.difference_update(topics)
        for topic, html, seq in states:
            if self.closed or topic not in self.following:
                continue
            self.held.pop(topic, None)
            if seq >= self.sent.get(topic, -1):
                self.sent[topic] = seq
                await self.send(text_data=html)
            recent = self.hub.recent(topic)
            for message in recent.after(self.sent[topic]) if recent else ():
                await self.feed_message(message)

    def _render_states(self, topics: list[str]) -> list[tuple[str, str, int]]:
        states = []
        for topic in topics:
            state = self.full_state(topic)
            if state is not None:
                states.append((topic, *state))
        return states

    # -- what the hub brings ------------------------------------------------------------------

    async def feed_message(self, message: Message) -> None:
        """A message of a followed topic: forward this screen's pair in sequence order."""
        if self.closed:
            return
        if message.seq is None:
            if self.paused is None:
                self.paused = []
                self._later(self._control(message.event or {}))
            return
        if self.paused is not None:
            self.paused.append(message)  # after the check: a screen no longer theirs closes
            return
        topic = message.topic
        watched_pair = self.following.get(topic)
        if watched_pair is None or topic in self.rendering:
            return  # not shown here; or a full state is on its way (it catches up after)
        last = self.sent.get(topic, -1)
        if message.seq <= last:
            return
        html = message.fragments.get(watched_pair)
        if html is None:  # rendered before this screen's pair was known where it was made
            metrics.FEED_MISSED.labels("unrendered").inc()
            self._later(self._send_full_states([topic]))
            return
        if message.delta and message.seq != last + 1:
            held = self.held.setdefault(topic, {})
            if not held:
                self._later(self._release(topic))
            held[message.seq] = message
            return
        self.sent[topic] = message.seq
        await self.send(text_data=html)
        held = self.held.get(topic)
        while held and self.sent[topic] + 1 in held:
            following = held.pop(self.sent[topic] + 1)
            self.sent[topic] = following.seq
            await self.send(text_data=following.fragments[watched_pair])

    async def _release(self, topic: str) -> None:
        """A delta came ahead of a missing one (two workers publishing in the opposite order
        of their commits): wait for it a moment; if it never comes, the full state."""
        await asyncio.sleep(REORDER_SECONDS)
        if self.held.pop(topic, None):
            metrics.FEED_MISSED.labels("gap").inc()
            await self._send_full_states([topic])

    async def _control(self, event: dict) -> None:
        try:
            await self.control(event)
        finally:
            waiting, self.paused = self.paused or [], None
        for message in waiting:
            await self.feed_message(message)

    async def control(self, event: dict) -> None:
        """A push to the person's own topic: their right to a screen may have changed. What
        arrives meanwhile waits: a screen that may no longer show a table closes before the
        table's new state reaches it."""
        await self.check_again()

    def recheck_soon(self) -> None:
        """Messages may have been lost (the bus reconnected): compare with the database."""
        known = {t: self.sent.get(t, -1) for t, p in self.following.items() if p is not None}
        self._later(self.sync({"known": known}))

    def _later(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a screen's task failed", exc_info=task.exception())

    # -- what the screen sends --------------------------------------------------------------

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

    async def receive(self, text_data=None, bytes_data=None):
        if self.closed:
            return
        if self.too_fast():
            metrics.SCREEN_LIMITED.labels(self.screen).inc()
            await self.refuse("too_fast")
            await self.close(code=CLOSE_LIMIT)
            return
        if time.monotonic() - self.checked > settings.SCREEN_SESSION_RECHECK_SECONDS:
            if not await self.check_again():
                return
        content = message_parse(text_data)
        if content is None:
            await self.refuse("bad_message")
            return
        if content.get("action") == "sync":
            await self.sync(content)
            return
        await self.command(content)

    async def sync(self, content: dict) -> None:
        """Answer what the screen says it shows (``known``) from the database: nothing for
        a current topic, the missed messages when the hub still has them, else the full
        state."""
        await self.before_sync(content)
        if self.closed:
            return
        if self.topics_may_change:
            verdict, topics = await db_thread(self._check)()
            if verdict is not None:
                await self.close(code=verdict)
                return
            await self._set_topics(topics)
        known = content.get("known") if isinstance(content.get("known"), dict) else {}
        shown = {t: p for t, p in self.following.items() if p is not None}
        current = await db_thread(topic_seqs)(list(shown))
        behind = []
        for topic, watched_pair in shown.items():
            seen = seq_parse(known.get(topic))
            seen = -1 if seen is None else seen
            if seen >= current[topic] or topic in self.rendering:
                continue
            recent = self.hub.recent(topic)
            again = recent.covering(seen, current[topic], watched_pair) if recent else None
            if again is None:
                behind.append(topic)
                continue
            for message in again:
                self.sent[topic] = max(self.sent.get(topic, -1), message.seq)
                await self.send(text_data=message.fragments[watched_pair])
        if behind:
            metrics.HEALED.labels(self.screen).inc(len(behind))
            await self._send_full_states(behind)

    async def refuse(self, code: str, params=None, fallback: str = "", **answer) -> None:
        """Tell the sender (only) why their message was refused, in their language."""
        with translation.override(getattr(self, "language", settings.LANGUAGE_CODE)):
            if code in LIMIT_MESSAGES:
                text = str(LIMIT_MESSAGES[code]) % (params or {})
            else:
                text = self.message_for(code, params or {}, fallback)
        await self.send(text_data=error_html(text, code, **answer))
