"""The Play pages: the lobby (practice, open a table, public tables, join by code) and
the table page (drawn by :mod:`games.live.table_page`, which a class's projector shows
too). The game itself runs over the WebSocket (docs/protocol.md); these views only
create tables, bind the opener's browser session to a seat, and serve the page.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import tables
from games.live.bot_levels import levels_help
from games.live.limit_words import too_many_tables_text
from games.live.table_page import session_key, table_page
from games.models import Table
from games.play.forms import DeviceTableForm, JoinByCodeForm, OpenTableForm, PracticeForm
from games.tables.changes import tables_version
from games.tables.codes import normalise_code

#: (form class, language) -> an unbound form's HTML: the same for every visitor, and
#: rendering the two lobby forms through Django's form templates was half the page.
_blank_forms: dict[tuple[type, str | None], str] = {}


def form_html(form) -> str:
    """``form.as_div()``, made once per language for a form with no data."""
    if form.is_bound:
        return form.as_div()
    key = (type(form), get_language())
    html = _blank_forms.get(key)
    if html is None:
        html = _blank_forms[key] = form.as_div()
    return html


def lobby(
    request, practice_form=None, open_form=None, join_form=None, device_form=None, status=200
):
    context = {
        "practice_form": practice_form or PracticeForm(),
        "device_form": device_form or DeviceTableForm(),
        "open_form_html": form_html(open_form or OpenTableForm()),
        "join_form_html": form_html(join_form or JoinByCodeForm()),
        "open_tables": tables.tables_open(limit=20),
        "level_help": levels_help(),
    }
    return render(request, "play/lobby.html", context, status=status)


def lobby_state(request) -> tuple[str, str]:
    """The lobby's mark for its kept page (games.content.page_cache): the version of
    the tables it lists (games.tables.changes), so a table opened or filled shows at
    once."""
    return "lobby", str(tables_version())


def play(request):
    """The lobby; ``?code=…`` (the join-by-code form) goes to that table."""
    if "code" in request.GET:
        form = JoinByCodeForm(request.GET)
        if form.is_valid():
            code = normalise_code(form.cleaned_data["code"])
            if Table.objects.filter(code=code).exists():
                return redirect("play_table", code=code)
            form.add_error("code", _("There is no table with that code. Check the letters."))
        return lobby(request, join_form=form, status=400)
    return lobby(request)


def open_from_lobby(request, form, form_name: str, open_table):
    """One of the lobby's forms that open a table: a bad form is a 400 with its errors, a
    session or address at its limit of open tables a 429, else the new table's page.
    ``open_table(settings, session_key, address)`` stores the table and gives its code."""
    if not form.is_valid():
        return lobby(request, **{form_name: form}, status=400)
    try:
        code = open_table(form.settings(), session_key(request), request.META.get("REMOTE_ADDR"))
    except tables.TooManyTables as error:
        form.add_error(None, too_many_tables_text(error))
        return lobby(request, **{form_name: form}, status=429)
    return redirect("play_table", code=code)


@require_POST
def play_practice(request):
    return open_from_lobby(
        request,
        PracticeForm(request.POST),
        "practice_form",
        lambda s, key, address: tables.table_create_practice(
            session_key=key, name=s.name, levels=s.levels, address=address
        ),
    )


@require_POST
def play_open(request):
    return open_from_lobby(
        request,
        OpenTableForm(request.POST),
        "open_form",
        lambda s, key, address: tables.table_open(
            session_key=key,
            address=address,
            name=s.name,
            players=s.players,
            options=s.options,
            bots=s.bots,
            public=s.public,
            turn_timer_ms=s.turn_timer_ms,
            beat_ms=s.beat_ms,
            lag_cap_ms=s.lag_cap_ms,
        ),
    )


@require_POST
def play_device(request):
    """A table on one device: every person's seat bound to this browser session, play
    started at once (the slow beat), and the tablet goes to the table's page."""
    return open_from_lobby(
        request,
        DeviceTableForm(request.POST),
        "device_form",
        lambda s, key, address: tables.table_open_device(
            session_key=key, people=s.people, levels=s.levels, address=address
        ),
    )


def play_table(request, code: str):
    code = normalise_code(code)
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise Http404(_("There is no table with that code. Check the letters."))
    return table_page(request, table)


__all__ = [
    "lobby",
    "lobby_state",
    "play",
    "play_device",
    "play_open",
    "play_practice",
    "play_table",
]
