"""The Play pages: the lobby (practice, open a table, public tables, join by code) and
the table page. The game itself runs over the WebSocket (docs/protocol.md); these views
only create tables, bind the opener's browser session to a seat, and serve the page.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import tables
from games.content.sections import section_titles
from games.engine import full_deck
from games.learn.walkthroughs import card_data, clause_links, clause_sections
from games.models import Seat, Table
from games.play.bot_levels import levels_help
from games.play.device_edges import device_bots, device_edges, device_languages
from games.play.forms import DeviceTableForm, JoinByCodeForm, OpenTableForm, PracticeForm
from games.play.limit_words import too_many_tables_text
from games.play.practice_again import practice_again
from games.play.share_links import share_url
from games.tables.changes import tables_version
from games.tables.codes import normalise_code
from games.tables.device import DEVICE_BEATS
from games.tables.protocol import walkthrough_slugs


def session_key(request) -> str:
    """The browser session's key, made now if the browser has none yet: the WebSocket
    finds the player's seat through it."""
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key


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


def card_faces() -> dict[str, dict]:
    """Every card as the table picture draws it, named in the page's language."""
    return {card.code: card_data(card) for card in full_deck()}


def rule_links() -> dict[str, dict]:
    """Each clause id -> its link on the rules page and its section's title."""
    titles = section_titles()
    links = clause_links(sorted(clause_sections()))
    return {link["id"]: {**link, "section": titles.get(link["anchor"], "")} for link in links}


def play_table(request, code: str):
    code = normalise_code(code)
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise Http404(_("There is no table with that code. Check the letters."))
    return table_page(request, table)


def table_page(request, table: Table, *, projector: bool = False):
    """The table page of ``table``; with ``projector``, a class's projector view: a
    spectator's page with big cards, the code and the narration, to follow the class
    to its next table (``follow``: the address with ``__CODE__`` for the new code)."""
    code = table.code
    key = session_key(request)
    held = list(Seat.objects.filter(table=table, session_key=key, is_bot=False).order_by("number"))
    seated = bool(held)
    link = share_url(request, code)
    follow = "class_projector" if projector else "play_table"
    config = {
        "code": code,
        "socket": f"/ws/play/{code}/",
        "lang": request.LANGUAGE_CODE,
        "cards": card_faces(),
        "rules": rule_links(),
        "lobby": reverse("play"),
        "follow": reverse(follow, args=["__CODE__"]),
        "projector": projector,
        # a class's student sends the walkthroughs finished on this device (known ones)
        "walkthroughs": list(walkthrough_slugs()) if table.teacher_key else [],
    }
    context = {
        "code": code,
        "table": table,
        "class_table": bool(table.teacher_key),
        "projector": projector,
        "seated": seated,
        "share_url": link,
        "config": config,
        "options": table.options,
        "replay_url": reverse("replay", args=[code]),
        "practice_again": practice_again(table, held),
    }
    if table.on_device and not projector and (held or tablet_to_fill(table, key)):
        return device_page(request, table, held, context)
    return render(request, "play/table.html", context)


def tablet_to_fill(table: Table, key: str) -> bool:
    """A class's table on one device that the people of this tablet may still sit down
    at ("Who is at this tablet?"); its teacher watches it as the table page."""
    return bool(table.teacher_key) and table.teacher_key != key


def device_page(request, table: Table, held: list[Seat], context: dict):
    """The table on one device (``play/device.html``): each held seat at an edge of the
    screen, in its own language; with none held yet, the form for the tablet's people."""
    edges = device_edges(held, request.LANGUAGE_CODE)
    bots = device_bots(list(table.seats.order_by("number")))
    languages = device_languages()
    context = {
        **context,
        "edges": edges,
        "bots": bots,
        "languages": languages,
        "seats_free": table.seats.filter(is_bot=False, session_key="").count(),
    }
    context["config"] = {
        **context["config"],
        "device": True,
        "edges": edges,
        "bots": bots,
        "languages": languages,
        "beats": {"slower": DEVICE_BEATS[1], "faster": DEVICE_BEATS[0]},
        "players_pace": not table.teacher_key,  # a class's teacher sets a tablet's pace
    }
    return render(request, "play/device.html", context)


__all__ = [
    "lobby",
    "lobby_state",
    "play",
    "play_device",
    "play_open",
    "play_practice",
    "play_table",
    "table_page",
]
