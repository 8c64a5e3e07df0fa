"""Lesson sheets: what a sheet holds, read from its address.

A sheet's choices live in the query string so it can be bookmarked and shared:
``?also=<lang2>&parts=start,rules,glossary,walkthrough:<slug>,quiz&paper=a4&seed=N``.
``parts`` may also come as repeated parameters (the builder's check boxes); the
canonical address joins them with commas. ``rules`` is every rules section,
``rules:<slug>`` one of them; ``seed`` picks the quiz (as on the quiz pages);
``game:<CODE>`` is a finished table's game (``games.teach.sheets.game``),
``lesson:<CODE>`` a teacher's lesson (``games.teach.sheets.lesson``).

Anything not allowed raises :class:`BadSheetQuery` with sentences in the page's
language that say what is allowed; the view answers 400 with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.utils.translation import gettext as _

from games.frames import walkthroughs
from games.models import RulesSection
from games.teach.sheets import game as sheets_game
from games.teach.sheets import labels as sheet_labels
from games.teach.sheets import lesson as sheets_lesson
from games.words.texts import fill

PAPERS = ("a4", "letter")
is_game = sheets_game.is_game_part
is_lesson = sheets_lesson.is_lesson_part


def canonical_part(part: str) -> str:
    if is_game(part):
        return sheets_game.canonical(part)
    return sheets_lesson.canonical(part) if is_lesson(part) else part


MAX_SEED = 10**9


def quiz_available() -> bool:
    """The engine-made quiz can go on a sheet (``make_quiz`` of ``games.teach.quiz``)."""
    try:
        from games.teach.quiz.questions import make_quiz  # noqa: F401
        from games.teach.quiz.views import question_data  # noqa: F401
    except ImportError:
        return False
    return True


def language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def section_slugs() -> list[str]:
    return list(RulesSection.objects.values_list("slug", flat=True))


def walkthrough_slugs() -> list[str]:
    return [w.slug for w in walkthroughs.summaries()]


def allowed_parts() -> list[str]:
    """Every value ``parts`` accepts, in the order a sheet shows them by default."""
    parts = ["start", "rules"]
    parts += [f"rules:{slug}" for slug in section_slugs()]
    parts.append("glossary")
    parts += [f"walkthrough:{slug}" for slug in walkthrough_slugs()]
    if quiz_available():
        parts.append("quiz")
    return parts


class BadSheetQuery(ValueError):
    """The address asks for something a sheet cannot hold; ``problems`` says what."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class SheetQuery:
    lang: str
    also: str | None
    parts: tuple[str, ...]
    paper: str = "a4"
    seed: int | None = None
    page: str = ""  # the page's language (the teacher's), when it is not the sheet's first

    @property
    def languages(self) -> tuple[str, ...]:
        return (self.lang, self.also) if self.also else (self.lang,)

    @property
    def needs_seed(self) -> bool:
        return "quiz" in self.parts and self.seed is None

    def query_string(self) -> str:
        """The canonical query: the one the builder's links and the PDF link use."""
        items = []
        if self.page and self.page != self.lang:  # the sheet's first language, said
            items.append(("lang", self.lang))
        if self.also:
            items.append(("also", self.also))
        items.append(("parts", ",".join(self.parts)))
        if self.paper != "a4":
            items.append(("paper", self.paper))
        if self.seed is not None and "quiz" in self.parts:
            items.append(("seed", str(self.seed)))
        return urlencode(items, safe=",:")


def _read_parts(raw_values: list[str]) -> list[str]:
    parts = []
    for raw in raw_values:
        for part in raw.split(","):
            part = part.strip()
            if part and part not in parts:
                parts.append(part)
    return parts


def parse(lang: str, params, page: str = "") -> SheetQuery:
    """The sheet ``params`` (a QueryDict or a dict of lists) asks for, with ``lang`` its
    first language; ``page``: the language of the page around it (the teacher's), when
    that is another (its problems are said in the active language)."""
    problems = []
    codes = language_codes()

    also = (params.get("also") or "").strip() or None
    if also is not None and (also not in codes or also == lang):
        others = [c for c in codes if c != lang]
        problems.append(
            fill(
                _(
                    "%(value)s is not a second language a sheet can have. "
                    "Choose one of: %(allowed)s, or none."
                ),
                value=also,
                allowed=sheet_labels.languages_listing(others),
            )
        )

    getlist = params.getlist if hasattr(params, "getlist") else lambda k: params.get(k, [])
    parts = _read_parts(getlist("parts"))
    parts = list(dict.fromkeys(canonical_part(p) for p in parts))
    allowed = allowed_parts()
    unknown = [p for p in parts if p not in allowed and not is_game(p) and not is_lesson(p)]
    for part in unknown:
        problems.append(
            fill(
                _("%(value)s is not a part a sheet can hold. The parts are: %(allowed)s."),
                value=part,
                allowed=sheet_labels.parts_listing(allowed),
            )
        )
    for part in filter(is_game, parts):
        if (problem := sheets_game.problem(part)) is not None:
            problems.append(problem)
    for part in filter(is_lesson, parts):
        if (problem := sheets_lesson.problem(part)) is not None:
            problems.append(problem)
    if not parts:
        problems.append(
            fill(
                _("Choose at least one part for the sheet. The parts are: %(allowed)s."),
                allowed=sheet_labels.parts_listing(allowed),
            )
        )
    if "rules" in parts:  # all the sections: a chosen one would only repeat
        parts = [p for p in parts if not p.startswith("rules:")]

    paper = (params.get("paper") or "a4").strip().lower()
    if paper not in PAPERS:
        problems.append(
            fill(
                _("%(value)s is not a paper size for sheets. Choose one of: %(allowed)s."),
                value=paper,
                allowed=sheet_labels.papers_listing(PAPERS),
            )
        )

    seed = None
    raw_seed = (params.get("seed") or "").strip()
    if raw_seed and "quiz" in parts:
        if raw_seed.isascii() and raw_seed.isdigit() and int(raw_seed) <= MAX_SEED:
            seed = int(raw_seed)
        else:
            problems.append(
                _("The quiz number must be a whole number from 0 to %(max)d.") % {"max": MAX_SEED}
            )

    if problems:
        raise BadSheetQuery(problems)
    page = page if page and page != lang else ""
    return SheetQuery(lang=lang, also=also, parts=tuple(parts), paper=paper, seed=seed, page=page)
