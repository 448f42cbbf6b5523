"""One vocabulary of refusals (docs/architecture.md, "Refusals"): a service refuses with
``floor.errors.Refused(code, message)``. A plain ``ValidationError`` in a service is only a
field error (a dict: the form shows it by its field). Walked with ``ast``."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
APPS = ["floor", "staff", "tables", "cashdesk", "game"]

# Write paths outside a services module (split out of one to keep it short).
WRITE_MODULES = {
    "game/configuration/services.py",
    "staff/replacements.py",
    "cashdesk/slips.py",
    "cashdesk/days.py",
    "cashdesk/corrections.py",
}
# Modules not converted yet, with the reason.
PENDING: dict[str, str] = {}


def _service_modules():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "/services" in relative or relative in WRITE_MODULES:
                yield relative, path


def _plain_refusals(path: pathlib.Path):
    """Line numbers of ``raise ValidationError(<not a dict>, ...)``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and getattr(node.exc.func, "id", None) == "ValidationError"
            and not (node.exc.args and isinstance(node.exc.args[0], ast.Dict))
        ):
            yield node.lineno


def test_services_refuse_with_refused():
    found = [
        f"{relative}:{line}"
        for relative, path in _service_modules()
        if relative not in PENDING
        for line in _plain_refusals(path)
    ]
    assert not found, "raise floor.errors.Refused(code, message) instead:\n" + "\n".join(found)


def test_the_pending_list_is_still_true():
    modules = dict(_service_modules())
    done = [name for name in PENDING if not list(_plain_refusals(modules[name]))]
    assert not done, "converted: take it off PENDING:\n" + "\n".join(done)
