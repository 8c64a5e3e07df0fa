"""The link to share for a table: without a language (``/play/CODE/``), so each device
opens it in its own language (its language cookie, else the browser's languages):
Django's LocaleMiddleware sends ``/play/CODE/`` on to ``/<lang>/play/CODE/``."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import get_language

__all__ = ["share_url"]


def share_url(request, code: str) -> str:
    """The absolute address of table ``code`` with no language in it."""
    path = reverse("play_table", args=[code])
    prefix = f"/{get_language()}/"
    if path.startswith(prefix):
        path = "/" + path[len(prefix) :]
    return request.build_absolute_uri(path)
