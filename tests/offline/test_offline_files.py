"""The installable app's files: the service worker served from the site's root with
the site's version in it, the manifest in each page's language, the offline page, and
which pages say they need the network."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import override_settings

from games.offline.version import site_version

LANGS = [code for code, _name in settings.LANGUAGES]


@pytest.fixture(autouse=True)
def fresh_version():
    site_version.cache_clear()
    yield
    site_version.cache_clear()


def test_the_service_worker_is_served_from_the_root_as_javascript_with_its_version(client):
    with override_settings(SITE_VERSION="2026-12-a"):
        response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    assert 'const VERSION = "2026-12-a";' in text
    assert f"const LANGUAGES = {json.dumps(LANGS)};" in text
    # each language's sentence for a page asked for offline, never a machine's English
    words = json.loads(re.search(r"const OFFLINE_WORDS = (.*);", text).group(1))
    assert words["he"]["dir"] == "rtl" and re.search(r"[\u0590-\u05ff]", words["he"]["text"])
    assert re.search(r"[\u0b80-\u0bff]", words["ta"]["title"])


def test_a_new_version_makes_a_different_service_worker(client):
    with override_settings(SITE_VERSION="one"):
        one = client.get("/sw.js").content
    with override_settings(SITE_VERSION="two"):
        two = client.get("/sw.js").content
    assert one != two


def test_without_a_named_version_the_version_is_a_hash_of_the_site():
    with override_settings(SITE_VERSION=""):
        version = site_version()
    assert re.fullmatch(r"[0-9a-f]{16}", version)


@pytest.mark.parametrize(("lang", "name"), [("en", "Snap"), ("he", "סנאפ"), ("ta", "ஸ்னாப்")])
def test_the_manifest_names_the_app_in_the_pages_language(client, lang, name):
    response = client.get(f"/{lang}/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["short_name"] == name
    assert data["lang"] == lang and data["start_url"] == f"/{lang}/"
    assert data["dir"] == ("rtl" if lang == "he" else "ltr")
    assert data["display"] == "standalone" and data["scope"] == "/"
    for icon in data["icons"]:
        found = client.get(icon["src"])
        assert found.status_code == 200, icon
        assert icon["sizes"] in {"192x192", "512x512"}
    assert {"any", "maskable"} == {icon["purpose"] for icon in data["icons"]}


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_links_the_manifest_of_its_language(client, content, lang):
    page = client.get(f"/{lang}/rules/").content.decode()
    assert f'<link rel="manifest" href="/{lang}/manifest.webmanifest">' in page
    assert 'data-service-worker="/sw.js"' in page


@pytest.mark.parametrize(
    ("path", "need"),
    [
        ("play/", "reload"),
        ("teach/", "reload"),
        ("teach/quiz/?seed=10", "stay"),  # a teacher's form: nothing typed is lost
        ("offline/", "retry"),
        ("rules/", None),
        ("learn/", None),
        ("learn/tie/", None),
    ],
)
def test_the_pages_that_need_the_network_say_so_when_it_is_gone(client, content, path, need):
    page = client.get(f"/ta/{path}").content.decode()
    found = re.search(r'<body [^>]*data-network="(\w+)"', page)
    assert (found and found.group(1)) == need
    assert ('class="network-note"' in page) == (need is not None)
