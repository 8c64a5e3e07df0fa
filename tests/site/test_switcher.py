"""Every language button leads to the same page in its language, whatever the entry point."""

import pytest

from tests.conftest import LANGUAGE_CODES

ENTRY_PAGES = ("/ta/rules/", "/he/learn/tie/", "/hr/glossary/", "/mr/start/", "/ms/")


def switch(client, language: str, next_url: str, **headers):
    return client.post("/i18n/setlang/", {"language": language, "next": next_url}, **headers)


@pytest.mark.parametrize("entry", ENTRY_PAGES)
@pytest.mark.parametrize("target", LANGUAGE_CODES)
def test_a_fresh_reader_switching_from_any_language_lands_on_the_same_page(
    client, content, entry, target
):
    # No cookie, an English browser: the request's own language is not the page's.
    response = switch(client, target, entry, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    entry_lang = entry.split("/")[1]
    assert response["Location"] == entry.replace(f"/{entry_lang}/", f"/{target}/", 1)
    assert response.cookies["snap_language"].value == target
    assert client.get(response["Location"]).status_code == 200


def test_the_query_string_comes_along(client, content):
    response = switch(client, "en", "/he/learn/tie/?step=3", HTTP_ACCEPT_LANGUAGE="ta")
    assert response["Location"] == "/en/learn/tie/?step=3"


def test_the_cookie_then_opens_the_chosen_language(client, content):
    switch(client, "hr", "/ta/rules/")
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ta")
    assert response["Location"] == "/hr/"


def test_a_page_that_does_not_exist_leads_to_the_home_page_in_the_language(client, content):
    assert switch(client, "he", "/ta/nowhere/")["Location"] == "/he/"
    assert switch(client, "ms", "/")["Location"] == "/ms/"


def test_another_site_is_never_the_next_page(client, content):
    response = switch(client, "ta", "https://elsewhere.example/en/rules/")
    assert response["Location"] == "/ta/"


def test_an_unknown_language_is_refused_and_sets_no_cookie(client, content):
    response = switch(client, "fr", "/en/rules/")
    assert response.status_code == 400
    assert "snap_language" not in response.cookies


def test_switching_needs_a_post(client, content):
    assert client.get("/i18n/setlang/?language=ta&next=/en/rules/").status_code == 405


def test_every_page_offers_the_switcher_with_its_own_address_as_next(client, content):
    html = client.get("/he/learn/tie/?step=2").content.decode()
    assert 'action="/i18n/setlang/"' in html
    assert '<input name="next" type="hidden" value="/he/learn/tie/?step=2">' in html
