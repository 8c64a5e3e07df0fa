"""Temporary copies of the content and catalogs, for tests that change them."""

import json
import re
import shutil
from pathlib import Path

import polib

from games.content.files import CONTENT_DIR, TRANSLATED_LANGUAGES, load_shape
from games.content.status import mark_translated


def copy_content(tmp_path: Path) -> Path:
    """A copy of ``games/content`` (texts, start steps, sources records)."""
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, target)
    return target


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def untranslate_start(directory: Path, lang: str) -> None:
    """``lang``'s start steps as a translator finds them: English copies recorded
    "untranslated"."""
    start = directory / "start"
    (start / f"{lang}.toml").write_text((start / "en.toml").read_text(encoding="utf-8"))
    sources = directory / "sources" / f"{lang}.toml"
    text = sources.read_text(encoding="utf-8")
    at = text.index("[start]")
    records = re.sub(r'= "[0-9a-f]+"', '= "untranslated"', text[at:])
    sources.write_text(text[:at] + records, encoding="utf-8")


def translate_start(directory: Path) -> None:
    """Stand-in translations of the start steps, the same shape in every language."""
    import tomllib

    english = tomllib.loads((directory / "start" / "en.toml").read_text(encoding="utf-8"))
    for lang in TRANSLATED_LANGUAGES:
        lines = []
        for slug, entry in english["start"].items():
            lines.append(f"[start.{slug}]")
            for field, text in entry.items():
                lines.append(f"{field} = {_toml_string(f'({lang}) {text.strip()}')}")
            lines.append("")
        (directory / "start" / f"{lang}.toml").write_text("\n".join(lines), encoding="utf-8")


def make_consistent(directory: Path) -> None:
    """Every unit of every language translated and recorded against today's English."""
    translate_start(directory)
    load_shape(directory)  # fails loudly on a broken copy
    mark_translated(TRANSLATED_LANGUAGES, [], directory)


def edit_english(directory: Path, old: str, new: str) -> None:
    path = directory / "en.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def write_catalogs(tmp_path: Path, *, fuzzy: str = "", empty: str = "") -> Path:
    """A small, complete locale tree; ``fuzzy``/``empty`` name a msgid to spoil in ``ta``."""
    locale = tmp_path / "locale"
    for lang in ("en", *TRANSLATED_LANGUAGES):
        for name in ("django.po", "djangojs.po"):
            po = polib.POFile()
            po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
            for msgid in ("Rules", "Play in two minutes"):
                entry = polib.POEntry(msgid=msgid, msgstr=f"{msgid} ({lang})")
                if lang == "ta" and msgid == fuzzy:
                    entry.flags.append("fuzzy")
                if lang == "ta" and msgid == empty:
                    entry.msgstr = ""
                po.append(entry)
            path = locale / lang / "LC_MESSAGES" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            po.save(str(path))
    return locale
