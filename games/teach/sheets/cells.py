"""Lesson sheets: a cell of one language (its ``lang`` and ``dir``) and the rules
sections' titles in a given language, for every part of a sheet."""

from __future__ import annotations

from django.conf import settings

from games.models import RulesSection


def direction(lang: str) -> str:
    return "rtl" if lang in settings.LANGUAGES_BIDI else "ltr"


def cell(lang: str, **values) -> dict:
    return {"lang": lang, "dir": direction(lang), **values}


def section_titles_in(lang: str) -> dict[str, str]:
    """Each rules section's anchor -> its title in ``lang`` (not the page's language)."""
    return {s.slug: getattr(s, f"title_{lang}") for s in RulesSection.objects.all()}
