"""WebSocket consumers: thin — authenticate, authorise, join groups, relay."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from staff.roles import Role
from staff.selectors import inspector_tables, table_role_for

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One screen of one table (tablet, observer, inspector, duty, pit boss)."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        role = await self._role(user)
        if role is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.role = role
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)

    @database_sync_to_async
    def _role(self, user):
        from tables.models import Table

        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None
        return table_role_for(user=user, table=table)

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)


class InspectorConsumer(AsyncJsonWebsocketConsumer):
    """The inspector's home: every table they oversee."""

    async def connect(self):
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        table_ids = await self._tables(user)
        if table_ids is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.groups_joined = [table_group(t) for t in table_ids]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    @database_sync_to_async
    def _tables(self, user):
        if not user.has_role(Role.INSPECTOR):
            return None
        return list(inspector_tables(user=user).values_list("pk", flat=True))

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
