"""No function of the apps is over 60 lines unless it is listed below with its reason: a long
function is split, or its reason is written down where the next engineer looks. The engine has
its own rule (a ``# long:`` comment at the function, tests/engine/test_engine_code_shape.py).

Measured with ``ast`` from the ``def`` (or its first decorator) to the last line."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODE = ["floor", "staff", "tables", "cashdesk", "game", "benchmarks", "casino", "scripts"]
MAX_LINES = 60

LONG = {
    "benchmarks/bettors.py:play_shift": (
        "one simulated shift, round by round: the shoe, the bettor and the flat players step "
        "together, and the judge's session form is built in the same loop"
    ),
    "benchmarks/detection/__main__.py:main": (
        "the command line's argument declarations, one statement per option of each sub-command"
    ),
    "benchmarks/detection/bench.py:deviation_bench": (
        "the inner loop (one shift, round by round) keeps both deviation rules side by side "
        "so they are judged on the same draws"
    ),
    "benchmarks/management/commands/bench_cashdesk.py:_seed": (
        "a benchmark's seed: bulk rows of every cash-desk kind for every table-day, built in "
        "one pass so the figures agree with each other"
    ),
    "benchmarks/management/commands/bench_live.py:handle": (
        "one benchmark run top to bottom: its own database and Redis prefix, the workers, the "
        "screens, the open loop, the quiet wait and the clean-up, each step a call"
    ),
    "benchmarks/management/commands/bench_live.py:report": (
        "the printed table and the JSON object in the issue's key order, built side by side so "
        "the two never disagree"
    ),
}


def _functions():
    """(``path:name``, lines) of every function of the apps outside the engine."""
    for top in CODE:
        for path in (ROOT / top).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or relative.parts[:2] == ("game", "engine"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    yield f"{relative.as_posix()}:{node.name}", node.end_lineno - first + 1


def test_no_function_is_over_60_lines_without_a_listed_reason():
    long = [
        f"{name} ({size} lines)"
        for name, size in _functions()
        if size > MAX_LINES and name not in LONG
    ]
    assert not long, "split it, or add it to LONG with its reason:\n" + "\n".join(long)


def test_every_listed_function_is_still_long():
    """A function split since is taken off the list, so the list stays the truth."""
    sizes = {}
    for name, size in _functions():
        sizes[name] = max(size, sizes.get(name, 0))
    short = [name for name in LONG if sizes.get(name, 0) <= MAX_LINES]
    assert not short, "no longer over 60 lines: take it off LONG:\n" + "\n".join(short)
