"""Channel-layer group names: who receives what.

A fragment is sent to the group of the screens that show it in one language — so a publish
renders each (fragment, language) pair once and each screen receives only its own. Every
socket also joins its person's group, through which their screens are closed when their
session or right to a table ends.
"""

FRAGMENTS = ("live", "tile")


def fragment_group(table_id: int, fragment: str, language: str) -> str:
    """The screens showing ``fragment`` (``live``: a table's screens; ``tile``: the
    inspector's tile) of ``table_id`` in ``language``."""
    return f"table.{int(table_id)}.{fragment}.{language}"


def duty_group(language: str) -> str:
    return f"duty.{language}"


def user_group(user_id: int) -> str:
    return f"user.{int(user_id)}"
