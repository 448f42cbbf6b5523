"""A live command's writes after its lock, in as few statements as the database allows.

The command transaction (``game.services``) locks the table's live row — reading the
person's role and the round events' chain head in the same statement — and then collects
what it writes here instead of saving model by model: the round's events with their chain
links, the round, the shoe, the live row, the chain's head, the command's id with its
outcome and the table topic's sequence. :meth:`Writes.run` sends them:

- on PostgreSQL as ONE statement — each write a data-modifying ``WITH`` part, which
  PostgreSQL runs exactly once whether or not the statement reads it — so an accepted
  ``card`` costs two statements in all, the lock and this;
- on SQLite, which has no data-modifying ``WITH``, one statement after the other.

Every value is prepared by its model field (``get_db_prep_save``), as the ORM would store
it; only the models' own quoted table and column names are formatted into the SQL. The
command's id is inserted with ``ON CONFLICT DO NOTHING RETURNING``: no row back means the id
was taken meanwhile (the caller rolls back and answers the first outcome).
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections


class Writes:
    """The writes of one transaction, run together."""

    def __init__(self, using: str = DEFAULT_DB_ALIAS):
        self.using = using
        self.inserts: list[tuple[str, list, str | None]] = []  # (sql, params, returned name)
        self.updates: dict[tuple[type, object], dict] = {}  # (model, pk) → column values

    def __bool__(self) -> bool:
        return bool(self.inserts or self.updates)

    def insert(self, record, *, returning: str | None = None, conflict_nothing=False) -> None:
        """Insert ``record`` (a model instance not saved, its pk set or automatic) as the
        ORM would. ``returning``: the name under which :meth:`run` reports whether a row
        was inserted (1) or not (None: ``conflict_nothing`` and the key was taken)."""
        connection = connections[self.using]
        meta = type(record)._meta
        fields = [f for f in meta.concrete_fields if not (f.primary_key and f.auto_created)]
        name = connection.ops.quote_name
        columns = ", ".join(name(f.column) for f in fields)
        values = [f.get_db_prep_save(f.pre_save(record, True), connection) for f in fields]
        holders = ", ".join(["%s"] * len(fields))
        # Only the model's own quoted names are formatted in; every value is a parameter.
        sql = f"INSERT INTO {name(meta.db_table)} ({columns}) VALUES ({holders})"  # noqa: S608
        if conflict_nothing:
            sql += f" ON CONFLICT ({name(meta.pk.column)}) DO NOTHING"
        if returning:
            sql += " RETURNING 1"
        self.inserts.append((sql, values, returning))

    def update(self, model, pk, **values) -> None:
        """Set ``values`` (field name → value) on ``model``'s row ``pk``; a later call for
        the same row adds to (and overrides) the earlier one: one UPDATE per row."""
        self.updates.setdefault((model, pk), {}).update(values)

    def raw(self, sql: str, params: list, returning: str) -> None:
        """A statement of the caller's that returns one value (``RETURNING <column>``)."""
        self.inserts.append((sql, list(params), returning))

    def _update_sql(self, model, pk, values: dict) -> tuple[str, list]:
        connection = connections[self.using]
        meta, name = model._meta, connection.ops.quote_name
        sets, params = [], []
        for field_name, value in values.items():
            field = meta.get_field(field_name)
            sets.append(f"{name(field.column)} = %s")
            params.append(field.get_db_prep_save(value, connection))
        params.append(meta.pk.get_db_prep_save(pk, connection))
        table, key = name(meta.db_table), name(meta.pk.column)
        return f"UPDATE {table} SET {', '.join(sets)} WHERE {key} = %s", params  # noqa: S608

    def run(self) -> dict[str, object]:
        """Send every write collected (then forget them); what the returning ones gave."""
        statements = list(self.inserts)
        statements += [(*self._update_sql(m, pk, v), None) for (m, pk), v in self.updates.items()]
        self.inserts, self.updates = [], {}
        if not statements:
            return {}
        connection = connections[self.using]
        if connection.vendor == "postgresql" and len(statements) > 1:
            return self._run_as_one(connection, statements)
        results = {}
        with connection.cursor() as cursor:
            for sql, params, returning in statements:
                cursor.execute(sql, params)
                if returning:
                    row = cursor.fetchone()
                    results[returning] = row[0] if row else None
        return results

    @staticmethod
    def _run_as_one(connection, statements) -> dict[str, object]:
        parts, params, wanted = [], [], []
        for n, (sql, values, returning) in enumerate(statements):
            parts.append(f"w{n} AS ({sql})")
            params += values
            if returning:
                wanted.append((returning, f"(SELECT * FROM w{n} LIMIT 1)"))  # noqa: S608
        selected = ", ".join(expression for _name, expression in wanted) or "1"
        with connection.cursor() as cursor:
            cursor.execute(f"WITH {', '.join(parts)} SELECT {selected}", params)
            row = cursor.fetchone()
        return {name: row[i] for i, (name, _expression) in enumerate(wanted)}
