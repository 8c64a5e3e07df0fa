"""``/favicon.ico``: browsers ask for it at the site's root whatever a page links, so it
is answered there (200) with the icon of games/static/games/icons/ (games/offline/favicon.py);
pages link the hashed static copies (base.html). Its address has no version, so a
browser keeps it a day, not a year."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

FAVICON = "games/icons/favicon.ico"
DAY_S = 24 * 3600


@require_safe
def favicon(request):
    path = finders.find(FAVICON)
    if not path:
        raise Http404("no favicon")
    response = FileResponse(open(path, "rb"), content_type="image/vnd.microsoft.icon")
    patch_cache_control(response, public=True, max_age=DAY_S)
    return response
