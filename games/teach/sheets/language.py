"""The sheet builder's first language: the builder's plain form asks for it as ``lang``.
The page stays in its own language (the teacher's, ``/<lang>/teach/sheet/``) and the
sheet is in the languages chosen, so an English page can make a Hebrew + Tamil sheet
(``/en/teach/sheet/?lang=he&also=ta…``); without ``lang``, the sheet's first language
is the page's."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.teach.sheets import labels as sheet_labels
from games.teach.sheets import query as sheets
from games.words.texts import fill

__all__ = ["NotASheetLanguage", "first_language"]


class NotASheetLanguage(ValueError):
    """``lang`` names no language a sheet can have; the message says which it can (as
    the builder does, each in its own script)."""


def first_language(request, page: str) -> str:
    """The sheet's first language: the address's ``lang``, else the page's ``page``.
    Raises :class:`NotASheetLanguage` when ``lang`` is not a sheet language."""
    lang = (request.GET.get("lang") or "").strip()
    if not lang:
        return page
    codes = sheets.language_codes()
    if lang not in codes:
        raise NotASheetLanguage(
            fill(
                _("%(value)s is not a language a sheet can have. Choose one of: %(allowed)s."),
                value=lang,
                allowed=sheet_labels.languages_listing(codes),
            )
        )
    return lang
