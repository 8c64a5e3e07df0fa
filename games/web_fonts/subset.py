"""Make the site's web fonts: WOFF2 subsets of the shipped Noto TTFs, one per script
and weight, for `@font-face` rules with a `unicode-range` (games/static/games/css/site.css).

    .venv/bin/python -m games.web_fonts.subset          # write the .woff2 files (committed)
    .venv/bin/python -m games.web_fonts.subset --check  # exit 1 if a committed one differs

Why: every page used to load the eight full TTFs (798 KiB) whatever its language. With
one subset per script, declared with the script's `unicode-range`, a browser fetches
only the files whose range the page's text touches: a Tamil page fetches the Latin
and Tamil files, never the Hebrew or Devanagari ones.

The sources are the TTFs in games/static/games/fonts/, unchanged copies of Debian's
fonts-noto-core 20201225-1 (/usr/share/fonts/truetype/noto/; their copyright and the
SIL Open Font License 1.1: games/vendor/noto-fonts-COPYRIGHT.txt, served with the
static files). SOURCES names each file with its version string and SHA-256: the tool
refuses a source that differs, so the output is always made from the same fonts. The
TTFs stay in the repository: the PDF lesson sheets embed them (games/teach/sheets/pdf.py).

What a subset keeps: every character of its ranges that the source maps, every
OpenType layout feature (Tamil and Devanagari conjuncts and vowel signs are made by
GSUB/GPOS; Latin kerning), the copyright and license names; hinting is dropped (the
browsers of tablets and phones render Noto unhinted). tests/site/test_font_subsets.py
checks that every character of each language's catalogs and content that the full
fonts cover is covered by that language's subsets.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
from pathlib import Path

from games.web_fonts import JOINERS, SCRIPTS, WEIGHTS, Script, output_name

BASE_DIR = Path(__file__).resolve().parents[2]
FONTS = BASE_DIR / "games" / "static" / "games" / "fonts"

# The source TTFs: file name -> (the font's version string, SHA-256 of the file).
SOURCES = {
    "NotoSans-Regular.ttf": (
        "Version 2.004",
        "89c3c497f618fdaa0b2d1e98fef93582f28c71debd2c4a8cdf41f190ced2909d",
    ),
    "NotoSans-Bold.ttf": (
        "Version 2.004",
        "e83493c945848ecd4a9ad0f6d19164541a0d3e23a9c952304a00a46e00272ac5",
    ),
    "NotoSansHebrew-Regular.ttf": (
        "Version 3.000",
        "436900d5ad77d33e4234247f3076eaecd25b92b9bea0519514f684140e3566a7",
    ),
    "NotoSansHebrew-Bold.ttf": (
        "Version 3.000",
        "d3b01343f71e8a93fffb84c345a1aecbaf4694b98d0eaace916cb9eac9e6dcd3",
    ),
    "NotoSansTamil-Regular.ttf": (
        "Version 2.001",
        "a7bb7f92f165479af2f0556c4fd669b74c5959f464f603e18389b532f4d07a71",
    ),
    "NotoSansTamil-Bold.ttf": (
        "Version 2.001",
        "7ef7071ba2fad67dcae397dc7f5bfd4dbce69d86cdc453c2cc4abe640df0b442",
    ),
    "NotoSansDevanagari-Regular.ttf": (
        "Version 2.001",
        "79a470365ccb210fa3c7d8d8ff2e005ef9d983cfd067f735a0caf7e15070ca9f",
    ),
    "NotoSansDevanagari-Bold.ttf": (
        "Version 2.001",
        "77ad688cfe1dc55185bf4edb4db3c614202c65dd23a1463ad0e23fc52bcc9a5c",
    ),
}


def source_path(script: Script, weight: int) -> Path:
    return FONTS / f"{script.source}-{WEIGHTS[weight]}.ttf"


def check_source(path: Path) -> None:
    """Refuse a source TTF that is not the one SOURCES names."""
    from fontTools.ttLib import TTFont

    version, digest = SOURCES[path.name]
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != digest:
        raise SystemExit(f"{path.name}: SHA-256 {actual}, expected {digest}")
    found = TTFont(path)["name"].getDebugName(5) or ""
    if not found.startswith(version):
        raise SystemExit(f"{path.name}: {found!r}, expected {version}")


def subset(script: Script, weight: int) -> bytes:
    """The WOFF2 bytes of one script's subset in one weight (deterministic)."""
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    path = source_path(script, weight)
    check_source(path)
    font = TTFont(path, recalcTimestamp=False)
    mapped = set(font.getBestCmap())
    unicodes = [
        code for first, last in script.ranges for code in range(first, last + 1) if code in mapped
    ]
    unicodes += [code for code in JOINERS if code in mapped and code not in unicodes]
    options = ft_subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keeps copyright and license
    options.hinting = False
    options.desubroutinize = True
    options.notdef_outline = True
    options.recalc_timestamp = False
    subsetter = ft_subset.Subsetter(options=options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()


# The stylesheets that declare the subsets (each between the two marker comments).
CSS_FILES = tuple(
    BASE_DIR / "games" / "static" / "games" / "css" / name
    for name in ("site.css", "sheet-web-fonts.css")
)
CSS_START = "/* Web fonts (made by games/web_fonts/subset.py"
CSS_END = "/* End of the web fonts. */\n"


def font_faces(display: str = "optional") -> str:
    """The @font-face rules of every subset, with their unicode-range, for site.css.

    `font-display: optional`: a font that is not there within a moment (the page
    preloads its language's files) is not swapped in later, so text never moves
    once shown; the next page has it from the cache."""
    lines = [
        CSS_START + "; do not edit by hand). A browser fetches a file only\n"
        "   when the page has a character in its unicode-range: a Tamil page gets the Latin\n"
        "   and Tamil files, never the Hebrew one. */\n"
    ]
    for script in SCRIPTS:
        for weight in WEIGHTS:
            lines.append(
                f'@font-face {{ font-family: "{script.family}"; '
                f'src: url("../fonts/{output_name(script, weight)}") format("woff2"); '
                f"font-weight: {weight}; font-display: {display}; "
                f"unicode-range: {script.unicode_range()}; }}\n"
            )
    lines.append(CSS_END)
    return "".join(lines)


def css_with_faces(css: str) -> str:
    """`css` with its web-font block replaced by font_faces()."""
    start = css.index(CSS_START)
    end = css.index(CSS_END, start) + len(CSS_END)
    return css[:start] + font_faces() + css[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.web_fonts.subset", description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    differ = []
    for script in SCRIPTS:
        for weight in WEIGHTS:
            data = subset(script, weight)
            target = FONTS / output_name(script, weight)
            if args.check:
                if not target.exists() or target.read_bytes() != data:
                    differ.append(target.name)
                continue
            target.write_bytes(data)
            print(f"{target.name}: {len(data)} bytes  unicode-range: {script.unicode_range()}")
    for path in CSS_FILES:
        css = path.read_text()
        if args.check:
            if css_with_faces(css) != css:
                differ.append(path.name)
        else:
            path.write_text(css_with_faces(css))
    if differ:
        print("differ from what the tool makes: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
