"""The admin lists live tables for a superuser, without their secrets, and edits nothing."""

import pytest
from django.contrib.auth import get_user_model

from games import tables
from games.engine import BotLevel, Options
from games.models import Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    get_user_model().objects.create_superuser("keeper", "keeper@example.org", "pw-for-tests")
    client.login(username="keeper", password="pw-for-tests")
    return client


@pytest.fixture
def table_code():
    code = tables.table_create(players=3, options=Options(), bots={2: BotLevel.QUICK}, public=True)
    Seat.objects.filter(table__code=code, number=0).update(
        display_name="Zoë", session_key="secret-session-key-0"
    )
    return code


def test_the_tables_changelist_shows_each_table_and_who_sits_there(admin_client, table_code):
    response = admin_client.get("/en/admin/games/table/")
    assert response.status_code == 200
    html = response.content.decode()
    assert table_code in html and "Zoë" in html and "computer" in html
    assert "secret-session-key-0" not in html


def test_a_tables_page_shows_its_seats_but_neither_session_keys_nor_the_deck(
    admin_client, table_code
):
    table = Table.objects.get(code=table_code)
    response = admin_client.get(f"/en/admin/games/table/{table.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Zoë" in html and "quick" in html
    assert "secret-session-key-0" not in html
    assert "field-players" in html  # the table's fields are shown, but not its cards:
    assert "field-deck" not in html and "field-position" not in html
    assert 'name="_save"' not in html  # view only: no save button


def test_tables_cannot_be_added_or_changed_from_the_admin(admin_client, table_code):
    table = Table.objects.get(code=table_code)
    assert admin_client.get("/en/admin/games/table/add/").status_code == 403
    admin_client.post(f"/en/admin/games/table/{table.pk}/change/", {"code": "XXXXXX"})
    assert Table.objects.get(pk=table.pk).code == table_code
    for model in ("tableaction", "tableevent"):
        assert admin_client.get(f"/en/admin/games/{model}/").status_code == 200
