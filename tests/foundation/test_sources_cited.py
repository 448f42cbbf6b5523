"""Comments and docstrings cite the rules by docs/sources.md's anchors (docs/sources.md,
"Citing"): the source documents and their digest are not in the repository, so "document 000"
or "DOMAIN.md" sends a reader nowhere, and an anchor that is not there sends him nowhere too."""

import ast
import io
import pathlib
import re
import tokenize

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODE = ["floor", "staff", "tables", "cashdesk", "game", "benchmarks", "casino", "scripts", "tests"]
CITE = re.compile(r"docs/sources\.md#([a-z0-9-]+)")
UNREADABLE = re.compile(r"\bdocuments? 00[0-4]\b|\bDOMAIN\.md\b|\bthe digest\b", re.IGNORECASE)


def _anchors() -> set[str]:
    """GitHub's slug of every heading of docs/sources.md."""
    text = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _python_files():
    for top in CODE:
        for path in (ROOT / top).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def _comments_and_docstrings(path: pathlib.Path):
    """(line, text) of every comment and docstring of a Python file."""
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.body[0].lineno, doc


def test_no_comment_cites_a_document_the_repository_does_not_hold():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {UNREADABLE.search(text).group(0)!r}"
        for path in _python_files()
        if path.name != pathlib.Path(__file__).name
        for line, text in _comments_and_docstrings(path)
        if UNREADABLE.search(text)
    ]
    assert not found, "cite docs/sources.md#<rule> instead:\n" + "\n".join(found)


def test_every_cited_rule_is_in_sources():
    anchors = _anchors()
    texts = [*_python_files(), *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    missing = [
        f"{path.relative_to(ROOT)}: #{anchor}"
        for path in texts
        for anchor in CITE.findall(path.read_text(encoding="utf-8"))
        if anchor not in anchors
    ]
    assert anchors >= {"presets", "cut-card-position", "box-reservation"}
    assert not missing, "no such rule in docs/sources.md:\n" + "\n".join(missing)
