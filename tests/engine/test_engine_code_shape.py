"""The engine's shape, checked on its source: standard library only, and short functions.

A function over 60 lines needs its reason in a comment starting ``# long:`` on the line of its
``def`` or just above it."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "game" / "engine"
MAX_LINES = 60


def modules():
    return sorted(ENGINE.glob("*.py"))


def test_the_engine_imports_only_the_standard_library_and_itself():
    outside = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in sys.stdlib_module_names:
                    outside.append(f"{path.name}: {name}")
    assert outside == []


def test_no_engine_function_is_over_60_lines_without_a_reason():
    long = []
    for path in modules():
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            size = node.end_lineno - first + 1
            near = lines[max(first - 2, 0) : node.lineno]
            if size > MAX_LINES and not any("# long:" in line for line in near):
                long.append(f"{path.name}: {node.name} ({size} lines)")
    assert long == []
    assert modules(), "the engine's modules were not found"
