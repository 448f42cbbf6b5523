"""Commands as values: a command as the write path reads it (:class:`ParsedCommand`: its id,
name, the round version the screen showed and the fields its form read) and what it comes
back as (:class:`Outcome`). The forms are ``game.commands.forms``; the dispatch table and
the one parse of a protocol message are ``game.commands.dispatch`` (docs/protocol.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass
class Outcome:
    ok: bool
    version: int
    code: str = ""
    message: str = ""
    params: dict = field(default_factory=dict)
    duplicate: bool = False

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "version": self.version,
            "code": self.code,
            "message": self.message,
            "params": self.params,
        }


@dataclass
class ParsedCommand:
    """One command, read by its form: ``fields`` are the normalised values the form kept."""

    id: uuid.UUID
    action: str
    expected: int | None
    fields: dict
