"""Lesson sheets as PDF: WeasyPrint lays out the sheet's own HTML on the server.

WeasyPrint shapes text with Pango and HarfBuzz (Tamil and Devanagari conjuncts,
Hebrew right to left). Its stylesheet and fonts are the site's static files, read
from disk by :class:`StaticFilesFetcher`: nothing is fetched over the network, and
any other address the HTML might name is refused.

Text copied or searched from the PDF: WeasyPrint maps each glyph to the text of the
first cluster it was drawn in, so in Tamil the vowel sign ா first met inside ொ reads
as ொ everywhere after it ("ஸ்னொப்" for "ஸ்னாப்"). :func:`one_character_glyphs` puts
back, for every glyph that the font's own character map gives to exactly one
character, that character. Vowel signs drawn before their consonant (Tamil ெ ே ை,
Devanagari ि) still come out in drawing order: a PDF without ActualText cannot say
otherwise.
"""

from __future__ import annotations

import io
import mimetypes
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import weasyprint.pdf
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from fontTools.ttLib import TTFont
from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

mimetypes.add_type("font/ttf", ".ttf")


def static_file(url: str) -> Path | None:
    """The file on disk behind a static URL of this site, or None."""
    prefix = urlsplit(settings.STATIC_URL).path
    path = unquote(urlsplit(url).path)
    if not path.startswith(prefix):
        return None
    name = path[len(prefix) :]
    try:
        found = finders.find(name)
    except SuspiciousFileOperation:
        return None
    if found:
        return Path(found)
    root = Path(settings.STATIC_ROOT).resolve() if settings.STATIC_ROOT else None
    if root is not None:  # hashed names of collected files (production)
        candidate = (root / name).resolve()
        if candidate.is_file() and candidate.is_relative_to(root):
            return candidate
    return None


class StaticFilesFetcher(URLFetcher):
    """Serves WeasyPrint the site's static files from disk; refuses everything else."""

    def fetch(self, url, headers=None):
        found = static_file(url)
        if found is None:
            raise ValueError(f"A sheet only uses the site's own static files, not {url}")
        content_type = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, found.read_bytes(), {"Content-Type": content_type})


@lru_cache(maxsize=32)
def _single_characters(file_content: bytes, index: int) -> dict[int, str]:
    """Glyph id -> its character, for glyphs that exactly one character maps to."""
    font = TTFont(io.BytesIO(file_content), fontNumber=index, lazy=True)
    by_glyph: dict[int, list[int]] = {}
    for codepoint, name in font.getBestCmap().items():
        by_glyph.setdefault(font.getGlyphID(name), []).append(codepoint)
    return {gid: chr(cps[0]) for gid, cps in by_glyph.items() if len(cps) == 1}


def one_character_glyphs(fonts) -> None:
    """Give each used glyph that stands for one character that character (see above)."""
    for font in fonts.values():
        if not getattr(font, "to_unicode", None) or getattr(font, "bitmap", False):
            continue
        single = _single_characters(font.file_content, font.index)
        for glyph_id in font.to_unicode:
            if glyph_id in single:
                font.to_unicode[glyph_id] = single[glyph_id]


_build_fonts_dictionary = weasyprint.pdf.build_fonts_dictionary


def _build_fonts_dictionary_mapped(pdf, fonts, *args, **kwargs):
    one_character_glyphs(fonts)
    return _build_fonts_dictionary(pdf, fonts, *args, **kwargs)


weasyprint.pdf.build_fonts_dictionary = _build_fonts_dictionary_mapped


def write_pdf(html: str, base_url: str, page_css: str = "") -> bytes:
    """The PDF of a sheet's HTML; ``base_url`` is the sheet's own address, ``page_css``
    its @page rule (a browser loads it from ``sheet_page_css``)."""
    page = HTML(string=html, base_url=base_url, url_fetcher=StaticFilesFetcher())
    return page.write_pdf(stylesheets=[CSS(string=page_css)] if page_css else None)
