"""WebSocket consumers: thin — authenticate, authorise, call the service, relay fragments.

Protocol: docs/protocol.md. Close codes: 4401 not signed in, 4403 not allowed on this table
(or no such table).
"""

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape

from game import services
from game.messages import error_text
from game.publish import render_fragments, table_group
from staff.roles import Role
from staff.selectors import inspector_tables, table_role_for
from tables.services import reservation_expire_due

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
MAX_MESSAGE = 4096


def screen_language(scope) -> str:
    """The language a screen reads: the person's choice, else the browser's (cookie, then
    Accept-Language), else the site default — as LocaleMiddleware decides for pages."""
    from django.utils.translation import get_supported_language_variant
    from django.utils.translation.trans_real import parse_accept_lang_header

    languages = dict(settings.LANGUAGES)
    user = scope.get("user")
    if user is not None and user.is_authenticated and user.preferred_language in languages:
        return user.preferred_language
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in languages:
        return cookie
    accept = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One screen of one table: the tablet, the observer, the inspector, duty, pit boss."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.group = None
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.role = await self._role()
        if self.role is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = screen_language(self.scope)
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.version = -1
        await self._send_full_state()

    @database_sync_to_async
    def _role(self):
        from tables.models import Table

        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None
        return table_role_for(user=self.user, table=table)

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > MAX_MESSAGE:
            await self._send_error("bad_message")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self._send_error("bad_message")
            return
        if not isinstance(content, dict):
            await self._send_error("bad_message")
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        if content.get("action") == "sync":
            if content.get("expire_due"):
                # A countdown reached zero on this screen: end due tokens now (the worker
                # run_reservation_expiry does it anyway); the change is published to all.
                await database_sync_to_async(reservation_expire_due)(table_id=self.table_id)
            if content.get("known_version") != self.version:
                await self._send_full_state()
            return
        outcome = await database_sync_to_async(
            services.command_submit, thread_sensitive=not settings.PARALLEL_COMMANDS
        )(table_id=self.table_id, actor=self.user, command=content)
        if outcome.ok:
            await self.send(text_data=_error_html(""))
            if outcome.duplicate and outcome.version != self.version:
                await self._send_full_state()
            return
        await self._send_error(outcome.code, outcome.params, outcome.message)
        if outcome.code == "stale" or outcome.version != self.version:
            await self._send_full_state()

    async def _send_error(self, code, params=None, fallback=""):
        with translation.override(self.language):
            text = error_text(code, params, fallback)
        await self.send(text_data=_error_html(text, code))

    async def _send_full_state(self):
        message = await database_sync_to_async(
            self._render, thread_sensitive=not settings.PARALLEL_COMMANDS
        )()
        self.version = message["version"]
        await self.send(text_data=message["html"][self.language]["live"])

    def _render(self):
        from tables.models import Table

        return render_fragments(Table.objects.get(pk=self.table_id), [self.language])

    async def table_revoke(self, event):
        """This person's assignment to the table ended: close their screen, unless their role
        here does not depend on it (duty administrator, pit boss)."""
        if event.get("user_id") == self.user.pk and await self._role() is None:
            await self.close(code=CLOSE_FORBIDDEN)

    async def table_state(self, event):
        """A new state published for this table: forward our screen's fragment."""
        if event["version"] < self.version:
            return  # an older message overtaken by a resync
        self.version = event["version"]
        html = event["html"].get(self.language) or next(iter(event["html"].values()))
        await self.send(text_data=html["live"])


def _error_html(text: str, code: str = "") -> str:
    return (
        f'<div id="table-error" class="table-error" role="alert" data-testid="table-error" '
        f'data-code="{escape(code)}" hx-swap-oob="true">{escape(text)}</div>'
    )


class InspectorConsumer(AsyncJsonWebsocketConsumer):
    """The inspector's home: a live tile for every table they oversee."""

    async def connect(self):
        self.user = self.scope.get("user")
        self.groups_joined = []
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        tiles = await self._tiles()
        if tiles is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.versions = {}
        for table_id, version, html in tiles:
            group = table_group(table_id)
            self.groups_joined.append(group)
            await self.channel_layer.group_add(group, self.channel_name)
            self.versions[table_id] = version
            await self.send(text_data=html)

    @database_sync_to_async
    def _tiles(self):
        if not self.user.has_role(Role.INSPECTOR):
            return None
        self.language = screen_language(self.scope)
        out = []
        with translation.override(self.language):
            from game.presenters import table_view

            for table in inspector_tables(user=self.user):
                view = table_view(table)
                out.append(
                    (table.pk, view["version"], render_to_string("game/live.html#tile", view))
                )
        return out

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # The home screen only listens (commands go through a table's own screen), except
        # that a countdown at zero asks for due reservations of its tables to end now.
        if content.get("action") == "sync" and content.get("expire_due"):
            for table_id in list(self.versions):
                await database_sync_to_async(reservation_expire_due)(table_id=table_id)

    async def table_revoke(self, event):
        """An assignment ended: if this inspector no longer oversees the table, its tile
        leaves the dashboard and its updates stop."""
        table_id = event.get("table_id")
        if event.get("user_id") != self.user.pk or table_id is None:
            return
        if await self._still_inspects(table_id):
            return
        group = table_group(table_id)
        if group in self.groups_joined:
            self.groups_joined.remove(group)
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.send(text_data=f'<div id="tile-{int(table_id)}" hx-swap-oob="delete"></div>')

    @database_sync_to_async
    def _still_inspects(self, table_id) -> bool:
        return inspector_tables(user=self.user).filter(pk=table_id).exists()

    async def table_state(self, event):
        table_id = event.get("table_id")
        if event["version"] < self.versions.get(table_id, -1):
            return
        self.versions[table_id] = event["version"]
        html = event["html"].get(self.language) or next(iter(event["html"].values()))
        await self.send(text_data=html["tile"])
