"""Lesson sheet pages: the sheet as HTML (to print from the browser) and as PDF.

Both come from the same template and the same address query (see ``games.teach.sheets.query``).
A quiz chosen without a quiz number, or parts given as repeated parameters (the
builder's check boxes), are redirected to the canonical address, so what the
teacher bookmarks is the short address that gives the same sheet again.
"""

from __future__ import annotations

import dataclasses
import random
import re

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.context_processors import NATIVE_NAMES
from games.teach.sheets import content as sheets_content
from games.teach.sheets import query as sheets
from games.teach.sheets.cells import direction
from games.teach.sheets.language import NotASheetLanguage, first_language

PAGE_SIZES = {"a4": "A4", "letter": "letter"}


def css_string(text: str) -> str:
    """``text`` as a CSS string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + re.sub(r"[\n\r\f]", " ", escaped) + '"'


def page_number_content() -> str:
    """The translated "Page 3 of 7" as a CSS ``content`` value made of counters."""
    sentence = _("Page %(page)s of %(pages)s")
    pieces = []
    for piece in re.split(r"(%\((?:page|pages)\)s)", sentence):
        if piece == "%(page)s":
            pieces.append("counter(page)")
        elif piece == "%(pages)s":
            pieces.append("counter(pages)")
        elif piece:
            pieces.append(css_string(piece))
    return " ".join(pieces)


def page_css(query: sheets.SheetQuery, address: str, rtl: bool) -> str:
    """The @page rule: paper size, the page number and the sheet's address (a long
    address wraps anywhere rather than run off the page)."""
    number_side, address_side = ("left", "right") if rtl else ("right", "left")
    return (
        f"@page {{ size: {PAGE_SIZES[query.paper]}; "
        f"@bottom-{address_side} {{ content: {css_string(address)}; width: 75%; "
        "font-size: 6.5pt; color: #444; direction: ltr; "
        "overflow-wrap: anywhere; word-break: break-all; "
        f"text-align: {address_side}; }} "
        f"@bottom-{number_side} {{ content: {page_number_content()}; width: 20%; "
        f"font-size: 8.5pt; white-space: nowrap; text-align: {number_side}; }} }}"
    )


def columns(query: sheets.SheetQuery) -> list[dict]:
    return [
        {"code": lang, "name": NATIVE_NAMES[lang], "dir": direction(lang)}
        for lang in query.languages
    ]


def _query(request):
    """(query, None) for a good address; else (None, the response to send)."""
    page = get_language()
    try:
        lang = first_language(request, page)
    except NotASheetLanguage as bad:
        context = {"problems": [str(bad)], "builder_url": reverse("teach") + "#sheet-builder"}
        return None, render(request, "teach/sheet_bad_query.html", context, status=400)
    try:
        query = sheets.parse(lang, request.GET, page=page)
    except sheets.BadSheetQuery as bad:
        context = {"problems": bad.problems, "builder_url": reverse("teach") + "#sheet-builder"}
        return None, render(request, "teach/sheet_bad_query.html", context, status=400)
    if query.needs_seed:
        fresh = random.SystemRandom().randrange(1, sheets.MAX_SEED)
        query = dataclasses.replace(query, seed=fresh)
        return None, redirect(f"{request.path}?{query.query_string()}")
    if len(request.GET.getlist("parts")) > 1 or ("lang" in request.GET and not query.page):
        return None, redirect(f"{request.path}?{query.query_string()}")
    return query, None


def sheet_context(request, query: sheets.SheetQuery) -> dict:
    qs = query.query_string()
    address = request.build_absolute_uri(f"{reverse('sheet')}?{qs}")
    rtl = direction(query.lang) == "rtl"
    with translation.override(query.lang):  # printed on the sheet: its first language
        css = page_css(query, address, rtl)
    parts = sheets_content.parts(query)
    for part in parts:
        if part["kind"] == "game":  # the replay's address, to type in from the paper
            for heading in part["headings"]:
                heading["replay_url"] = request.build_absolute_uri(heading["replay_path"])
    return {
        "query": query,
        "columns": columns(query),
        "two": query.also is not None,
        "parts": parts,
        "address": address,
        "page_css": css,
        "sheet_dir": direction(query.lang),
        "page_css_url": f"{reverse('sheet_page_css')}?{qs}",
        "pdf_url": f"{reverse('sheet_pdf')}?{qs}",
        "builder_url": reverse("teach") + "#sheet-builder",
    }


def sheet(request):
    query, response = _query(request)
    if response is not None:
        return response
    return render(request, "teach/sheet.html", sheet_context(request, query))


def sheet_page_css(request):
    """The sheet's @page rule as a stylesheet of the site (the Content-Security-Policy
    allows no inline style); the same query as the sheet's."""
    query, response = _query(request)
    if response is not None:
        return response
    context = sheet_context(request, query)
    return HttpResponse(context["page_css"], content_type="text/css; charset=utf-8")


def pdf_filename(query: sheets.SheetQuery) -> str:
    return "snap-sheet-" + "-".join(query.languages) + f"-{query.paper}.pdf"


def sheet_pdf(request):
    from games.teach.sheets.pdf import write_pdf  # WeasyPrint loads Pango: only when asked

    query, response = _query(request)
    if response is not None:
        return response
    context = {**sheet_context(request, query), "for_pdf": True}
    with translation.override(query.lang):  # the whole file is the sheet: its language
        html = render_to_string("teach/sheet.html", context, request=request)
    pdf = write_pdf(html, base_url=request.build_absolute_uri(), page_css=context["page_css"])
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{pdf_filename(query)}"'
    return response
