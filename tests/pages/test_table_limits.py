"""One person cannot fill the server or the lobby with tables (issue 14)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import tables
from games.models import Table

from .test_play_pages import OPEN, PRACTICE, code_in

pytestmark = pytest.mark.django_db


def test_a_session_opens_no_more_tables_than_its_limit_and_is_told_why(client, content, settings):
    settings.TABLES_OPEN_PER_SESSION = 2
    code_in(client.post("/en/play/practice/", PRACTICE))
    code_in(client.post("/en/play/new/", {**OPEN, "public": "on"}))
    before = Table.objects.count()
    for url, form in (("/en/play/practice/", PRACTICE), ("/en/play/new/", OPEN)):
        response = client.post(url, form)
        assert response.status_code == 429
        assert "You already have 2 tables open." in response.content.decode()
    assert Table.objects.count() == before  # nothing was opened
    hr = client.post("/hr/play/practice/", PRACTICE).content.decode()
    assert "You already have" not in hr  # told in the page's language
    assert Client().post("/en/play/practice/", PRACTICE).status_code == 302  # another person


def test_a_finished_or_idle_closed_table_no_longer_counts(client, content, settings):
    settings.TABLES_OPEN_PER_SESSION = 1
    code = code_in(client.post("/en/play/practice/", PRACTICE))
    assert client.post("/en/play/practice/", PRACTICE).status_code == 429
    Table.objects.filter(code=code).update(idle_closed="2026-01-01T00:00:00Z")
    code_in(client.post("/en/play/practice/", PRACTICE))


def test_an_address_opens_no_more_tables_than_its_limit(content, settings):
    settings.TABLES_OPEN_PER_ADDRESS = 2
    for _ in range(2):
        code_in(Client(REMOTE_ADDR="10.0.0.7").post("/en/play/practice/", PRACTICE))
    response = Client(REMOTE_ADDR="10.0.0.7").post("/en/play/new/", OPEN)
    assert response.status_code == 429
    assert "2 tables are already open on this network." in response.content.decode()
    assert Client(REMOTE_ADDR="10.0.0.8").post("/en/play/new/", OPEN).status_code == 302


def test_the_lobby_shows_one_persons_public_tables_once(client, content):
    mine = [code_in(client.post("/en/play/new/", {**OPEN, "public": "on"})) for _ in range(3)]
    other = code_in(Client().post("/en/play/new/", {**OPEN, "public": "on"}))
    listed = [t["code"] for t in tables.tables_open(limit=20)]
    assert listed == [other, mine[-1]]  # newest first, mine once (the newest)
    page = client.get("/en/play/").content.decode()
    assert set(re.findall(r"/en/play/([A-Z0-9]{6})/", page)) == {other, mine[-1]}


def test_a_table_whose_opener_is_out_no_longer_counts_for_their_session(client, content, settings):
    """A child out of a practice game presses "Play again": the game they are out of
    plays on, but does not count against them."""
    from games.models import TableEvent

    settings.TABLES_OPEN_PER_SESSION = 1
    code = code_in(client.post("/en/play/practice/", PRACTICE))
    assert client.post("/en/play/practice/", PRACTICE).status_code == 429
    table = Table.objects.get(code=code)
    out = {"code": "player_out", "params": {"seat": 1}}  # a computer player is out
    TableEvent.objects.create(table=table, seq=1, data=out, view={})
    assert client.post("/en/play/practice/", PRACTICE).status_code == 429
    out = {"code": "player_out", "params": {"seat": 0}}  # the child is
    TableEvent.objects.create(table=table, seq=2, data=out, view={})
    code_in(client.post("/en/play/practice/", PRACTICE))
    # the network's count still has it: the table still plays
    from games.tables.limits import tables_open_of

    assert tables_open_of(address="127.0.0.1") == 2
