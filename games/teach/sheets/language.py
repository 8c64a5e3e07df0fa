"""The sheet builder's first language: a sheet's address is in its first language
(``/<lang>/sheet/``), and the builder's plain form asks for it as ``lang``. A sheet
address with ``lang`` goes on to the same sheet in that language, the other choices
kept (so an English page can make a Hebrew + Tamil sheet: ``/he/sheet/?also=ta…``)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.teach.sheets import labels as sheet_labels
from games.teach.sheets import query as sheets
from games.words.texts import fill

__all__ = ["first_language"]


def first_language(request):
    """None when the address has no ``lang``; else the redirect to the sheet in that
    language, or the problem (a sentence) when it is not a sheet language: it names the
    languages a sheet can have as the builder does, each in its own script."""
    lang = (request.GET.get("lang") or "").strip()
    if not lang:
        return None
    codes = sheets.language_codes()
    if lang not in codes:
        return fill(
            _("%(value)s is not a language a sheet can have. Choose one of: %(allowed)s."),
            value=lang,
            allowed=sheet_labels.languages_listing(codes),
        )
    rest = [(k, v) for k in request.GET for v in request.GET.getlist(k) if k != "lang"]
    with translation.override(lang):
        path = reverse(request.resolver_match.url_name)
    return redirect(f"{path}?{urlencode(rest)}")
