"""The site's web fonts as data: one WOFF2 subset of Noto per script and weight, the
`unicode-range` each is declared with (games/static/games/css/site.css), and which of
them a page in each language preloads (base.html, via games/context_processors.py).

games/web_fonts/subset.py makes the files from this data; tests/site/test_font_subsets.py
checks that the CSS declares exactly these ranges and that every character of each
language's catalogs and content is covered. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

# The weights the site's CSS uses: 400 (text) and 700 (headings, buttons, names).
WEIGHTS = {400: "Regular", 700: "Bold"}


@dataclass(frozen=True)
class Script:
    """One subset family: its CSS family name, source font, output name and ranges."""

    family: str
    source: str  # the source's name without "-Regular.ttf" / "-Bold.ttf"
    name: str  # the output's name: snap-<name>-<weight>.woff2
    ranges: tuple[tuple[int, int], ...]

    def unicode_range(self) -> str:
        """The ranges as CSS writes them: U+0000-00FF, U+0131, ..."""
        parts = []
        for first, last in self.ranges:
            parts.append(f"U+{first:04X}" if first == last else f"U+{first:04X}-{last:04X}")
        return ", ".join(parts)

    def covers(self, char: str) -> bool:
        return any(first <= ord(char) <= last for first, last in self.ranges)


# Latin: English, Malay and Croatian (č ć đ š ž in Latin Extended-A), digits and the
# punctuation every language shares (quotes, dashes, ellipsis, bidi isolates), so
# pages in the other scripts use it for those too.
LATIN = Script(
    family="Snap Sans",
    source="NotoSans",
    name="latin",
    ranges=(
        (0x0000, 0x017F),
        (0x02BB, 0x02BC),
        (0x02C6, 0x02C6),
        (0x02DA, 0x02DA),
        (0x02DC, 0x02DC),
        (0x2000, 0x206F),
        (0x20AC, 0x20AC),
        (0x2122, 0x2122),
        (0x2212, 0x2212),
        (0xFEFF, 0xFEFF),
        (0xFFFD, 0xFFFD),
    ),
)
TAMIL = Script(
    family="Snap Tamil",
    source="NotoSansTamil",
    name="tamil",
    ranges=((0x0B80, 0x0BFF), (0x25CC, 0x25CC), (0x11FC0, 0x11FFF)),
)
DEVANAGARI = Script(
    family="Snap Devanagari",
    source="NotoSansDevanagari",
    name="devanagari",
    ranges=(
        (0x0900, 0x097F),
        (0x20B9, 0x20B9),
        (0x25CC, 0x25CC),
    ),
)
HEBREW = Script(
    family="Snap Hebrew",
    source="NotoSansHebrew",
    name="hebrew",
    ranges=((0x0590, 0x05FF), (0x20AA, 0x20AA), (0x25CC, 0x25CC), (0xFB1D, 0xFB4F)),
)
SCRIPTS = (LATIN, TAMIL, DEVANAGARI, HEBREW)

# Which subsets a page in each language uses (its own script, and Latin for digits,
# punctuation and names typed in Latin letters).
LANGUAGE_SCRIPTS = {
    "en": (LATIN,),
    "ms": (LATIN,),
    "hr": (LATIN,),
    "he": (LATIN, HEBREW),
    "ta": (LATIN, TAMIL),
    "mr": (LATIN, DEVANAGARI),
}

# Besides the ranges, these characters' glyphs come along when the source has them:
# the joiners that Tamil and Devanagari shaping reads.
JOINERS = (0x200C, 0x200D)


def output_name(script: Script, weight: int) -> str:
    return f"snap-{script.name}-{weight}.woff2"


def preloaded(language: str) -> list[str]:
    """The static paths a page in `language` preloads: Latin regular and bold (digits,
    punctuation, codes and Latin names: every page has some), then its own script's
    regular and bold when that is another. All of them arrive before the first layout,
    so with `font-display: optional` they are used at once and nothing is laid out
    twice (the table pictures measure their text)."""
    own = LANGUAGE_SCRIPTS.get(language, (LATIN,))[-1]
    scripts = (LATIN,) if own is LATIN else (LATIN, own)
    return [f"games/fonts/{output_name(s, weight)}" for s in scripts for weight in WEIGHTS]
