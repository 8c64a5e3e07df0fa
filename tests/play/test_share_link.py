"""The opener of a table on a phone shares its link, against the site's server: the phone has no
room for the link itself, so one button sends it, through the phone's share sheet (the
Web Share API) where there is one and to the clipboard otherwise; the link has no
language (``/play/CODE/``), so the friend's device opens it in its own."""

from __future__ import annotations

import pytest

from tests.play.test_live_table import open_table

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True}
SHARED = "window.__shared = []; navigator.share = async (data) => { window.__shared.push(data); };"
NO_SHARE = "delete Navigator.prototype.share;"


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 640


def test_a_phone_shares_the_link_without_a_language_through_its_share_sheet(chromium, site_url):
    context = chromium.new_context(locale="ms", **PHONE)
    context.add_init_script(SHARED)
    page = context.new_page()
    code = open_table(page, site_url, "ms", "Aisyah")
    share = page.locator(".share-link [data-action=share]")
    assert share.is_visible() and in_view(page, share)
    assert not page.locator(".share-link [data-action=copy]").is_visible()  # one button
    share.tap()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("() => window.__shared[0]")
    assert shared["url"] == f"{site_url}/play/{code}/"  # no /ms/ in it

    friend = chromium.new_context(locale="hr", **PHONE)
    other = friend.new_page()
    other.goto(shared["url"])
    assert other.url == f"{site_url}/hr/play/{code}/"
    friend.close()
    context.close()


def test_a_phone_without_a_share_sheet_copies_the_link_without_a_language(chromium, site_url):
    context = chromium.new_context(locale="ta", **PHONE)
    context.add_init_script(NO_SHARE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    page = context.new_page()
    code = open_table(page, site_url, "ta", "அருண்")
    assert not page.locator(".share-link [data-action=share]").is_visible()
    copy = page.locator(".share-link [data-action=copy]")
    assert copy.is_visible() and in_view(page, copy)
    copy.tap()
    page.wait_for_function("() => document.getElementById('announcer').textContent !== ''")
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{site_url}/play/{code}/"
    context.close()
