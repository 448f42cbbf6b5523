"""Keep locale/ru and locale/en in step with the source.

    python scripts/catalogues.py extract [--into DIR]   # makemessages for ru and en
    python scripts/catalogues.py fill-en                # English: msgstr = msgid, no fuzzy
    python scripts/catalogues.py todo                   # Russian entries still to translate

``extract`` is the one place that says what is scanned (the ``IGNORE`` list); ``make messages``
and tests/foundation/test_translations.py both go through it. ``--into DIR`` writes the
catalogues into DIR/<lang>/LC_MESSAGES instead of locale/, so a test can extract into a copy.
Both ``extract`` and ``fill-en`` also put the right Language and Plural-Forms in the headers:
makemessages copies Django's four-form Russian header into a new file, and GNU gettext's
three-form rule is the one translators and msgfmt expect.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("ru", "en")
# Not UI: the virtualenv, collected static files, tests, the pure-Python engine (it returns
# codes that game/commands/messages.py translates), docs and build leftovers.
IGNORE = [
    ".venv",
    "staticfiles",
    "tests",
    "game/engine",
    "docs",
    "docker",
    "test-artifacts",
    "scripts",
    "*.egg-info",
]
PLURAL_FORMS = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
    "en": "nplurals=2; plural=(n != 1);",
}


def catalogue(language: str, locale_dir: Path = LOCALE) -> Path:
    return locale_dir / language / "LC_MESSAGES" / "django.po"


def fix_header(po, language: str) -> None:
    po.metadata["Language"] = language
    po.metadata["Plural-Forms"] = PLURAL_FORMS[language]
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    po.metadata_is_fuzzy = []  # a fuzzy header makes msgfmt drop the charset and plural rule


def save(po, path: Path) -> None:
    """Save with polib, then let msgcat wrap lines the way makemessages does (no diff noise)."""
    po.save(str(path))
    if shutil.which("msgcat"):
        subprocess.run(["msgcat", "-o", str(path), str(path)], check=True)


def extract(locale_dir: Path) -> None:
    if locale_dir.resolve() != LOCALE.resolve():
        return _extract_elsewhere(locale_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("DEBUG", "1")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    settings.LOCALE_PATHS = [locale_dir]
    for language in LANGUAGES:
        catalogue(language, locale_dir).parent.mkdir(parents=True, exist_ok=True)
    call_command(
        "makemessages",
        locale=list(LANGUAGES),
        no_obsolete=True,
        ignore_patterns=IGNORE,
        verbosity=0,
    )
    import polib

    for language in LANGUAGES:
        path = catalogue(language, locale_dir)
        po = polib.pofile(str(path))
        if (po.metadata.get("Language"), po.metadata.get("Plural-Forms")) != (
            language,
            PLURAL_FORMS[language],
        ) or po.metadata_is_fuzzy:
            fix_header(po, language)
            save(po, path)


def _extract_elsewhere(locale_dir: Path) -> None:
    """makemessages writes a project's strings into the ``locale`` folder beside the sources,
    whatever LOCALE_PATHS says: to extract into another folder without touching locale/,
    extract in a copy of the sources whose locale/ is that folder, then copy it back."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(
            ROOT,
            src,
            ignore=shutil.ignore_patterns(
                ".venv",
                ".git",
                "staticfiles",
                "test-artifacts",
                "__pycache__",
                "*.sqlite3*",
                ".test-db*",
                ".hypothesis",
                ".pytest_cache",
                ".ruff_cache",
                "locale",
            ),
        )
        shutil.copytree(locale_dir, src / "locale")
        subprocess.run(
            [sys.executable, str(src / "scripts" / "catalogues.py"), "extract"],
            cwd=src,
            check=True,
        )
        shutil.rmtree(locale_dir)
        shutil.copytree(src / "locale", locale_dir)


def fill_en(locale_dir: Path) -> None:
    """English is the source language: every msgstr is its msgid, so the catalogue is complete
    and a fuzzy guess from msgmerge can never show a wrong English text."""
    import polib

    path = catalogue("en", locale_dir)
    po = polib.pofile(str(path))
    fix_header(po, "en")
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
        if entry.msgid_plural:
            entry.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
        else:
            entry.msgstr = entry.msgid
    save(po, path)


def todo(locale_dir: Path) -> int:
    """Print the Russian entries that are untranslated or fuzzy; exit 1 if there are any."""
    import polib

    po = polib.pofile(str(catalogue("ru", locale_dir)))
    left = [
        e
        for e in po
        if not e.obsolete
        and (
            "fuzzy" in e.flags
            or (not e.msgstr_plural and not e.msgstr)
            or (e.msgstr_plural and not all(e.msgstr_plural.values()))
        )
    ]
    for entry in left:
        mark = "fuzzy" if "fuzzy" in entry.flags else "untranslated"
        print(f"{mark}: {entry.msgid!r} ({', '.join(f'{f}:{n}' for f, n in entry.occurrences)})")
    print(f"{len(left)} Russian entries to translate in {catalogue('ru', locale_dir)}")
    return 1 if left else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["extract", "fill-en", "todo"])
    parser.add_argument("--into", type=Path, default=LOCALE, help="locale directory to write")
    args = parser.parse_args(argv)
    locale_dir = args.into.resolve()
    if args.command == "extract":
        extract(locale_dir)
        return 0
    if args.command == "fill-en":
        fill_en(locale_dir)
        return 0
    return todo(locale_dir)


if __name__ == "__main__":
    sys.exit(main())
