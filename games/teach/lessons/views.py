"""The lesson builder and the lesson page.

- ``/<lang>/teach/lessons/``: a new lesson (table, deal) or one of the two examples to
  start from; the lessons this browser keeps (their edit links, in localStorage).
- ``/<lang>/teach/lessons/CODE/edit/KEY/?at=N``: the builder at position N. Every
  change is a form sent to the server and played on the engine; a refused change
  answers 400 with the reason and changes nothing. The key is shown once (``?new=1``).
- ``/<lang>/teach/lessons/CODE/copy/`` (POST): a copy with a new code and key.
- ``/<lang>/lesson/CODE/`` (and ``/lesson/CODE/``, which opens in the device's
  language): the lesson, played by the walkthrough player.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.content.sections import with_section_titles
from games.context_processors import NATIVE_NAMES
from games.frames import lesson_draft, lesson_frames
from games.frames.lesson_draft import Draft, Edited, EditRefused
from games.frames.lesson_examples import example
from games.frames.lesson_store import (
    lesson_create,
    lesson_find,
    lesson_may_edit,
    lesson_save,
    lesson_visited,
)
from games.frames.lesson_store import (
    lesson_draft as draft_of,
)
from games.frames.recorded import script_json
from games.frames.walkthroughs import table_data
from games.models import Lesson
from games.teach.lessons.forms import MomentForm, SetupForm, StepForm

__all__ = ["lesson", "lesson_copy", "lesson_edit", "lessons"]


def _edit_url(lesson: Lesson, key: str, **query) -> str:
    url = reverse("lesson_edit", args=[lesson.code, key])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def _made(request, draft: Draft):
    lesson, key = lesson_create(draft=draft, lang=get_language() or "en")
    return redirect(_edit_url(lesson, key, new=1))


def lessons(request):
    """The builder's start: a new lesson, or an example to start from."""
    form = SetupForm(request.POST or None, initial={"name_0": "", "name_1": ""})
    if request.method == "POST":
        made = example(request.POST.get("example", ""))
        if made is not None:
            return _made(request, made)
        if form.is_valid():
            try:
                return _made(request, Draft.new(form.setup, form.cleaned_data["title"]))
            except EditRefused as error:
                form.add_error(None, str(error))
        return render(request, "teach/lessons.html", {"form": form}, status=400)
    return render(request, "teach/lessons.html", {"form": form})


def _lesson_or_404(code: str) -> Lesson:
    found = lesson_find(code)
    if found is None:
        raise Http404(_("There is no lesson with that code. Check the letters."))
    return found


def _position(request, draft: Draft) -> int:
    total = len(draft.steps)
    try:
        at = int(request.GET.get("at", total))
    except ValueError:
        at = total
    return max(0, min(total, at))


def _apply(request, draft: Draft, at: int) -> tuple[Edited, int]:
    """The change the POST asks for; the position to show after it."""
    what = request.POST.get("change")
    if what == "setup":
        form = SetupForm(request.POST)
        if not form.is_valid():
            raise EditRefused(" ".join(e for errors in form.errors.values() for e in errors))
        edited = lesson_draft.with_setup(draft, form.setup)
        edited = Edited(lesson_draft.with_title(edited.draft, form.cleaned_data["title"]).draft,
                        edited.notice)  # fmt: skip
        return edited, min(at, len(edited.draft.steps))
    if what == "step":
        form = StepForm(request.POST)
        if not form.is_valid():
            raise EditRefused(_("That is not a step of this lesson."))
        edited = lesson_draft.with_step(draft, at, form.step())
        return edited, at + edited.added
    if what == "moment":
        form = MomentForm(request.POST)
        form.is_valid()
        data = form.cleaned_data
        return lesson_draft.with_moment(draft, at, data.get("note", ""), data.get("ask", False)), at
    if what == "cut":
        return lesson_draft.cut_after(draft, at), at
    raise EditRefused(_("That is not a change this page can make."))


def lesson_edit(request, code: str, key: str):
    found = _lesson_or_404(code)
    if not lesson_may_edit(found, key):
        return render(request, "teach/lesson_forbidden.html", {"code": found.code}, status=403)
    draft = draft_of(found)
    at = _position(request, draft)
    error = ""
    if request.method == "POST":
        try:
            edited, at = _apply(request, draft, at)
        except EditRefused as refused:
            error = str(refused)
        else:
            lesson_save(found, edited.draft)
            if edited.notice:
                messages.warning(request, edited.notice)
            return redirect(_edit_url(found, key, at=at))
    else:
        lesson_visited(found)
    context = builder_context(request, found, key, draft, at)
    context["error"] = error
    return render(request, "teach/lesson_edit.html", context, status=400 if error else 200)


def builder_context(request, found: Lesson, key: str, draft: Draft, at: int) -> dict:
    played = draft.played()
    names = list(draft.setup.names)
    learner = draft.setup.learner
    state = played.steps[at - 1].state if at else played.start
    before = played.steps[at - 2].state if at > 1 else (played.start if at else None)
    lines = lesson_frames.step_lines(draft)
    steps = [
        {"number": n, "text": text, "marked": n in draft.marks, "url": _edit_url(found, key, at=n)}
        for n, text in enumerate(lines, start=1)
    ]
    moment = MomentForm(initial={"note": draft.notes.get(at, ""), "ask": (at + 1) in draft.marks})
    return {
        "lesson": found,
        "draft": draft,
        "key": key,
        "new": request.GET.get("new") == "1",
        "edit_url": request.build_absolute_uri(_edit_url(found, key)),
        "edit_path": _edit_url(found, key),
        "view_url": request.build_absolute_uri(f"/lesson/{found.code}/"),
        "at": at,
        "total": len(draft.steps),
        "back_url": _edit_url(found, key, at=at - 1) if at else "",
        "forward_url": _edit_url(found, key, at=at + 1) if at < len(draft.steps) else "",
        "start_url": _edit_url(found, key, at=0),
        "table": table_data(state, names, learner, before),
        "said": lines[at - 1] if at else "",
        "steps": steps,
        "seats": list(enumerate(names)),
        "race_open": state.race is not None,
        "over": state.over,
        "replaces": at < len(draft.steps),
        "setup_form": SetupForm(initial=SetupForm.initial_of(draft.setup, draft.title)),
        "moment_form": moment,
        "learner_name": names[learner],
        "sheet_languages": [(c, NATIVE_NAMES[c]) for c, _n in settings.LANGUAGES],
    }


@require_POST
def lesson_copy(request, code: str):
    """A lesson of one's own: the same table, deal, steps and notes, a new key."""
    return _made(request, draft_of(_lesson_or_404(code)))


def lesson(request, code: str):
    """The lesson, played by the walkthrough player in the page's language."""
    found = _lesson_or_404(code)
    lesson_visited(found)
    draft = draft_of(found)
    frames = with_section_titles(lesson_frames.frames(draft))
    names = list(draft.setup.names)
    return render(
        request,
        "teach/lesson.html",
        {
            "lesson": found,
            "draft": draft,
            "title": draft.title or _("A lesson"),
            "steps": frames,
            "total": len(frames),
            "learner_name": names[draft.setup.learner],
            "frames_json": script_json(lesson_frames.payload(draft, frames)),
            "note_lang": found.lang,
            # finished on this device: what a class table's student page tells the teacher
            "done_slug": f"lesson:{found.code}",
        },
    )
