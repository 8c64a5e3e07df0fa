"""A teacher's class table: the form that opens it (``/<lang>/teach/class/``), the
teacher's page (``…/class/<code>/``: the join code, the seats, the controls, the
walkthroughs each student has finished, the replay after a game) and the projector
view (``…/class/<code>/projector/``); for a class's tablets opened together (one table
on one device per tablet), the page of them all (``…/class/<code>/tablets/``).

The teacher is the browser session that opened the table; the class pages are
for that session only (403 for anyone else). The controls themselves travel over the
table's WebSocket (docs/protocol.md, "A class table"), where they are checked again.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from django.contrib import messages
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import tables
from games.frames import narration
from games.frames.lesson_store import lesson_find
from games.live.game_choices import BEAT_MS, LEVEL_CHOICES
from games.live.limit_words import too_many_tables_text
from games.live.share_links import share_url
from games.live.table_page import session_key, table_page
from games.models import Table, TableEvent
from games.tables.codes import normalise_code
from games.tables.protocol import walkthrough_slugs
from games.teach.classes.earlier import earlier_games
from games.teach.classes.forms import ClassTableForm, PaceForm
from games.words.controls import pace_text
from games.words.errors import TABLE_ERROR_TEXTS

__all__ = [
    "class_new",
    "class_projector",
    "class_tablets",
    "class_tablets_start",
    "class_tablets_state",
    "class_lesson",
    "class_teacher",
]

logger = logging.getLogger(__name__)


def purge_old_classes() -> None:
    """Delete the class tables (and students' names) older than 30 days, as
    ``manage.py purge_classes`` does, so that nobody has to remember to run it. One
    small query; a failure is logged and never stops a teacher opening a table."""
    try:
        with transaction.atomic():  # a failed purge leaves the request's database usable
            tables.classes_purge(days=30)
    except Exception:
        logger.exception("Deleting the class tables older than 30 days failed")


def class_new(request):
    """The form; a valid one opens the class table and goes to the teacher's page
    (deleting the class tables older than 30 days first). Over the limits of open
    class tables nothing is opened: 429 with the form and the reason."""
    form = ClassTableForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        purge_old_classes()
        try:
            return open_class_tables(request, form.settings())
        except tables.TooManyTables as error:
            form.add_error(None, too_many_tables_text(error))
            status = 429
    elif request.method == "POST":
        status = 400
    return render(request, "teach/class_new.html", {"form": form}, status=status)


def open_class_tables(request, s):
    """Open the class table, or the class's tablets' tables, of the form's settings
    ``s``; the teacher's page of it (of them)."""
    opener = {"session_key": session_key(request), "address": request.META.get("REMOTE_ADDR")}
    common = {
        "class_name": s.class_name,
        "options": s.options,
        "fill_level": s.fill_level,
        "turn_timer_ms": s.turn_timer_ms,
        "beat_ms": s.beat_ms,
    }
    if s.tablets:
        codes = tables.table_open_class_tablets(
            tablets=s.tablets, players=s.players, **opener, **common
        )
        return redirect("class_tablets", code=codes[0])
    code = tables.table_open_class(players=s.players, **opener, **common)
    return redirect("class_teacher", code=code)


def teachers_table(request, code: str) -> Table | None:
    """The class table ``code`` if this browser is its teacher; None if it is not
    (404 when there is no such class table)."""
    table = Table.objects.filter(code=normalise_code(code)).exclude(teacher_key="").first()
    if table is None:
        raise Http404(_("There is no class table with that code. Check the letters."))
    if not tables.class_teacher(code=table.code, session_key=request.session.session_key):
        return None
    return table


def not_the_teacher(request, table_code: str):
    return render(
        request,
        "teach/class_forbidden.html",
        {"code": table_code, "table_url": reverse("play_table", args=[table_code])},
        status=403,
    )


def pace_choice(table: Table) -> dict:
    """The pace form's choices for the table's current pace."""
    beats = {ms: name for name, ms in BEAT_MS.items()}
    if table.beat_ms:
        return {"pace": beats.get(table.beat_ms, "beat"), "turn_timer": 0}
    return {"pace": "own", "turn_timer": (table.turn_timer_ms or 0) // 1000}


def assigned_lesson(table: Table) -> list[dict]:
    """The class's lesson as one more thing a student finishes (``lesson:<CODE>``)."""
    if not table.lesson_code:
        return []
    found = lesson_find(table.lesson_code)
    title = (found.title if found else "") or _("Lesson %(code)s") % {"code": table.lesson_code}
    return [{"slug": f"lesson:{table.lesson_code}", "title": title}]


@require_POST
def class_lesson(request, code: str):
    """The teacher gives the class a lesson by its code (empty: none); the students'
    table pages link to it, and the teacher's page counts who finished it."""
    table = teachers_table(request, code)
    if table is None:
        return not_the_teacher(request, normalise_code(code))
    wanted = normalise_code(request.POST.get("lesson", ""))
    found = lesson_find(wanted) if wanted else None
    if wanted and found is None:
        messages.error(request, _("There is no lesson with that code. Check the letters."))
    else:
        tables.class_lesson_assign(code=table.code, lesson=found.code if found else "")
    return redirect("class_teacher", code=table.code)


def class_teacher(request, code: str):
    table = teachers_table(request, code)
    if table is None:
        return not_the_teacher(request, normalise_code(code))
    code = table.code
    template = "__CODE__"
    config = {
        "code": code,
        "socket": f"/ws/play/{code}/",
        "lang": request.LANGUAGE_CODE,
        "follow": reverse("class_teacher", args=[template]),
        "beat_ms": BEAT_MS,
        "walkthroughs": [
            {"slug": slug, "title": str(narration.TITLES[slug])} for slug in walkthrough_slugs()
        ]
        + assigned_lesson(table),
        "levels": {value: str(label) for value, label in LEVEL_CHOICES},
    }
    context = {
        "code": code,
        "table": table,
        "share_url": share_url(request, code),
        "projector_url": reverse("class_projector", args=[code]),
        "replay_url": reverse("replay", args=[code]),
        "lesson_url": reverse("replay_lesson", args=[code]),
        "pace_form": PaceForm(initial=pace_choice(table)),
        "pace_now": pace_text(table.turn_timer_ms, table.beat_ms),
        "levels": LEVEL_CHOICES,
        "level": table.fill_level or "steady",
        "config": config,
        "earlier": earlier_games(table),
        "class_lesson": table.lesson_code,
    }
    return render(request, "teach/class_teacher.html", context)


def tablet_rows(request, group: str, teacher_key: str) -> list[dict]:
    """The tables of a class's tablets opened together (``device_group`` ``group``),
    the current game of each (a table whose class went on at a new one is left out):
    its code, links, the children who sat down, free seats, started and over."""
    over = TableEvent.objects.filter(table=OuterRef("pk"), data__code="game_over")
    group_tables = (
        Table.objects.filter(device_group=group, teacher_key=teacher_key, next_code="")
        .annotate(over=Exists(over))
        .prefetch_related("seats")
        .order_by("id")
    )
    rows = []
    for number, t in enumerate(group_tables, start=1):
        seats = sorted(t.seats.all(), key=lambda s: s.number)
        rows.append(
            {
                "number": number,
                "code": t.code,
                "share_url": share_url(request, t.code),
                "teacher_url": reverse("class_teacher", args=[t.code]),
                "names": [s.display_name for s in seats if s.session_key and not s.is_bot],
                "free": sum(1 for s in seats if not s.session_key and not s.is_bot),
                "computers": bool(t.fill_level),  # they take the free seats at the start
                "started": t.teacher_started,
                "over": t.over,
            }
        )
    return rows


REFUSED_KEY = "class_tablets_refused"  # the session's refusals of the last "start them all"


def tablets_context(request, code: str) -> dict | None:
    """The tablets page's context for the teacher of class ``code`` (None: another
    browser); the refusals of the last "start them all" are said until the table starts."""
    table = teachers_table(request, code)
    if table is None:
        return None
    if not table.device_group:
        raise Http404(_("There is no class table with that code. Check the letters."))
    group = table.device_group
    rows = tablet_rows(request, group, table.teacher_key)
    refused = request.session.get(REFUSED_KEY, {})
    for row in rows:
        reason = None if row["started"] else refused.get(row["code"])
        row["refused"] = str(TABLE_ERROR_TEXTS[reason]) if reason in TABLE_ERROR_TEXTS else ""
    return {
        "group": group,
        "table": table,
        "rows": rows,
        "waiting": sum(1 for r in rows if not r["started"]),
    }


def class_tablets(request, code: str):
    """The teacher's page of a class's tablets: every tablet's table (its code large,
    who sat down, started or over), and one button to start them all. The page follows
    the tablets by itself (``tablets.js`` asks :func:`class_tablets_state`)."""
    context = tablets_context(request, code)
    if context is None:
        return not_the_teacher(request, normalise_code(code))
    return render(request, "teach/class_tablets.html", context)


def class_tablets_state(request, code: str):
    """The tablets page's changing parts, for the page to update itself without a
    reload: each tablet's card (``code``, ``html``) and the start button (``start``)."""
    context = tablets_context(request, code)
    if context is None:
        return JsonResponse({"error": "not_the_teacher"}, status=403)
    cards = [
        {
            "code": row["code"],
            "html": render_to_string("teach/includes/tablet_card.html", {"row": row}, request),
        }
        for row in context["rows"]
    ]
    start = render_to_string("teach/includes/tablets_start.html", context, request)
    return JsonResponse({"cards": cards, "start": start, "waiting": context["waiting"]})


@require_POST
def class_tablets_start(request, code: str):
    """Start every tablet's table that has not started (each as the teacher's ``start``
    control: computer players for free seats, or the table shrinks to the children
    there; a table with fewer than two players is left waiting, and says why), then
    back to the tablets page, which says any refusal."""
    table = teachers_table(request, code)
    if table is None:
        return not_the_teacher(request, normalise_code(code))
    if not table.device_group:
        raise Http404(_("There is no class table with that code. Check the letters."))
    rows = tablet_rows(request, table.device_group, table.teacher_key)
    waiting = [row["code"] for row in rows if not row["started"]]
    refused = start_all(waiting, request.session.session_key)
    request.session[REFUSED_KEY] = {c: r for c, r in refused.items() if r}
    return redirect("class_tablets", code=table.device_group)


def start_all(codes: list[str], teacher_key: str) -> dict[str, str | None]:
    """The teacher's ``start`` at each table of ``codes``, over the tables' service (the
    owner of each table decides): code -> the refusal's code, or None when started."""

    async def start() -> dict[str, str | None]:
        done = {}
        for code in codes:
            outcome = await tables.table_control(
                code=code, session_key=teacher_key, message={"type": "start"}
            )
            done[code] = outcome.refused
        return done

    return async_to_sync(start)()


def class_projector(request, code: str):
    table = teachers_table(request, code)
    if table is None:
        return not_the_teacher(request, normalise_code(code))
    return table_page(request, table, projector=True)
