"""What the sheet builder calls each choice, for the messages of a sheet address that
cannot be made: a teacher reads the titles the form shows ("The glossary", "US Letter"),
and each language by its name in the page's language with the name the form shows
beside it ("Hebrew (עברית)"), never the address's codes ("glossary", "letter", "he").

The words are the builder's own (games/teach/templates/teach/includes/sheet_builder.html), so the
two can never disagree.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games.context_processors import NATIVE_NAMES
from games.frames import narration
from games.models import RulesSection
from games.words.texts import isolate

#: Between the titles of a list: titles may hold commas ("A quiz, with the answers…").
SEPARATOR = "; "


def part_titles() -> dict[str, str]:
    """Each part code the builder offers -> its title on the form, in the page's language."""
    titles = {"start": _("Play in two minutes (the one-page start)"), "rules": _("All the rules")}
    titles |= {f"rules:{s.slug}": s.title for s in RulesSection.objects.all()}
    titles["glossary"] = _("The glossary")
    titles |= {f"walkthrough:{slug}": str(title) for slug, title in narration.TITLES.items()}
    titles["quiz"] = _("A quiz, with the answers on a separate page")
    return titles


def paper_titles() -> dict[str, str]:
    return {"a4": _("A4"), "letter": _("US Letter")}


def listing(codes, titles: dict[str, str]) -> str:
    """The titles of ``codes`` (a code without a title as it is), each isolated for bidi."""
    return SEPARATOR.join(isolate(titles.get(code, code)) for code in codes)


def parts_listing(codes) -> str:
    return listing(codes, part_titles())


def language_titles() -> dict[str, str]:
    """Each site language -> its name in the page's language, and its own name (the one
    the builder's list shows) in brackets when the two differ."""
    titles = {}
    for code, name in settings.LANGUAGES:
        here, own = str(name), NATIVE_NAMES[code]
        titles[code] = here if here == own else f"{here} ({isolate(own)})"
    return titles


def languages_listing(codes) -> str:
    return listing(codes, language_titles())


def papers_listing(codes) -> str:
    return listing(codes, paper_titles())
