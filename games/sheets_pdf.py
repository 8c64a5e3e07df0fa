"""Lesson sheets as PDF: WeasyPrint lays out the sheet's own HTML on the server.

WeasyPrint shapes text with Pango and HarfBuzz (Tamil and Devanagari conjuncts,
Hebrew right to left). Its stylesheet and fonts are the site's static files, read
from disk by :class:`StaticFilesFetcher`: nothing is fetched over the network, and
any other address the HTML might name is refused.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from weasyprint import HTML
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


def write_pdf(html: str, base_url: str) -> bytes:
    """The PDF of a sheet's HTML; ``base_url`` is the sheet's own address."""
    return HTML(string=html, base_url=base_url, url_fetcher=StaticFilesFetcher()).write_pdf()
