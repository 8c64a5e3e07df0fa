"""The service worker's script, the web app manifest (in the page's language) and the
page shown for an address that needs the network while there is none."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, get_language_bidi, gettext, override
from django.views.decorators.http import require_GET

from games.offline.version import site_version

SCRIPT = Path(__file__).with_name("sw.js")
#: The site's colours for the installed app's window (site.css: --felt, --paper).
THEME_COLOUR = "#1f6f4a"
BACKGROUND_COLOUR = "#fffdf7"


def offline_words() -> dict[str, dict[str, str]]:
    """The sentence for a page asked for offline, in each language, before any page
    of that language was kept (the kept offline page says more)."""
    words = {}
    for code, _name in settings.LANGUAGES:
        with override(code):
            words[code] = {
                "lang": code,
                "dir": "rtl" if code in settings.LANGUAGES_BIDI else "ltr",
                "title": gettext("No network"),
                "text": gettext(
                    "This page needs the network, and there is none now. "
                    "Open it again when the network is back."
                ),
            }
    return words


@cache
def script_text(version: str, static_url: str) -> str:
    settings_lines = [
        f"const VERSION = {json.dumps(version)};",
        f"const LANGUAGES = {json.dumps([code for code, _name in settings.LANGUAGES])};",
        f"const STATIC_URL = {json.dumps(static_url)};",
        f"const OFFLINE_WORDS = {json.dumps(offline_words(), ensure_ascii=False)};",
    ]
    return "\n".join(settings_lines) + "\n" + SCRIPT.read_text(encoding="utf-8")


@require_GET
def service_worker(request):
    """``/sw.js``: its scope is the whole site (it lives at the root); the browser
    checks it for a new version on each page opened, past any HTTP cache."""
    response = HttpResponse(
        script_text(site_version(), static("")), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request):
    """``/<lang>/manifest.webmanifest``: the app as installed from a page in ``lang``."""
    icon = lambda size, purpose: {  # noqa: E731
        "src": static(f"games/icons/icon-{size}.png"),
        "sizes": f"{size}x{size}",
        "type": "image/png",
        "purpose": purpose,
    }
    data = {
        "name": gettext("Snap, the card game"),
        "short_name": gettext("Snap"),
        "description": gettext("Learn and play Snap, the children's card game."),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "id": "/",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [icon(192, "any"), icon(512, "any"), icon(512, "maskable")],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def offline(request):
    """``/<lang>/offline/``: what a device shows, without a network, for a page it has
    not kept or that needs the network; it comes back by itself (games/js/network.js)."""
    return render(request, "offline.html")
