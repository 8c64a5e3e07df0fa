"""A live table's page, as a player sees it from the lobby and a class sees it on the
projector: the table picture's cards and rule links, the seats this browser holds, and
on one device each person's edge of the screen. The game itself runs over the WebSocket
(docs/protocol.md); the page only binds the browser session and serves the picture.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse

from games.content.sections import section_titles
from games.engine import full_deck
from games.frames.walkthroughs import card_data, clause_links, clause_sections
from games.live.device_edges import device_bots, device_edges, device_languages
from games.live.practice_again import practice_again
from games.live.share_links import share_url
from games.models import Seat, Table
from games.tables.device import DEVICE_BEATS
from games.tables.protocol import walkthrough_slugs

__all__ = ["session_key", "table_page"]


def session_key(request) -> str:
    """The browser session's key, made now if the browser has none yet: the WebSocket
    finds the player's seat through it."""
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key


def card_faces() -> dict[str, dict]:
    """Every card as the table picture draws it, named in the page's language."""
    return {card.code: card_data(card) for card in full_deck()}


def rule_links() -> dict[str, dict]:
    """Each clause id -> its link on the rules page and its section's title."""
    titles = section_titles()
    links = clause_links(sorted(clause_sections()))
    return {link["id"]: {**link, "section": titles.get(link["anchor"], "")} for link in links}


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
        "walkthroughs": (
            list(walkthrough_slugs())
            + ([f"lesson:{table.lesson_code}"] if table.lesson_code else [])
            if table.teacher_key
            else []
        ),
    }
    context = {
        "code": code,
        "table": table,
        "class_table": bool(table.teacher_key),
        "class_lesson": table.lesson_code if table.teacher_key else "",
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
