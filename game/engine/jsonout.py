"""JSON output with exact money: ``Decimal`` amounts print as JSON numbers (22.5, 100)."""

from __future__ import annotations

import json
from decimal import Decimal


def decimal_token(d: Decimal) -> str:
    """A Decimal as a JSON number: integral amounts without a fraction, no exponent."""
    if d == d.to_integral_value():
        return str(int(d))
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


class OneLineItems(list):
    """A list whose items print one per line, each item on a single line (an event log)."""


def dumps(obj, indent: int | None = None) -> str:
    """``json.dumps`` that writes ``Decimal`` as a number token instead of failing."""
    return "".join(_encode(obj, indent, 0))


def _encode(obj, indent, level):
    if isinstance(obj, Decimal):
        yield decimal_token(obj)
    elif isinstance(obj, dict):
        if not obj:
            yield "{}"
            return
        nl, pad, inner = _layout(indent, level)
        yield "{"
        first = True
        for k, v in obj.items():
            if not first:
                yield "," if indent is not None else ", "
            first = False
            yield nl + inner + json.dumps(str(k)) + ": "
            yield from _encode(v, indent, level + 1)
        yield nl + pad + "}"
    elif isinstance(obj, OneLineItems) and indent is not None and obj:
        nl, pad, inner = _layout(indent, level)
        yield "["
        for i, v in enumerate(obj):
            yield ("," if i else "") + nl + inner
            yield from _encode(v, None, 0)
        yield nl + pad + "]"
    elif isinstance(obj, list | tuple):
        if not obj:
            yield "[]"
            return
        nl, pad, inner = _layout(indent, level)
        inline = indent is None or all(not isinstance(v, dict | list | tuple) for v in obj)
        if inline:
            nl = pad = inner = ""  # a list of scalars (cards) stays on one line
        yield "["
        for i, v in enumerate(obj):
            if i:
                yield ", " if inline else ","
            yield nl + inner
            yield from _encode(v, indent, level + 1)
        yield nl + pad + "]"
    else:
        yield json.dumps(obj)


def _layout(indent, level):
    if indent is None:
        return "", "", ""
    return "\n", " " * (indent * level), " " * (indent * (level + 1))


def loads(text: str):
    """Parse JSON reading every non-integer number as ``Decimal`` (never float)."""
    return json.loads(text, parse_float=Decimal)
