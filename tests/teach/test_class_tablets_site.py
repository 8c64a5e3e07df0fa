"""A class on tablets on the real site (its server): the teacher opens two tablets' tables
from the class form in Chromium, the children of each tablet sit down together over the
WebSocket (``join`` with ``players``), and the teacher's "start them all" starts both
tables from the page (the view reaches the tables' owner in the server's own loop)."""

import http.cookiejar
import json
import re
import urllib.request
from urllib.parse import urlsplit

from django.utils import translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import expect

from tests.screens import serious_violations
from tests.tables.wsclient import WSClient


def tablet_joins(site_url: str, code: str, players: list[dict]) -> dict:
    """A tablet's browser (a session of its own) opens the table page, then sits its
    people down over the WebSocket; returns the welcome."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{site_url}/en/play/{code}/").read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    where = urlsplit(site_url)
    ws = WSClient(where.hostname, where.port, f"/ws/play/{code}/", origin=site_url, cookie=cookie)
    try:
        ws.send_json({"type": "hello", "lang": "en"})
        assert ws.receive_json()["my_seats"] == []
        ws.send_json({"type": "join", "players": players})
        while (frame := ws.receive_json())["type"] != "welcome":
            assert frame["type"] != "error", frame
        return frame
    finally:
        ws.close()


def test_a_teacher_opens_tablets_and_starts_them_all_on_the_real_site(site_url, page, screenshot):
    page.goto(f"{site_url}/en/teach/class/")
    page.fill("#class_class_name", "Class 2A")
    page.select_option("#class_tablets", "2")
    page.select_option("#class_per_tablet", "2")
    page.click("form.open-form button[type=submit]")
    page.wait_for_url(re.compile(r"/en/teach/class/[A-Z0-9]+/tablets/$"))
    codes = page.locator(".tablet-card .table-code").all_inner_texts()
    assert len(codes) == 2
    welcome = tablet_joins(site_url, codes[0], [{"name": "Noa", "lang": "he"}, {"name": "Ravi"}])
    assert welcome["device"] is True and welcome["my_seats"] == [0, 1]
    tablet_joins(site_url, codes[1], [{"name": "Ana", "lang": "ta"}, {"name": "Ben", "lang": "hr"}])
    page.reload()
    cards = page.locator(".tablet-card")
    assert "Noa" in cards.nth(0).inner_text() and "Ben" in cards.nth(1).inner_text()
    screenshot(page, "class-tablets-waiting")
    page.click("text=Start the games at the 2 tablets waiting")
    page.wait_for_load_state()
    assert page.locator(".tablet-card", has_text="Playing.").count() == 2
    screenshot(page, "class-tablets-playing")
    page.goto(f"{site_url}/en/play/{codes[0]}/")
    config = json.loads(page.locator("#table-config").text_content())
    assert config["code"] == codes[0] and "device" not in config  # the teacher watches


def test_the_tablets_page_follows_the_tablets_without_reloading(site_url, page):
    page.goto(f"{site_url}/he/teach/class/")
    page.fill("#class_class_name", "ג׳ 2")
    page.select_option("#class_tablets", "2")
    page.select_option("#class_per_tablet", "3")
    page.check("#class_fill")
    page.click("form.open-form button[type=submit]")
    page.wait_for_url(re.compile(r"/he/teach/class/[A-Z0-9]+/tablets/$"))
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    page.evaluate("() => { window.stillTheSamePage = true; }")
    codes = page.locator(".tablet-card .table-code").all_inner_texts()
    first = page.locator(f'.tablet-card[data-code="{codes[0]}"]')
    with translation.override("he"):
        nobody = gettext("Nobody has sat down yet.")
        free = ngettext(
            "Ready: a computer player takes the %(counter)s seat still free at the start.",
            "Ready: computer players take the %(counter)s seats still free at the start.",
            1,
        ) % {"counter": 1}
    expect(first.locator(".tablet-names")).to_have_text(nobody)

    tablet_joins(site_url, codes[0], [{"name": "Noa", "lang": "he"}, {"name": "Ravi"}])
    expect(first.locator(".tablet-names")).to_have_text("Noa, Ravi", timeout=8000)
    # the computer players the teacher ticked take the seat still free: it counts as taken
    expect(first.locator(".tablet-state")).to_have_text(free)
    expect(page.locator("#tablets-told")).to_contain_text("Noa, Ravi")  # said politely
    assert page.locator("#tablets-told").get_attribute("aria-live") == "polite"
    assert page.evaluate("() => window.stillTheSamePage") is True  # no reload
    assert serious_violations(page) == []

    tablet_joins(site_url, codes[1], [{"name": "Ana", "lang": "ta"}])
    page.locator("#tablets-start-box button").click()  # both start: computers fill the seats
    page.wait_for_url(re.compile(r"/he/teach/class/[A-Z0-9]+/tablets/$"))
    with translation.override("he"):
        playing = gettext("Playing.")
    expect(page.locator(".tablet-card .tablet-state", has_text=playing)).to_have_count(2)
    assert page.locator("#tablets-start-box button").count() == 0
    assert serious_violations(page) == []
