"""The JavaScript catalog (Django's ``JavaScriptCatalog``), cacheable by browsers.

Its address carries a version, ``/<lang>/jsi18n/?v=<version>``, made from the
compiled ``djangojs`` catalogs this process reads: a new translation makes a new
address. A request with the current version is answered with a year of
``Cache-Control`` (``immutable``), so a repeat visit asks the network for nothing;
one without it (or with an old one) is served fresh for a minute only, so a stale
address never keeps old words for long. Pages load it with ``defer``: it never
holds up the first paint, and it still runs before the page's modules, which read
``window.gettext`` (deferred classic and module scripts run in document order).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.i18n import JavaScriptCatalog

YEAR_S = 365 * 24 * 3600
UNVERSIONED_MAX_AGE_S = 60


@lru_cache(maxsize=1)
def catalog_version() -> str:
    """Twelve hex digits that change whenever a compiled ``djangojs.mo`` changes."""
    digest = hashlib.sha256()
    for folder in settings.LOCALE_PATHS:
        for path in sorted(Path(folder).glob("*/LC_MESSAGES/djangojs.mo")):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def catalog_url() -> str:
    """The catalog's address in the active language, with its version."""
    return f"{reverse('javascript-catalog')}?v={catalog_version()}"


class CachedJavaScriptCatalog(JavaScriptCatalog):
    """Django's catalog view with browser caching for the versioned address."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if request.GET.get("v") == catalog_version():
            patch_cache_control(response, public=True, max_age=YEAR_S, immutable=True)
        else:
            patch_cache_control(response, public=True, max_age=UNVERSIONED_MAX_AGE_S)
        return response
