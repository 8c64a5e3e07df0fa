"""Light pages, as the server makes them: the icon a browser asks for at the root, the
JavaScript catalog deferred and cacheable under a versioned address, each language's
fonts preloaded, and the scripted parts (player, quiz) present but kept unseen until
their script starts, so starting moves nothing."""

from __future__ import annotations

import re

import pytest

from games.js_catalog import catalog_version
from games.web_fonts import preloaded

pytestmark = pytest.mark.django_db


def test_the_favicon_is_answered_at_the_root_and_cached_a_day(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/vnd.microsoft.icon"
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert "max-age=86400" in response["Cache-Control"]


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_every_page_links_icons_for_tabs_and_bookmarks(client, content, lang):
    html = client.get(f"/{lang}/").content.decode()
    assert re.search(r'<link rel="icon" href="/static/games/icons/favicon\.ico"', html)
    assert 'rel="icon" href="/static/games/icons/icon-192.png" type="image/png"' in html
    assert '<link rel="apple-touch-icon" href="/static/games/icons/apple-touch-icon.png">' in html


def test_the_javascript_catalog_is_deferred_and_versioned(client, content):
    html = client.get("/ta/learn/first-turns/").content.decode()
    version = catalog_version()
    assert f'<script defer src="/ta/jsi18n/?v={version}"></script>' in html
    assert html.index("/ta/jsi18n/") < html.index("walkthrough.js")  # runs before the module


def test_the_versioned_catalog_is_kept_a_year_and_an_old_address_a_minute(client):
    current = client.get(f"/he/jsi18n/?v={catalog_version()}")
    assert current.status_code == 200 and b"gettext" in current.content
    assert "max-age=31536000" in current["Cache-Control"]
    assert "immutable" in current["Cache-Control"]
    old = client.get("/he/jsi18n/?v=000000000000")
    assert "max-age=60" in old["Cache-Control"] and "immutable" not in old["Cache-Control"]


@pytest.mark.parametrize(
    ("lang", "fonts"),
    [
        ("en", ["snap-latin-400", "snap-latin-700"]),
        ("he", ["snap-latin-400", "snap-latin-700", "snap-hebrew-400", "snap-hebrew-700"]),
        ("ta", ["snap-latin-400", "snap-latin-700", "snap-tamil-400", "snap-tamil-700"]),
        ("mr", ["snap-latin-400", "snap-latin-700", "snap-devanagari-400", "snap-devanagari-700"]),
    ],
)
def test_a_page_preloads_its_own_languages_fonts_only(client, content, lang, fonts):
    html = client.get(f"/{lang}/rules/").content.decode()
    found = re.findall(r'<link rel="preload" href="/static/games/fonts/([a-z0-9-]+)\.woff2"', html)
    assert found == fonts
    assert [p.rsplit("/", 1)[-1].removesuffix(".woff2") for p in preloaded(lang)] == fonts
    assert 'as="font" type="font/woff2" crossorigin="anonymous">' in html
    assert "@import" not in html and ".ttf" not in html


def test_the_player_keeps_its_place_and_no_script_css_hides_it(client, content):
    html = client.get("/en/learn/first-turns/").content.decode()
    assert '<section class="player"' in html and "hidden>" in html
    assert (
        '<noscript><link rel="stylesheet" href="/static/games/css/no-script.css"></noscript>'
        in html
    )
    assert '<div class="table-picture round-table" id="table-picture"></div>' in html


def test_the_quiz_page_draws_its_first_question_for_the_script_to_take_over(client, content):
    html = client.get("/he/teach/quiz/?seed=7").content.decode()
    assert 'class="page-quiz quiz-running"' in html
    app = html[html.index('<section id="quiz-app"') : html.index("</section>")]
    assert re.search(r'<p class="quiz-progress" id="quiz-progress">[^<]*1[^<]*</p>', app)
    assert app.count('<button type="button" class="quiz-choice"') >= 2
    assert re.search(r'<h2 class="quiz-prompt" id="quiz-prompt" tabindex="-1">[^<]+</h2>', app)
    assert 'id="quiz-next" hidden>' in app
