"""Finds catalog texts a template writes into an HTML attribute without escaping them.

Django escapes ``{{ variable }}`` but not what ``{% translate "…" %}`` or
``{% blocktranslate %}`` print: a translation holding an ASCII quote (Hebrew writes
abbreviations with one) ends the attribute there and turns the rest into attributes of
its own. Stored with ``as`` / ``asvar`` it is still marked safe, so inside an attribute a
template prints it through ``force_escape``: ``{% translate "…" as x %}{{ x|force_escape }}``
(a ``blocktranslate … asvar x`` with names in it inside ``{% autoescape off %}``, so each
character is escaped once).

The scan follows the HTML around the template tags: a tag's attributes, quoted or not,
and the blocks a template opens inside one (a child template's ``{% block description %}``
lands in ``<meta content="…">`` of the base page).
"""

import re
from dataclasses import dataclass
from pathlib import Path

TEMPLATE_TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", re.S)
PRINTING_TRANSLATION = re.compile(
    r"\{%\s*(translate|trans|blocktranslate|blocktrans)\b(.*?)%\}", re.S
)
STORED_AS = re.compile(
    r"\{%\s*(?:translate|trans|blocktranslate|blocktrans)\b.*?\bas(?:var)?\s+(\w+)", re.S
)
VARIABLE = re.compile(r"\{\{\s*(\w+)(.*?)\}\}", re.S)
BLOCK_OPEN = re.compile(r"\{%\s*block\s+(\w+)")
BLOCK_CLOSE = re.compile(r"\{%\s*endblock\b")
TRANSLATION_CLOSE = re.compile(r"\{%\s*(endblocktranslate|endblocktrans)\b")


@dataclass(frozen=True)
class Place:
    """A translation printed where an attribute's value is."""

    template: str
    line: int
    tag: str

    def __str__(self) -> str:
        return f"{self.template}:{self.line}: {self.tag}"


def _prints_text(tag: str) -> bool:
    """Whether a translate tag prints its text (not stored with ``as`` / ``asvar``)."""
    match = PRINTING_TRANSLATION.fullmatch(tag)
    if not match:
        return False
    words = re.findall(r'"[^"]*"|\'[^\']*\'|\S+', match.group(2))
    return "as" not in words and "asvar" not in words


def _in_attribute_flags(source: str) -> list[tuple[int, str, bool]]:
    """Each template tag of ``source`` with its offset and whether it sits inside an
    HTML start tag (between ``<name`` and ``>``, in a value or not)."""
    found = []
    state = "data"  # data, tag, double, single, unquoted, comment, raw
    raw_end = ""
    i = 0
    while i < len(source):
        match = TEMPLATE_TAG.match(source, i)
        if match:
            in_tag = state in ("tag", "double", "single", "unquoted")
            found.append((i, match.group(0), in_tag))
            i = match.end()
            continue
        ch = source[i]
        if state == "data":
            if source.startswith("<!--", i):
                state, i = "comment", i + 4
                continue
            name = re.match(r"<([a-zA-Z][\w-]*)", source[i:])
            if name:
                state = "tag"
                raw_end = (
                    name.group(1).lower() if name.group(1).lower() in ("script", "style") else ""
                )
                i += len(name.group(0))
                continue
        elif state == "comment":
            if source.startswith("-->", i):
                state, i = "data", i + 3
                continue
        elif state == "raw":
            if source[i:].lower().startswith(f"</{raw_end}"):
                state = "data"
        elif state == "tag":
            if ch == ">":
                state = "raw" if raw_end else "data"
            elif ch == '"':
                state = "double"
            elif ch == "'":
                state = "single"
            elif ch == "=" and i + 1 < len(source) and source[i + 1] not in "\"' \n\t>":
                state = "unquoted"
        elif state == "double":
            if ch == '"':
                state = "tag"
        elif state == "single":
            if ch == "'":
                state = "tag"
        elif state == "unquoted":
            if ch in " \n\t":
                state = "tag"
            elif ch == ">":
                state = "raw" if raw_end else "data"
        i += 1
    return found


def _line(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def attribute_blocks(sources: dict[str, str]) -> set[str]:
    """The names of the blocks some template opens inside an HTML tag."""
    names = set()
    for source in sources.values():
        for _, tag, in_tag in _in_attribute_flags(source):
            opened = BLOCK_OPEN.match(tag)
            if in_tag and opened:
                names.add(opened.group(1))
    return names


def unescaped_places(sources: dict[str, str]) -> list[Place]:
    """Every translation printed straight into an attribute, in ``sources``
    (template name -> text)."""
    blocks = attribute_blocks(sources)
    places = []
    for name, source in sorted(sources.items()):
        stored = set(STORED_AS.findall(source))
        inside_block = 0  # depth of open blocks that land in an attribute
        open_blocks: list[bool] = []
        inside_translation = False
        for offset, tag, in_tag in _in_attribute_flags(source):
            opened = BLOCK_OPEN.match(tag)
            if opened:
                lands_in_attribute = opened.group(1) in blocks
                open_blocks.append(lands_in_attribute)
                inside_block += lands_in_attribute
                continue
            if BLOCK_CLOSE.match(tag) and open_blocks:
                inside_block -= open_blocks.pop()
                continue
            if TRANSLATION_CLOSE.match(tag):
                inside_translation = False
                continue
            if inside_translation:
                continue
            printed = VARIABLE.fullmatch(tag)
            unescaped_variable = (
                printed and printed.group(1) in stored and "force_escape" not in printed.group(2)
            )
            if (_prints_text(tag) or unescaped_variable) and (in_tag or inside_block):
                places.append(Place(name, _line(source, offset), " ".join(tag.split())))
            if PRINTING_TRANSLATION.fullmatch(tag) and tag.lstrip("{% ").startswith("block"):
                inside_translation = True
    return places


def project_templates(root: Path) -> dict[str, str]:
    """The project's templates (its own and each face's), by path from ``root``."""
    files = [*root.glob("templates/**/*.html"), *root.glob("games/*/templates/**/*.html")]
    return {str(path.relative_to(root)): path.read_text(encoding="utf-8") for path in files}
