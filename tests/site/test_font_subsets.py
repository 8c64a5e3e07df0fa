"""The web fonts (games/web_fonts.py, made by games/web_fonts/subset.py): every character that
a page in each language can show, and that the full Noto fonts draw, is drawn by that
language's WOFF2 subsets and falls in their unicode-range; the stylesheets declare exactly
those ranges, carry no @import, and the fonts' license ships with them."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from fontTools.ttLib import TTFont

from games.web_fonts import LANGUAGE_SCRIPTS, SCRIPTS, WEIGHTS, output_name, preloaded
from tests.conftest import LANGUAGE_CODES

ROOT = Path(settings.BASE_DIR)
FONTS = ROOT / "games" / "static" / "games" / "fonts"
CSS = ROOT / "games" / "static" / "games" / "css"
FULL_FONTS = sorted(FONTS.glob("*.ttf"))
#: Characters the site shows that no shipped Noto font draws: the suits, arrows and the
#: brand's card come from the device's own symbol fonts, as they always did.
DEVICE_SYMBOLS = set("♠♣♥♦←→🂡✓☐")


@cache
def cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(path).getBestCmap())


@cache
def full_coverage() -> frozenset[int]:
    return frozenset().union(*(cmap(p) for p in FULL_FONTS))


def catalog_text(lang: str) -> str:
    """Every translated text of the language's compiled catalogs (django and djangojs)."""
    parts = []
    for domain in ("django", "djangojs"):
        for entry in polib.mofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.mo")):
            parts.append(entry.msgstr or entry.msgid)
            parts.extend(entry.msgstr_plural.values())
    return "".join(parts)


def content_text(lang: str) -> str:
    """The rules, glossary and start steps of the language, and its walkthroughs' cast."""
    files = [ROOT / "games" / "content" / f"{lang}.toml"]
    files.append(ROOT / "games" / "content" / "start" / f"{lang}.toml")
    text = "".join(p.read_text() for p in files if p.exists())
    cast = tomllib.loads((ROOT / "games" / "scenarios" / "cast.toml").read_text())
    return text + "".join(cast.get(lang, []))


def shown_characters(lang: str) -> set[str]:
    text = catalog_text(lang) + content_text(lang)
    return {c for c in text if c.isprintable() and not c.isspace()}


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_character_of_a_language_is_in_its_own_subsets(lang):
    scripts = LANGUAGE_SCRIPTS[lang]
    chars = shown_characters(lang)
    assert len(chars) > 60  # the catalogs and content were read
    missing, outside = [], []
    for char in sorted(chars):
        code = ord(char)
        if code not in full_coverage():
            outside.append(char)
            continue
        drawn_by = [s for s in scripts if s.covers(char)]
        if not drawn_by:
            missing.append(f"U+{code:04X} {char} in no unicode-range")
        for script in drawn_by[:1]:  # the first family whose range holds it draws it
            for weight in WEIGHTS:
                if code not in cmap(FONTS / output_name(script, weight)):
                    missing.append(f"U+{code:04X} {char} not in {output_name(script, weight)}")
    assert not missing, missing
    assert set(outside) <= DEVICE_SYMBOLS, sorted(set(outside) - DEVICE_SYMBOLS)


def test_a_tamil_or_hebrew_page_needs_none_of_the_other_scripts_files():
    for lang, other in (("ta", "hebrew"), ("he", "tamil"), ("ta", "devanagari")):
        needed = {s.name for s in LANGUAGE_SCRIPTS[lang]}
        hits = [c for c in shown_characters(lang) if any(
            s.covers(c) for s in SCRIPTS if s.name == other
        )]  # fmt: skip
        assert other not in needed and not hits, (lang, hits)
        assert not [p for p in preloaded(lang) if other in p]


def test_the_stylesheets_declare_each_subset_with_its_range():
    for name in ("site.css", "sheet-web-fonts.css"):
        css = (CSS / name).read_text()
        faces = re.findall(r"@font-face \{[^}]*\}", css)
        assert len(faces) == len(SCRIPTS) * len(WEIGHTS), name
        for script in SCRIPTS:
            for weight in WEIGHTS:
                face = next(f for f in faces if output_name(script, weight) in f)
                assert f'font-family: "{script.family}"' in face
                assert f"font-weight: {weight};" in face
                assert f"unicode-range: {script.unicode_range()};" in face
                assert 'format("woff2")' in face
        assert ".ttf" not in css


def test_no_stylesheet_imports_another():
    sheets = sorted((ROOT / "games" / "static").rglob("*.css"))
    assert len(sheets) > 5
    assert not [p.name for p in sheets if "@import" in p.read_text()]


def test_the_subsets_are_small_and_keep_the_fonts_copyright_and_license():
    total = 0
    for script in SCRIPTS:
        for weight in WEIGHTS:
            path = FONTS / output_name(script, weight)
            total += path.stat().st_size
            names = TTFont(path)["name"]
            assert "Google" in (names.getDebugName(0) or "")
            assert "Open Font License" in (names.getDebugName(13) or "")
    assert total < 200 * 1024  # the eight full TTFs: 1.7 MB


def test_the_fonts_license_file_ships_with_the_static_files():
    path = finders.find("vendor/noto-fonts-COPYRIGHT.txt")
    assert path, "served at /static/vendor/noto-fonts-COPYRIGHT.txt"
    text = Path(path).read_text()
    assert "SIL Open Font License" in text and "Google" in text
