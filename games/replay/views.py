"""The replay of a finished live table, and the same game as a lesson from one seat.

``/<lang>/replay/<code>/`` steps through the game with the walkthrough player, each step
one action of the table's record told in the page's language;
``/<lang>/replay/<code>/lesson/?seat=N`` opens it as a walkthrough from seat N (the
best-placed person's by default), every press answered by the engine. A long game's steps in words
come a page at a time (``?from=N``); the player gets every step, in compact form.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.content.sections import with_section_titles
from games.frames import recorded as replay_frames
from games.frames.table_game import Game, Missing, load_game
from games.replay import moments as replay_moments

#: Steps in words per page: a page of a long game stays small (about 45 elements a step:
#: under a thousand on the page, so an old phone lays it out quickly), and prints on a
#: few sheets.
STEPS_PER_PAGE = 20


def missing(request, exc: Missing):
    return render(request, "replay/missing.html", {"message": str(exc)}, status=404)


def table_url(code: str) -> str:
    try:
        return reverse("play_table", args=[code])
    except NoReverseMatch:  # the live table pages are not installed
        return ""


def not_over(request, game: Game):
    context = {"code": game.code, "table_url": table_url(game.code)}
    return render(request, "replay/unfinished.html", context, status=409)


def step_pages(request, frames: list[dict]) -> tuple[list[dict], dict | None]:
    """The page of steps in words to show (``?from=N``, else the page of ``?step=N``)
    and the links to the pages around it (None when one page holds them all)."""
    total = len(frames)
    wanted = request.GET.get("from") or request.GET.get("step") or "1"
    try:
        number = min(max(int(wanted), 1), total)
    except ValueError:
        number = 1
    first = (number - 1) // STEPS_PER_PAGE * STEPS_PER_PAGE
    shown = frames[first : first + STEPS_PER_PAGE]
    if total <= STEPS_PER_PAGE:
        return shown, None
    last = first + len(shown)

    def link(start: int) -> str:
        query = request.GET.copy()
        query.pop("step", None)
        query["from"] = str(start + 1)
        return f"{request.path}?{query.urlencode()}"

    pages = {
        "first": first + 1,
        "last": last,
        "total": total,
        "earlier": link(first - STEPS_PER_PAGE) if first else "",
        "later": link(last) if last < total else "",
    }
    return shown, pages


def page_context(request, game: Game, learner: int | None) -> dict:
    frames = with_section_titles(replay_frames.frames(game.record, game.labels, learner))
    shown, pages = step_pages(request, frames)
    payload = replay_frames.compact(frames, game.labels, learner)
    seats = [
        {"seat": n, "label": name, "winner": n in (game.end.winners or (game.end.winner,))}
        for n, name in enumerate(game.names)
    ]
    steps_summary = ngettext(
        "The game in words (%(count)d step)", "The game in words (%(count)d steps)", len(frames)
    ) % {"count": len(frames)}
    return {
        "code": game.code,
        "game": game,
        "seats": seats,
        "winner": game.winner,
        "lesson_seat": game.lesson_seat,
        "learner": learner,
        "learner_name": None if learner is None else game.names[learner],
        "total": len(frames),
        "steps": shown,
        "pages": pages,
        "steps_summary": steps_summary,
        "frames_json": replay_frames.script_json(payload),
        "moments": replay_moments.moments(game.record, game.labels) if learner is None else [],
    }


def chosen_seat(request, game: Game) -> int:
    """The seat of ``?seat=N``; the best-placed person's when none is given."""
    raw = request.GET.get("seat", "")
    if not raw:
        return game.lesson_seat
    try:
        seat = int(raw)
    except ValueError:
        seat = -1
    if not 0 <= seat < game.record.players:
        raise Missing(_("There is no such seat at this table."))
    return seat


def replay(request, code: str):
    try:
        game = load_game(code)
    except Missing as exc:
        return missing(request, exc)
    if not game.end.over:
        return not_over(request, game)
    return render(request, "replay/replay.html", page_context(request, game, None))


def replay_lesson(request, code: str):
    try:
        game = load_game(code)
        learner = chosen_seat(request, game)
    except Missing as exc:
        return missing(request, exc)
    if not game.end.over:
        return not_over(request, game)
    return render(request, "replay/lesson.html", page_context(request, game, learner))


__all__ = ["replay", "replay_lesson"]
