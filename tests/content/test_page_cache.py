"""The content pages are kept rendered (games/content/page_cache.py): a change in the
admin or by load_content shows on the next request, a browser's copy that is still
right gets 304, no visitor ever gets another's CSRF token, and pages are compressed
for a browser that asks."""

from __future__ import annotations

import gzip
import os
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client

from games.models import RulesSection
from tests.content.content_tree import copy_content
from tests.site.test_admin_translations import change_url, form_data

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CACHED = ["/en/", "/ta/rules/", "/hr/glossary/", "/en/start/", "/he/learn/",
          "/ta/learn/first-turns/?step=3"]  # fmt: skip


def secret_of(page: str) -> str:
    return _unmask_cipher_token(TOKEN.search(page).group(1))


@pytest.mark.parametrize("path", CACHED)
def test_a_copy_still_right_gets_304_and_a_changed_one_the_page(content, client, path):
    first = client.get(path)
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    again = client.get(path, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    other = client.get(path, headers={"if-none-match": '"not-this-one"'})
    assert other.status_code == 200 and TOKEN.search(other.content.decode())


def test_a_rules_section_changed_in_the_admin_shows_on_the_next_request(
    content, client, django_capture_on_commit_callbacks
):
    get_user_model().objects.create_superuser("editor", "editor@example.org", "pw-for-tests")
    client.login(username="editor", password="pw-for-tests")
    section = RulesSection.objects.get(slug="goal")
    old = client.get("/ta/rules/")
    assert section.title_ta in old.content.decode()
    form = client.get(change_url(section)).content.decode()
    shown = re.search(r'name="english_seen" value="([0-9a-f]+)"', form).group(1)
    data = form_data(section, title_ta="புதிய இலக்கு", english_seen=shown)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(change_url(section), data)
    assert response.status_code == 302
    page = client.get("/ta/rules/", headers={"if-none-match": old["ETag"]})
    assert page.status_code == 200 and "புதிய இலக்கு" in page.content.decode()
    assert section.title_en in client.get("/en/rules/").content.decode()


def test_a_rules_section_changed_by_load_content_shows_on_the_next_request(
    content, client, tmp_path
):
    section = RulesSection.objects.get(slug="goal")
    assert section.title_ta in client.get("/ta/rules/").content.decode()
    tree = copy_content(tmp_path)
    ta = tree / "ta.toml"
    ta.write_text(ta.read_text(encoding="utf-8").replace(section.title_ta, "புதிய இலக்கு"))
    call_command("load_content", content_dir=tree, stdout=open(os.devnull, "w"))
    assert "புதிய இலக்கு" in client.get("/ta/rules/").content.decode()


def test_two_visitors_never_get_each_others_csrf_token_or_304(content):
    ana, ben = Client(), Client()
    ana_page = ana.get("/en/rules/")  # made and kept for Ana
    ben_page = ben.get("/en/rules/")  # served from what was kept
    ana_secret, ben_secret = ana.cookies["csrftoken"].value, ben.cookies["csrftoken"].value
    assert ana_secret != ben_secret
    assert secret_of(ana_page.content.decode()) == ana_secret
    assert secret_of(ben_page.content.decode()) == ben_secret
    assert ana_page["ETag"] != ben_page["ETag"]
    with_anas_etag = ben.get("/en/rules/", headers={"if-none-match": ana_page["ETag"]})
    assert with_anas_etag.status_code == 200
    assert secret_of(with_anas_etag.content.decode()) == ben_secret


def test_a_page_is_compressed_when_the_browser_asks_and_its_weak_etag_still_matches(
    content, client
):
    plain = client.get("/ta/rules/")
    assert not plain.has_header("Content-Encoding")
    packed = client.get("/ta/rules/", headers={"accept-encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip"
    text = gzip.decompress(packed.content).decode()
    assert RulesSection.objects.get(slug="goal").title_ta in text
    assert len(packed.content) < len(plain.content) / 3
    again = client.get(
        "/ta/rules/", headers={"accept-encoding": "gzip", "if-none-match": packed["ETag"]}
    )
    assert packed["ETag"].startswith('W/"') and again.status_code == 304


def test_a_compressed_page_carries_each_visitors_own_token(content):
    ana, ben = Client(), Client()
    pages = [c.get("/ta/rules/", headers={"accept-encoding": "gzip"}) for c in (ana, ben, ana)]
    texts = [gzip.decompress(p.content).decode() for p in pages]  # checks CRC and length
    assert all(p["Content-Encoding"] == "gzip" for p in pages)
    assert secret_of(texts[0]) == secret_of(texts[2]) == ana.cookies["csrftoken"].value
    assert secret_of(texts[1]) == ben.cookies["csrftoken"].value != secret_of(texts[0])
    plain = Client().get("/ta/rules/")
    assert TOKEN.sub("", texts[1]) == TOKEN.sub("", plain.content.decode())  # the same page
    assert "Accept-Encoding" in pages[0]["Vary"]


def test_a_packed_page_with_any_fillings_is_the_page_itself():
    from games.content.packed_page import PackedPage

    parts = [b"<p>" + bytes(range(256)) * 40, b"", "மாலை வணக்கம்".encode() * 300, b"end"]
    page = PackedPage(parts)
    for filling in (b"", b"x", b"A" * 64, "ழ".encode() * 100):
        assert gzip.decompress(page.gzip(filling)) == filling.join(parts)
    with pytest.raises(ValueError):
        page.gzip(b"y" * 70_000)


def test_a_kept_pages_token_is_masked_anew_and_its_form_posts(content):
    """The cheap mask (games/content/visitor_token.py) is one Django accepts."""
    visitor = Client(enforce_csrf_checks=True)
    first = visitor.get("/en/")  # home: the play form
    tokens = {TOKEN.search(visitor.get("/en/").content.decode()).group(1) for _ in range(5)}
    assert len(tokens) == 5  # each answer masked anew: a compressed length says nothing
    assert {_unmask_cipher_token(t) for t in tokens} == {visitor.cookies["csrftoken"].value}
    token = TOKEN.search(first.content.decode()).group(1)
    form = {"language": "ta", "next": "/en/", "csrfmiddlewaretoken": token}
    language = visitor.post("/i18n/setlang/", form)
    assert language.status_code == 302 and language["Location"] == "/ta/"
    forged = Client(enforce_csrf_checks=True)
    forged.get("/en/")
    refused = forged.post("/i18n/setlang/", form)
    assert refused.status_code == 403  # another visitor's token is not theirs


def test_a_visitor_with_the_cookie_is_not_sent_it_again_and_one_without_is(content):
    visitor = Client()
    first = visitor.get("/en/rules/")
    assert "csrftoken" in first.cookies
    again = visitor.get("/en/rules/")
    assert again.status_code == 200 and "csrftoken" not in again.cookies
    assert secret_of(again.content.decode()) == visitor.cookies["csrftoken"].value
    visitor.cookies["csrftoken"] = "not-a-secret"  # a broken cookie gets a new one
    mended = visitor.get("/en/rules/")
    assert "csrftoken" in mended.cookies
    assert secret_of(mended.content.decode()) == mended.cookies["csrftoken"].value


def test_a_content_change_in_another_process_shows_within_a_second(content, client):
    from django.core.cache import caches

    from games.content import version

    page = client.get("/en/rules/")
    caches["default"].set(version.KEY, version.content_version() + 1, None)  # another process
    assert client.get("/en/rules/", headers={"if-none-match": page["ETag"]}).status_code == 304
    version._remembered = (version._remembered[0], version._remembered[1] - version.CONTENT_FRESH_S)
    assert client.get("/en/rules/", headers={"if-none-match": page["ETag"]}).status_code == 200
