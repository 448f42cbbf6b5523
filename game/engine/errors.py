"""Typed errors of the engine.

Every error carries a stable machine ``code`` (the live table translates by it), an English
``message`` a croupier understands, and ``params`` with the details a translation needs.
"""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""

    code = "engine_error"

    def __init__(self, message: str, *, code: str | None = None, **params):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params = params

    def to_dict(self) -> dict:
        """JSON-safe form: ``{"code", "message", "params"}``."""
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


class CardError(EngineError):
    """A card code that cannot be read, or a card the shoe cannot hold."""

    code = "bad_card"


class ShoeError(CardError):
    """The shoe cannot hold this card: all its copies are already out."""

    code = "shoe_cannot_hold"


class RulesError(EngineError):
    """A rule set that is unknown, malformed or inconsistent."""

    code = "bad_rules"


class ActionError(EngineError):
    """An action that is not legal at this point of the round."""

    code = "illegal_action"
