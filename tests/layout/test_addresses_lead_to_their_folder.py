"""A newcomer finds the code behind an address from its first path segment
(docs/architecture.md): ``/he/teach/sheet/`` is served from ``games/teach/``."""

from django.urls import LocalePrefixPattern, URLPattern, get_resolver

#: The first segments whose code is not in a folder of the same name.
FOLDER_OF = {
    "": "games.views",
    "glossary": "games.rules",
    "start": "games.rules",
    # the installable app: its service worker (at the root) and manifest
    "sw.js": "games.offline",
    "manifest.webmanifest": "games.offline",
    "lesson": "games.teach",  # a teacher's lesson: the short link teachers hand out
}
#: Django's own views and the icon browsers ask the root for, wired in snapsite/urls.py.
SITE_WIDE = {"i18n", "jsi18n", "admin", "favicon.ico"}


def page_patterns(patterns=None, prefix=""):
    """(first segment, view) for every page of the site, below the language prefix."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLPattern):
            yield route.split("/")[0], pattern.callback
        elif isinstance(pattern.pattern, LocalePrefixPattern):  # the /<lang>/ prefix
            yield from page_patterns(pattern.url_patterns, "")
        else:
            yield from page_patterns(pattern.url_patterns, route)


def test_every_page_is_served_from_the_folder_its_first_segment_names():
    misplaced = [
        f"/{segment}/ -> {view.__module__}.{view.__name__}"
        for segment, view in page_patterns()
        if segment not in SITE_WIDE
        and not view.__module__.startswith(FOLDER_OF.get(segment, f"games.{segment}"))
    ]
    assert misplaced == []


def test_the_pages_checked_include_every_face():
    segments = {segment for segment, _view in page_patterns()}
    assert {"", "rules", "learn", "play", "replay", "teach", "start"} <= segments
