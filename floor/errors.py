"""One vocabulary of refusals.

Every service refuses with :class:`Refused`: a stable ``code`` (what tests, the protocol and
the translations key on), a message for the person in their language, and the ``params``
the message was made from. It is a Django ``ValidationError``, so forms and views handle it
as one; the live table sends ``code`` and the message to the screen. The engine (pure
Python) has its own ``EngineError`` with the same three parts; ``game.services`` turns it
into a refusal at its boundary.
"""

from django.core.exceptions import ValidationError


class Refused(ValidationError):
    """A write that was refused: nothing was changed."""

    def __init__(self, code: str, message: str = "", **params):
        super().__init__(message or code, code=code)  # the message is already made
        self.code = code
        self.text = message or code
        self.refusal_params = params

    def __str__(self) -> str:
        return self.text
