"""Both languages are complete, in step with the source, compiled, and actually served.

How these tests fail when a Russian translation is missing:
- a string marked in the source but never extracted is caught by
  ``test_catalogues_are_in_sync_with_the_source`` (it re-extracts into a copy and compares);
- an extracted string left untranslated (empty msgstr), fuzzy, with a missing plural form or a
  broken placeholder is caught by ``test_catalogue_is_complete``;
  ``test_completeness_check_catches_a_missing_translation`` proves that check on a deliberately
  broken copy, so the check itself cannot silently pass everything;
- a translation added to the .po but not compiled is caught by
  ``test_compiled_catalogue_matches_the_po`` (the app reads only the .mo);
- and ``test_sign_in_page_is_served_in_russian_and_switches_to_english`` renders a real page:
  without the Russian msgstr for its labels the page shows English and the assertions fail.

To fix any of them: ``make messages``, translate what ``scripts/catalogues.py todo`` lists in
locale/ru/LC_MESSAGES/django.po, then ``make messages`` again (see the Makefile).
"""

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ("ru", "en")
NPLURALS = {"ru": 3, "en": 2}
RU_PLURAL_FORMS = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);"
)
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]|\{\w*\}")
FIX = "run `make messages`, translate what `scripts/catalogues.py todo` lists, `make messages`"


def po_path(language: str, locale_dir: Path = LOCALE) -> Path:
    return locale_dir / language / "LC_MESSAGES" / "django.po"


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def catalogue_problems(path: Path, nplurals: int) -> list[str]:
    """Everything that makes a catalogue incomplete: one line per problem."""
    po = polib.pofile(str(path))
    problems = []
    if po.metadata_is_fuzzy:
        problems.append("the header is fuzzy (msgfmt would ignore it)")
    match = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    if not match or int(match.group(1)) != nplurals:
        problems.append(f"Plural-Forms must have nplurals={nplurals}")
    for entry in po.obsolete_entries():
        problems.append(f"obsolete entry {entry.msgid!r}")
    for entry in po:
        if entry.obsolete:
            continue
        name = repr(entry.msgid)
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {name}")
        if entry.msgid_plural:
            forms = entry.msgstr_plural
            if sorted(forms) != list(range(nplurals)):
                problems.append(f"{name}: needs {nplurals} plural forms, has {sorted(forms)}")
            expected = set(placeholders(entry.msgid_plural))
            for index, text in forms.items():
                if not text:
                    problems.append(f"untranslated: {name} (plural form {index})")
                elif set(placeholders(text)) != expected:
                    problems.append(f"placeholders differ: {name} (plural form {index})")
        elif not entry.msgstr:
            problems.append(f"untranslated: {name}")
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            problems.append(
                f"placeholders differ: {name}: {placeholders(entry.msgid)} in the msgid, "
                f"{placeholders(entry.msgstr)} in the msgstr"
            )
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_complete(language):
    problems = catalogue_problems(po_path(language), NPLURALS[language])
    assert not problems, f"locale/{language} is incomplete ({FIX}):\n" + "\n".join(problems)


def test_russian_plural_rule_is_the_gettext_one():
    po = polib.pofile(str(po_path("ru")))
    assert po.metadata["Plural-Forms"] == RU_PLURAL_FORMS
    assert po.metadata["Language"] == "ru"


def test_completeness_check_catches_a_missing_translation(tmp_path):
    """The check above, run on a copy of the Russian catalogue with one translation removed,
    one marked fuzzy, one placeholder dropped and one plural form emptied."""
    po = polib.pofile(str(po_path("ru")))
    singles = [e for e in po if not e.msgid_plural and not e.obsolete]
    with_placeholder = next(e for e in singles if placeholders(e.msgid))
    others = [e for e in singles if e is not with_placeholder]
    untranslated, fuzzy = others[0], others[1]
    untranslated.msgstr = ""
    fuzzy.flags.append("fuzzy")
    with_placeholder.msgstr = PLACEHOLDER.sub("", with_placeholder.msgstr)
    plural = next((e for e in po if e.msgid_plural), None)
    if plural is not None:
        plural.msgstr_plural[2] = ""
    broken = tmp_path / "django.po"
    po.save(str(broken))

    problems = "\n".join(catalogue_problems(broken, 3))

    assert f"untranslated: {untranslated.msgid!r}" in problems
    assert f"fuzzy: {fuzzy.msgid!r}" in problems
    assert f"placeholders differ: {with_placeholder.msgid!r}" in problems
    if plural is not None:
        assert f"untranslated: {plural.msgid!r} (plural form 2)" in problems


def _msgids(path: Path) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in polib.pofile(str(path)) if not e.obsolete}


def test_catalogues_are_in_sync_with_the_source(tmp_path):
    """Extract again, into a copy, with the same command ``make messages`` runs: every string
    marked in the source must already be in the committed catalogues, and nothing stale."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        require_service(
            "GNU gettext (xgettext, msgmerge) is not installed: apt-get install gettext"
        )
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy)
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "catalogues.py"), "extract", "--into", str(copy)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for language in LANGUAGES:
        source = _msgids(po_path(language, copy))
        committed = _msgids(po_path(language))
        missing = sorted(msgid for _, msgid in source - committed)
        stale = sorted(msgid for _, msgid in committed - source)
        assert not missing, (
            f"marked in the source but missing from locale/{language} ({FIX}):\n"
            + "\n".join(map(repr, missing))
        )
        assert not stale, (
            f"in locale/{language} but no longer in the source ({FIX}):\n"
            + "\n".join(map(repr, stale))
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_the_po(language):
    """The app reads the committed .mo (a fresh machine may have no msgfmt): it must say
    exactly what the .po says."""
    po = polib.pofile(str(po_path(language)))
    with open(po_path(language).with_suffix(".mo"), "rb") as handle:
        mo = gettext.GNUTranslations(handle)
    assert mo.info().get("plural-forms") == po.metadata["Plural-Forms"]
    plural_index = gettext.c2py(po.metadata["Plural-Forms"].split("plural=", 1)[1].rstrip(";"))
    stale = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            for n in (0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 101, 111):
                expected = entry.msgstr_plural[plural_index(n)]
                if entry.msgctxt:
                    got = mo.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                else:
                    got = mo.ngettext(entry.msgid, entry.msgid_plural, n)
                if got != expected:
                    stale.append(f"{entry.msgid!r} (n={n}): .mo {got!r}, .po {expected!r}")
        else:
            if entry.msgctxt:
                got = mo.pgettext(entry.msgctxt, entry.msgid)
            else:
                got = mo.gettext(entry.msgid)
            if got != entry.msgstr:
                stale.append(f"{entry.msgid!r}: .mo {got!r}, .po {entry.msgstr!r}")
    assert not stale, "the .mo is older than the .po: run `make messages`\n" + "\n".join(stale)


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 открытое оповещение"),
        (3, "3 открытых оповещения"),
        (5, "5 открытых оповещений"),
        (11, "11 открытых оповещений"),
        (21, "21 открытое оповещение"),
        (24, "24 открытых оповещения"),
    ],
)
def test_russian_plurals_are_served_in_three_forms(n, expected):
    with translation.override("ru"):
        text = translation.ngettext("%(counter)s open alert", "%(counter)s open alerts", n) % {
            "counter": n
        }
    assert text == expected


def test_sign_in_page_is_served_in_russian_and_switches_to_english(db):
    client = Client(headers={"accept-language": "ru"})
    login = reverse("staff:login")

    page = client.get(login).content.decode()

    assert '<html lang="ru">' in page
    for russian in ("Вход по паролю", "Логин", "Пароль", "Войти", "Вход по PIN-коду"):
        assert russian in page, f"{russian!r} is not on the Russian sign-in page"
    assert "Sign in with password" not in page

    client.post(reverse("staff:language"), {"language": "en", "next": login})
    page = client.get(login).content.decode()

    assert '<html lang="en">' in page
    for english in ("Sign in with password", "Username", "Password", "Sign in with PIN"):
        assert english in page
    assert "Вход по паролю" not in page
