import re

import pytest

from tests.conftest import LANGUAGE_CODES

PAGES = ("home", "rules", "glossary", "learn", "play", "teach")
RTL = {"he"}


def page_url(lang: str, page: str) -> str:
    return f"/{lang}/" if page == "home" else f"/{lang}/{page}/"


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_every_language_with_lang_dir_and_hreflang(
    client, content, lang, page
):
    response = client.get(page_url(lang, page))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}" dir="{"rtl" if lang in RTL else "ltr"}">' in html
    hreflangs = re.findall(r'<link rel="alternate" hreflang="([a-z]+)" href="([^"]+)"', html)
    assert sorted(code for code, _ in hreflangs) == sorted(LANGUAGE_CODES)
    for code, href in hreflangs:
        assert href.endswith(page_url(code, page))
    # The switcher offers all six languages, each named in its own script.
    for code in LANGUAGE_CODES:
        assert f'name="language" value="{code}" lang="{code}"' in html


@pytest.mark.parametrize("page", PAGES)
def test_switching_language_keeps_the_reader_on_the_same_page(client, content, page):
    response = client.post(
        "/i18n/setlang/", {"language": "ta", "next": page_url("en", page)}, follow=False
    )
    assert response.status_code == 302
    assert response["Location"] == page_url("ta", page)
    assert response.cookies["snap_language"].value == "ta"
    assert client.get(response["Location"]).status_code == 200


def test_root_redirects_to_the_language_from_the_cookie(client, content):
    client.cookies["snap_language"] = "hr"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="he")
    assert response.status_code == 302
    assert response["Location"] == "/hr/"


def test_root_redirects_to_the_browser_language_without_a_cookie(client, content):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ta-IN,ta;q=0.9,en;q=0.5")
    assert response["Location"] == "/ta/"


def test_root_redirects_to_english_for_an_unknown_language(client, content):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert response["Location"] == "/en/"


def test_rules_page_has_an_anchor_per_section_and_shows_its_clauses(client, content):
    html = client.get("/en/rules/").content.decode()
    for slug in (
        "introduction",
        "setup",
        "ties-and-snap-pot",
        "mistakes",
        "stuck-pot",
        "table-rules",
    ):
        assert f'id="{slug}"' in html
        assert f'href="#{slug}"' in html
    assert '<bdi class="clause">R14</bdi>' in html


def test_hebrew_rules_isolate_numbers_for_right_to_left_reading(client, content):
    html = client.get("/he/rules/").content.decode()
    assert "<bdi>52</bdi>" in html
    assert "<bdi>150</bdi>" in html


def test_pages_load_nothing_from_other_hosts(client, content):
    for lang in LANGUAGE_CODES:
        for page in PAGES:
            html = client.get(page_url(lang, page)).content.decode()
            for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
                assert not ref.startswith(("http://", "https://", "//")) or "testserver" in ref


def test_admin_edits_rules_with_a_tab_per_language_and_no_cdn(admin_client, content):
    from games.models import RulesSection

    section = RulesSection.objects.get(slug="mistakes")
    html = admin_client.get(f"/en/admin/games/rulessection/{section.pk}/change/").content.decode()
    for lang in LANGUAGE_CODES:
        assert f'name="body_{lang}"' in html
    assert "vendor/jquery-ui/jquery-ui.min.js" in html
    assert "googleapis" not in html
