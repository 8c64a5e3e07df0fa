"""A teacher's class pages: the form opens a class table for this browser, the teacher's
page and the projector view are this browser's only (403 for anyone else), students
join with a first name, and purge_classes deletes class tables after 30 days."""

import json
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import tables
from games.engine import BotLevel, Options
from games.models import Seat, Table, TableControl
from tests.conftest import LANGUAGE_CODES

CLASS = {
    "class_name": " Class 4B ",
    "seats": "10",
    "fill": "on",
    "level": "beginner",
    "tie_window_ms": "150",
    "turn_limit": "40",
    "pace": "own",
    "turn_timer": "20",
}


def opened(client, data=CLASS, lang="en") -> str:
    response = client.post(f"/{lang}/teach/class/", data)
    assert response.status_code == 302, response.content[:800]
    match = re.fullmatch(rf"/{lang}/teach/class/([A-Z0-9]+)/", response["Location"])
    assert match, response["Location"]
    return match.group(1)


def config_of(html: str, element_id: str) -> dict:
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html)
    return json.loads(match.group(1))


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_teach_page_links_the_class_table_form(client, content, lang):
    assert f'href="/{lang}/teach/class/"' in client.get(f"/{lang}/teach/").content.decode()
    html = client.get(f"/{lang}/teach/class/").content.decode()
    for field in ("class_name", "seats", "fill", "level", "tie_window_ms", "index_card", "pace"):
        assert f'name="{field}"' in html


@pytest.mark.django_db
def test_the_form_opens_a_class_table_whose_teacher_is_this_browser_and_not_a_player(client):
    code = opened(client)
    table = Table.objects.get(code=code)
    assert table.teacher_key == client.session.session_key
    assert (table.class_name, table.players, table.fill_level) == ("Class 4B", 10, "beginner")
    assert (table.turn_timer_ms, table.beat_ms, table.options["turn_limit"]) == (20_000, None, 40)
    assert not table.teacher_started and not table.public
    assert not Seat.objects.filter(table=table).exclude(session_key="").exists()  # nobody sits


@pytest.mark.django_db
def test_a_class_at_a_steady_beat_without_computer_players(client):
    data = {**CLASS, "pace": "beat_slow"}
    del data["fill"]
    table = Table.objects.get(code=opened(client, data))
    assert (table.fill_level, table.turn_timer_ms, table.beat_ms) == ("", None, 3000)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change", [{"class_name": "  "}, {"class_name": "4B\u202e"}, {"seats": "13"}, {"pace": "x"}]
)
def test_a_bad_form_opens_nothing_and_says_why(client, change):
    response = client.post("/en/teach/class/", {**CLASS, **change})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_teachers_page_shows_the_code_large_the_link_and_the_controls(client):
    code = opened(client)
    response = client.get(f"/en/teach/class/{code}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(rf'class="class-code"><bdi class="table-code" id="class-code">{code}<', html)
    assert f'value="http://testserver/play/{code}/"' in html  # no language: each device its own
    for control in ("start", "pause", "resume", "restart"):
        assert f'data-control="{control}"' in html
    assert f'href="/en/teach/class/{code}/projector/"' in html
    assert f'href="/en/replay/{code}/lesson/"' in html and f'href="/en/replay/{code}/"' in html
    assert '<h1 id="class-title"><bdi>Class 4B</bdi></h1>' in html
    assert "after 20 seconds the table turns it" in html  # the pace now, in words
    config = config_of(html, "class-config")
    assert config["socket"] == f"/ws/play/{code}/" and config["lang"] == "en"
    assert config["follow"] == "/en/teach/class/__CODE__/"
    assert [w["slug"] for w in config["walkthroughs"]][:2] == ["first-turns", "snap-by-anyone"]


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "projector/"])
@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_class_pages_are_forbidden_to_anyone_but_the_teacher(client, page, lang):
    code = opened(client)
    student = Client()
    student.get(f"/{lang}/play/{code}/")  # a browser with a session of its own
    response = student.get(f"/{lang}/teach/class/{code}/{page}")
    assert response.status_code == 403
    html = response.content.decode()
    assert f'lang="{lang}"' in html
    assert "This page is for the teacher who opened this class table" in html or lang != "en"
    assert f'href="/{lang}/play/{code}/"' in html
    assert code in html
    assert Client().get(f"/{lang}/teach/class/{code}/{page}").status_code == 403  # no session


@pytest.mark.django_db
def test_a_table_that_is_not_a_class_table_has_no_class_pages(client):
    code = tables.table_create(players=2, options=Options())
    assert client.get(f"/en/teach/class/{code}/").status_code == 404
    assert client.get("/en/teach/class/ZZZZZZ/projector/").status_code == 404


@pytest.mark.django_db
def test_the_projector_view_is_a_spectators_page_in_the_teachers_language(client):
    code = opened(client, lang="ta")
    html = client.get(f"/ta/teach/class/{code}/projector/").content.decode()
    assert "class-projector" in html and "class-table" in html
    config = config_of(html, "table-config")
    assert config["projector"] is True and config["lang"] == "ta"
    assert config["follow"] == "/ta/teach/class/__CODE__/projector/"


@pytest.mark.django_db
def test_students_join_a_class_table_with_their_first_name(client):
    code = opened(client)
    html = Client().get(f"/he/play/{code}/").content.decode()
    assert "class-table" in html and "<bdi>Class 4B</bdi>" in html
    config = config_of(html, "table-config")
    assert config["projector"] is False and config["walkthroughs"][0] == "first-turns"
    english = Client().get(f"/en/play/{code}/").content.decode()
    assert "Your first name" in english
    lobby_table = tables.table_create(players=2, options=Options())
    assert (
        config_of(Client().get(f"/en/play/{lobby_table}/").content.decode(), "table-config")[
            "walkthroughs"
        ]
        == []
    )


def age(code: str, days: int) -> None:
    Table.objects.filter(code=code).update(created=timezone.now() - timedelta(days=days))


@pytest.mark.django_db
def test_purge_classes_deletes_class_tables_and_names_older_than_30_days():
    old = tables.table_open_class(session_key="k-old", class_name="Old", players=3)
    recent = tables.table_open_class(session_key="k-new", class_name="New", players=3)
    lobby = tables.table_create(players=2, options=Options(), bots={1: BotLevel.QUICK})
    for code in (old, recent):
        table = Table.objects.get(code=code)
        Seat.objects.filter(table=table, number=0).update(
            display_name="Zoë", session_key=f"s-{code}", done=["first-turns"]
        )
        TableControl.objects.create(table=table, number=1, data={"code": "started"})
    age(old, 31)
    age(recent, 29)
    age(lobby, 90)  # not a class table: kept
    out = StringIO()
    call_command("purge_classes", stdout=out)
    assert "Deleted 1 class table(s) older than 30 days." in out.getvalue()
    assert set(Table.objects.values_list("code", flat=True)) == {recent, lobby}
    assert not Seat.objects.filter(table__code=old).exists()
    assert Seat.objects.filter(display_name="Zoë").count() == 1  # only the recent class's
    assert TableControl.objects.count() == 1
    call_command("purge_classes", "--days", "0", stdout=StringIO())
    assert list(Table.objects.values_list("code", flat=True)) == [lobby]
