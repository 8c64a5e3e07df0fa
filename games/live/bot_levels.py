"""The computer players' levels told by what they do, from the engine's own numbers
(:class:`games.engine.BotLevel`): how fast they call, how many matches they miss, how
often they call when nothing matches."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import ngettext, pgettext

from games.engine import BotLevel

__all__ = ["level_description", "levels_help"]


def level_description(level: BotLevel) -> str:
    """One level in a sentence, in the active language."""
    spec = level.spec
    name = {
        BotLevel.GENTLE: pgettext("computer player level", "Gentle"),
        BotLevel.BEGINNER: pgettext("computer player level", "Beginner"),
        BotLevel.STEADY: pgettext("computer player level", "Steady"),
        BotLevel.QUICK: pgettext("computer player level", "Quick"),
    }[level]
    seconds = number_format(spec.react_mean_ms / 1000, decimal_pos=1)
    missed = round((1 - spec.notice) * 10)
    cards = round(1 / spec.false_call)
    calls = pgettext("computer player level", "calls after about %(seconds)s s") % {
        "seconds": seconds
    }
    misses = ngettext("misses %(count)d match in 10", "misses %(count)d matches in 10", missed) % {
        "count": missed
    }
    wrong = ngettext(
        "calls wrongly about once in %(count)d card",
        "calls wrongly about once in %(count)d cards",
        cards,
    ) % {"count": cards}
    if not missed:
        misses = pgettext("computer player level", "almost never misses a match")
    return pgettext("computer player level: name, speed, misses, wrong calls",
                    "%(name)s: %(calls)s, %(misses)s, %(wrong)s.") % {
        "name": name, "calls": calls, "misses": misses, "wrong": wrong,
    }  # fmt: skip


def _levels_help() -> str:
    return " ".join(level_description(level) for level in BotLevel)


#: Every level told, for a form's help text (made in the language of the page).
levels_help = lazy(_levels_help, str)
