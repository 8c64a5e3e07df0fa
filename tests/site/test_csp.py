"""Every kind of page works under the site's Content-Security-Policy (scripts and
styles from the site only, nothing inline): Chromium reports no violation and no
script error on any of them, and their scripts ran."""

from __future__ import annotations

import re

import pytest

from games.tables.protocol import walkthrough_slugs
from tests.site.test_new_pages_access import open_class_page, open_page, open_practice_table

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def finished(site_url, site_env):
    from tests.browsers import store_finished_game

    return store_finished_game(site_env, {0: "Ana", 1: "Kavin"})


def open_kind(kind: str, page, url: str, finished: str) -> None:
    """Open one kind of page and wait for what its scripts draw, if it has any."""
    slug = walkthrough_slugs()[0]
    simple = {
        "home": "/en/",
        "rules": "/he/rules/",
        "glossary": "/ta/glossary/",
        "learn": "/en/learn/",
        "start": "/mr/start/",
        "sheet-game": f"/en/teach/sheet/?parts=game:{finished}",
        "sheet-rules": "/hr/teach/sheet/?parts=rules,start",
    }
    if kind in simple:
        page.goto(url + simple[kind])
    elif kind == "walkthrough":
        page.goto(f"{url}/en/learn/{slug}/?step=3")
        page.locator(".step-count, [data-step]").first.wait_for(state="attached")
    elif kind == "table":
        open_practice_table(page, url, "he")
    elif kind == "projector":
        open_class_page(page, url, "en")
        page.goto(page.url + "projector/")
        page.locator(".seat").first.wait_for()
    else:
        open_page(kind, page, "en", {"site": url, "finished": finished, "plain": url})


KINDS = [
    "home",
    "rules",
    "glossary",
    "learn",
    "walkthrough",
    "start",
    "lobby",
    "table",
    "replay",
    "lesson",
    "teach",
    "class-form",
    "class-teacher",
    "projector",
    "quiz",
    "quiz-print",
    "sheet",
    "sheet-game",
    "sheet-rules",
]


@pytest.mark.parametrize("kind", KINDS)
def test_a_page_works_under_the_content_security_policy(kind, page, site_url, finished):
    reported: list[str] = []
    page.on("console", lambda m: reported.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: reported.append(f"page error: {e}"))
    responses = []
    page.on(
        "response", lambda r: responses.append(r) if r.request.is_navigation_request() else None
    )
    open_kind(kind, page, site_url, finished)
    page.wait_for_load_state("networkidle")
    policy = responses[-1].headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    violations = [r for r in reported if re.search(r"Content Security Policy|Refused to", r)]
    assert violations == [], violations
    assert [r for r in reported if r.startswith("page error")] == []
