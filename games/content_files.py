"""Reading the rules content files (``games/content/*.toml``).

``structure.toml`` fixes the order, anchors and clause ids; ``<lang>.toml``
holds one language's titles, bodies, terms and definitions.
"""

import tomllib
from dataclasses import dataclass
from pathlib import Path

CONTENT_DIR = Path(__file__).resolve().parent / "content"
LANGUAGE_CODES = ("en", "ms", "mr", "he", "ta", "hr")


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


def _load_toml(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ContentError(f"{path.name}: file is missing") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path.name}: {exc}") from exc


def load_shape(content_dir: Path = CONTENT_DIR) -> ContentShape:
    raw = _load_toml(content_dir / "structure.toml")
    sections = tuple(
        SectionShape(slug=s["slug"], order=i, clauses=tuple(s.get("clauses", ())))
        for i, s in enumerate(raw.get("section", ()), start=1)
    )
    return ContentShape(sections=sections, glossary=tuple(raw.get("glossary", ())))


def load_language(lang: str, shape: ContentShape, content_dir: Path = CONTENT_DIR) -> dict:
    """Return ``{"sections": {slug: {title, body}}, "glossary": {slug: {term, definition}}}``.

    Raises ContentError naming the first missing or empty field.
    """
    raw = _load_toml(content_dir / f"{lang}.toml")
    out: dict = {"sections": {}, "glossary": {}}
    for kind, slugs, fields in (
        ("sections", [s.slug for s in shape.sections], ("title", "body")),
        ("glossary", list(shape.glossary), ("term", "definition")),
    ):
        table = raw.get(kind, {})
        for slug in slugs:
            entry = table.get(slug)
            if not isinstance(entry, dict):
                raise ContentError(f"{lang}.toml: [{kind}.{slug}] is missing")
            for field in fields:
                value = entry.get(field)
                if not isinstance(value, str) or not value.strip():
                    raise ContentError(f"{lang}.toml: {kind}.{slug}.{field} is empty")
            out[kind][slug] = {f: entry[f].strip() for f in fields}
        extra = set(table) - set(slugs)
        if extra:
            raise ContentError(f"{lang}.toml: unknown {kind} {sorted(extra)}")
    return out
