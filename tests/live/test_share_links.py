"""The link a table page or a teacher's page shares has no language in it, and opens
the table in each device's own language (its cookie, else the browser's languages)."""

import re

import pytest
from django.test import Client

from games import tables
from tests.conftest import LANGUAGE_CODES
from tests.teach.test_class_pages import opened

SHARED = re.compile(r'id="share-url" type="text" readonly value="([^"]+)"')


def shared_link(html: str) -> str:
    return SHARED.search(html).group(1)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_a_table_page_shares_a_link_without_a_language(client, lang):
    code = tables.table_create(players=2)
    link = shared_link(client.get(f"/{lang}/play/{code}/").content.decode())
    assert link == f"http://testserver/play/{code}/"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_shared_link_opens_in_the_browsers_language(lang):
    code = tables.table_create(players=2)
    response = Client(HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5").get(f"/play/{code}/")
    assert response.status_code == 302 and response["Location"] == f"/{lang}/play/{code}/"
    page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(response["Location"])
    assert f'lang="{lang}"' in page.content.decode()


@pytest.mark.django_db
def test_the_language_the_device_chose_on_the_site_wins_over_the_browsers():
    code = tables.table_create(players=2)
    device = Client(HTTP_ACCEPT_LANGUAGE="he")
    device.cookies["snap_language"] = "ta"
    assert device.get(f"/play/{code}/")["Location"] == f"/ta/play/{code}/"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_class_tables_link_has_no_language_either(client, lang):
    code = opened(client, lang=lang)
    html = client.get(f"/{lang}/teach/class/{code}/").content.decode()
    assert shared_link(html) == f"http://testserver/play/{code}/"
    student = Client(HTTP_ACCEPT_LANGUAGE="ta")
    assert student.get(f"/play/{code}/")["Location"] == f"/ta/play/{code}/"
