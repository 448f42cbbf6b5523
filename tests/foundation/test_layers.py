"""The apps import one another in one direction only (docs/architecture.md):

    feed ← floor ← staff ← tables ← cashdesk ← game ← benchmarks   (casino, the project, on top)

``feed`` is the realtime kernel: it imports Django, Channels and Redis, none of the apps.
``benchmarks`` (run by hand, never by a request) may use every app; no app imports it.

No cycle, and no import between apps placed inside a function (an import hidden in a
function to dodge a cycle is a cycle). Walked with ``ast`` over the apps' own code
(migrations are history and may use anything)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAYERS = ["feed", "floor", "staff", "tables", "cashdesk", "game", "benchmarks", "casino"]


def _imports():
    """(app, imported app, inside a function?, where) for every import between apps."""
    for app in LAYERS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            top = {id(node) for node in tree.body}
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    other = module.split(".")[0]
                    if other in LAYERS and other != app:
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        yield app, other, id(node) not in top, where


def test_every_app_imports_only_the_layers_below_it():
    upward = [
        f"{where}: {app} imports {other}"
        for app, other, _inside, where in _imports()
        if LAYERS.index(other) > LAYERS.index(app)
    ]
    assert not upward, "\n".join(upward)


def test_no_app_imports_another_inside_a_function():
    hidden = [
        f"{where}: {app} imports {other} inside a function"
        for app, other, inside, where in _imports()
        if inside
    ]
    assert not hidden, "\n".join(hidden)


def test_the_engine_imports_nothing_but_the_standard_library():
    import sys

    allowed = set(sys.stdlib_module_names) | {"game"}
    for path in (ROOT / "game" / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                head = name.split(".")[0]
                assert head in allowed, f"{path.relative_to(ROOT)} imports {name}"
                if head == "game":
                    assert name.startswith("game.engine"), f"{path} imports {name}"
