"""Reading the content files (``games/content``).

``structure.toml`` fixes the order, anchors and clause ids of the rules and
glossary; ``<lang>.toml`` holds one language's titles, bodies, terms and
definitions. ``start/structure.toml`` and ``start/<lang>.toml`` hold the
one-page start ("Play in two minutes"). ``sources/<lang>.toml`` records, for
each unit of a translation, the fingerprint of the English it was translated
from (machine-written by ``content_status --mark``).

The directory is ``settings.SNAP_CONTENT_DIR`` when set (tests point it at a
copy), else the ``content`` folder beside this module.
"""

import hashlib
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

CONTENT_DIR = Path(__file__).resolve().parent  # the content files sit beside this module
LANGUAGE_CODES = ("en", "ms", "mr", "he", "ta", "hr")
TRANSLATED_LANGUAGES = LANGUAGE_CODES[1:]

# A unit is one translatable piece of text: kind -> its text fields, in order.
UNIT_FIELDS = {
    "sections": ("title", "body"),
    "glossary": ("term", "definition"),
    "start": ("title", "body"),
}
# What a sources file says for a unit whose text is not a translation yet.
UNTRANSLATED = "untranslated"
_FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class ContentError(ValueError):
    """A content file is missing, malformed or incomplete."""


@dataclass(frozen=True)
class SectionShape:
    slug: str
    order: int
    clauses: tuple[str, ...]


@dataclass(frozen=True)
class ContentShape:
    sections: tuple[SectionShape, ...]
    glossary: tuple[str, ...]
    start: tuple[str, ...] = ()

    def slugs(self, kind: str) -> tuple[str, ...]:
        if kind == "sections":
            return tuple(s.slug for s in self.sections)
        return getattr(self, kind)

    def unit_ids(self) -> list[str]:
        """Every unit as ``kind.slug``, e.g. ``sections.play``, ``start.deal``."""
        return [f"{kind}.{slug}" for kind in UNIT_FIELDS for slug in self.slugs(kind)]


def content_dir() -> Path:
    from django.conf import settings

    return Path(getattr(settings, "SNAP_CONTENT_DIR", None) or CONTENT_DIR)


_TYPOGRAPHY = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})


def fingerprint(*texts: str) -> str:
    """A short, stable digest of a unit's English text.

    Curly and straight quotes, and the way lines are broken, do not count:
    only a change of wording makes a translation stale.

    >>> fingerprint("Snap", "A “fast” game.") == fingerprint("Snap", 'A  "fast"\\n game.')
    True
    >>> fingerprint("Snap", "A fast game.") == fingerprint("Snap", "A slow game.")
    False
    >>> len(fingerprint("Snap"))
    16
    """
    parts = (
        " ".join(unicodedata.normalize("NFC", text).translate(_TYPOGRAPHY).split())
        for text in texts
    )
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


CURRENT, STALE, MISSING = "current", "stale", "missing"


def translation_state(english: tuple[str, ...], translated: tuple[str, ...], source: str) -> str:
    """Whether a translation is current, stale (the English changed since) or missing.

    >>> english = ("Deal", "Deal the cards.")
    >>> translation_state(english, ("Bahagi", "Bahagikan kad."), fingerprint(*english))
    'current'
    >>> translation_state(english, ("Bahagi", "Bahagikan kad."), fingerprint("Deal", "Old text."))
    'stale'
    >>> translation_state(english, ("Bahagi", ""), fingerprint(*english))
    'missing'
    >>> translation_state(english, ("Bahagi", "Bahagikan kad."), "")
    'missing'
    """
    if not source or not all(text and text.strip() for text in translated):
        return MISSING
    return CURRENT if source == fingerprint(*english) else STALE


def is_fingerprint(value) -> bool:
    return isinstance(value, str) and bool(_FINGERPRINT.match(value))


def _load_toml(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ContentError(f"{path.name}: file is missing") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path.name}: {exc}") from exc


def load_shape(directory: Path | None = None) -> ContentShape:
    directory = directory or content_dir()
    raw = _load_toml(directory / "structure.toml")
    sections = tuple(
        SectionShape(slug=s["slug"], order=i, clauses=tuple(s.get("clauses", ())))
        for i, s in enumerate(raw.get("section", ()), start=1)
    )
    start = _load_toml(directory / "start" / "structure.toml").get("steps", ())
    return ContentShape(
        sections=sections, glossary=tuple(raw.get("glossary", ())), start=tuple(start)
    )


def _read_units(raw: dict, kind: str, slugs, file_name: str) -> dict:
    fields = UNIT_FIELDS[kind]
    table = raw.get(kind, {})
    out = {}
    for slug in slugs:
        entry = table.get(slug)
        if not isinstance(entry, dict):
            raise ContentError(f"{file_name}: [{kind}.{slug}] is missing")
        for field in fields:
            value = entry.get(field)
            if not isinstance(value, str) or not value.strip():
                raise ContentError(f"{file_name}: {kind}.{slug}.{field} is empty")
        out[slug] = {f: entry[f].strip() for f in fields}
    extra = set(table) - set(slugs)
    if extra:
        raise ContentError(f"{file_name}: unknown {kind} {sorted(extra)}")
    return out


def load_language(lang: str, shape: ContentShape, directory: Path | None = None) -> dict:
    """Return ``{kind: {slug: {field: text}}}`` for sections, glossary and start.

    Raises ContentError naming the first missing or empty field.
    """
    directory = directory or content_dir()
    raw = _load_toml(directory / f"{lang}.toml")
    out = {
        kind: _read_units(raw, kind, shape.slugs(kind), f"{lang}.toml")
        for kind in ("sections", "glossary")
    }
    start = _load_toml(directory / "start" / f"{lang}.toml")
    out["start"] = _read_units(start, "start", shape.start, f"start/{lang}.toml")
    return out


def unit_texts(texts: dict, unit_id: str) -> tuple[str, ...]:
    """The text fields of one unit, in order, from ``load_language``'s result."""
    kind, slug = unit_id.split(".", 1)
    entry = texts[kind][slug]
    return tuple(entry[field] for field in UNIT_FIELDS[kind])


def sources_path(lang: str, directory: Path | None = None) -> Path:
    return (directory or content_dir()) / "sources" / f"{lang}.toml"


def load_sources(lang: str, shape: ContentShape, directory: Path | None = None) -> dict:
    """``{unit_id: fingerprint}`` of one language; ``""`` where there is no record.

    A missing file means nothing is recorded yet. Units the shape no longer
    has are left out (the next ``--mark`` drops them from the file).
    """
    path = sources_path(lang, directory)
    raw = _load_toml(path) if path.exists() else {}
    out = {}
    for unit_id in shape.unit_ids():
        kind, slug = unit_id.split(".", 1)
        value = raw.get(kind, {}).get(slug, "")
        if value == UNTRANSLATED:
            value = ""
        if not isinstance(value, str) or (value and not _FINGERPRINT.match(value)):
            raise ContentError(f"sources/{lang}.toml: {unit_id} is not a fingerprint: {value!r}")
        out[unit_id] = value
    return out


def write_sources(
    lang: str, sources: dict, shape: ContentShape, directory: Path | None = None
) -> Path:
    """Write one language's sources file, every unit of the shape in order."""
    lines = [
        f"# Machine-written by `python manage.py content_status --mark {lang}`: do not edit.",
        "# For each unit of the translation, the fingerprint of the English text it was",
        f'# translated from, or "{UNTRANSLATED}" when it is not a translation yet.',
    ]
    for kind in UNIT_FIELDS:
        lines += ["", f"[{kind}]"]
        for slug in shape.slugs(kind):
            if not _SLUG.match(slug):
                raise ContentError(f"{kind}: {slug!r} is not a valid anchor")
            value = sources.get(f"{kind}.{slug}") or UNTRANSLATED
            lines.append(f'{slug} = "{value}"')
    path = sources_path(lang, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
