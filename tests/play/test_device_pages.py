"""A table on one device, the pages: the table page of the session holding its seats
is ``play/device.html`` with each person's edge, in their language; a class's tablet
gets it (empty) before its children sit down; anyone else gets the table page."""

import json
import re

import pytest

from games import tables
from games.engine import BotLevel
from games.models import Seat, Table
from tests.conftest import LANGUAGE_CODES


def config_of(html: str) -> dict:
    found = re.search(r'id="table-config" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1))


def device_table(client, people, levels=()) -> str:
    """A table on one device whose people are all on ``client``'s browser session."""
    return tables.table_open_device(
        session_key=client.session.session_key, people=people, levels=list(levels)
    )


def test_the_device_session_gets_each_person_at_an_edge_in_their_language(client, content):
    code = device_table(client, [("Ana", "en"), ("Noa", "he"), ("Ravi", "ta")], [BotLevel.STEADY])
    response = client.get(f"/ta/play/{code}/")
    assert [t.name for t in response.templates][0] == "play/device.html"
    edges = response.context["edges"]
    assert edges == [
        {"seat": 0, "name": "Ana", "lang": "en", "dir": "ltr", "edge": "bottom"},
        {"seat": 1, "name": "Noa", "lang": "he", "dir": "rtl", "edge": "left"},
        {"seat": 2, "name": "Ravi", "lang": "ta", "dir": "ltr", "edge": "right"},
    ]
    from django.utils import translation

    with translation.override("ta"):
        computer = translation.gettext("Computer %(number)d") % {"number": 1}
    assert response.context["bots"] == [{"seat": 3, "name": computer, "level": "steady"}]
    config = config_of(response.content.decode())
    assert config["device"] is True and config["edges"] == edges
    assert config["socket"] == f"/ws/play/{code}/" and len(config["cards"]) == 52
    assert config["beats"] == {"slower": 3000, "faster": 1800} and config["players_pace"] is True
    assert {lang["code"] for lang in config["languages"]} == {"en", "ms", "mr", "he", "ta", "hr"}


def test_two_and_four_people_sit_face_to_face_and_all_around(client, content):
    two = device_table(client, [("Ana", ""), ("Ben", "hr")])
    edges = client.get(f"/he/play/{two}/").context["edges"]
    assert [(e["edge"], e["lang"], e["dir"]) for e in edges] == [
        ("bottom", "he", "rtl"),  # no language of its own: the page's
        ("top", "hr", "ltr"),
    ]
    four = device_table(client, [("A", "en"), ("B", "en"), ("C", "en"), ("D", "en")])
    edges = client.get(f"/en/play/{four}/").context["edges"]
    # clockwise (R20): the next seat is on the left of the child at the bottom
    assert [e["edge"] for e in edges] == ["bottom", "left", "top", "right"]


def test_a_class_tablet_before_its_children_sit_down_gets_the_device_page_without_edges(
    client, content
):
    teacher = client.session.session_key
    code = tables.table_open_class(session_key=teacher, class_name="4B", players=4, on_device=True)
    assert [t.name for t in client.get(f"/en/play/{code}/").templates][0] == "play/table.html"
    client.cookies.clear()  # a tablet: another browser
    response = client.get(f"/en/play/{code}/")
    assert [t.name for t in response.templates][0] == "play/device.html"
    assert response.context["edges"] == [] and response.context["seats_free"] == 4
    assert config_of(response.content.decode())["players_pace"] is False


def test_someone_else_at_a_lobby_device_table_watches_the_ordinary_table_page(client, content):
    code = device_table(client, [("Ana", "en"), ("Ben", "en")])
    client.cookies.clear()
    response = client.get(f"/en/play/{code}/")
    assert [t.name for t in response.templates][0] == "play/table.html"
    assert Table.objects.get(code=code).on_device


DEVICE = {
    "name_1": "Noa",
    "lang_1": "he",
    "name_2": "Ravi",
    "lang_2": "ta",
    "name_3": "",
    "lang_3": "en",
    "name_4": "",
    "lang_4": "en",
    "computers": "1",
    "level": "beginner",
}


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_lobby_offers_a_table_on_one_device_with_each_language_the_pages_by_default(
    client, content, lang
):
    html = client.get(f"/{lang}/play/").content.decode()
    assert f'action="/{lang}/play/device/"' in html
    for n in (1, 2, 3, 4):
        select = re.search(rf'<select name="lang_{n}".*?</select>', html, re.S).group(0)
        assert re.search(rf'<option value="{lang}" selected>', select), select
        assert set(re.findall(r'<option value="(\w+)"', select)) == set(LANGUAGE_CODES)
    assert 'name="name_1"' in html and 'name="computers"' in html


def test_a_table_on_one_device_binds_every_person_to_this_browser_and_starts_slowly(
    client, content
):
    response = client.post("/en/play/device/", DEVICE)
    assert response.status_code == 302
    code = re.fullmatch(r"/en/play/([A-Z0-9]+)/", response["Location"]).group(1)
    table = Table.objects.get(code=code)
    assert table.on_device and table.players == 3 and table.beat_ms == 3000
    assert table.turn_timer_ms is None and not table.teacher_key
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    key = client.session.session_key
    assert [(s.display_name, s.lang, s.session_key, s.bot_level) for s in seats] == [
        ("Noa", "he", key, ""),
        ("Ravi", "ta", key, ""),
        ("", "", "", "beginner"),
    ]
    page = client.get(response["Location"])
    assert [e["name"] for e in page.context["edges"]] == ["Noa", "Ravi"]


def test_four_people_and_two_computers_fill_six_seats(client, content):
    form = {**DEVICE, "name_3": "Chen", "name_4": "Dev", "computers": "2", "level": "quick"}
    code = client.post("/en/play/device/", form)["Location"].split("/")[-2]
    seats = Seat.objects.filter(table__code=code).order_by("number")
    assert [s.display_name or s.bot_level for s in seats] == [
        "Noa",
        "Ravi",
        "Chen",
        "Dev",
        "quick",
        "quick",
    ]


@pytest.mark.parametrize(
    "change",
    [
        {"name_2": ""},  # one person is not a table on one device
        {"name_1": "\u202eNoa"},
        {"lang_2": "xx"},
        {"computers": "3"},
        {"level": "expert"},
    ],
)
def test_a_bad_device_form_says_why_and_creates_nothing(client, content, change):
    response = client.post("/en/play/device/", {**DEVICE, **change})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert Table.objects.count() == 0


def test_a_table_on_one_device_counts_toward_the_sessions_open_tables(client, content, settings):
    settings.TABLES_OPEN_PER_SESSION = 1
    assert client.post("/en/play/device/", DEVICE).status_code == 302
    response = client.post("/en/play/device/", DEVICE)
    assert response.status_code == 429
    assert Table.objects.count() == 1


def test_a_device_form_sent_with_one_name_asks_a_child_for_the_second_players_name(client, content):
    response = client.post("/ms/play/device/", {**DEVICE, "name_2": ""})
    assert response.status_code == 400
    html = response.content.decode()
    player_2 = re.search(
        r"<fieldset class=\"device-player\">(?:(?!</fieldset>).)*?"
        r'name="name_2".*?</fieldset>',
        html,
        re.S,
    ).group(0)
    assert "Tulis nama pemain ini." in player_2
    assert "Medan ini diperlukan." not in html


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_tablets_join_page_spaces_out_only_the_code_not_the_word_table(client, content, lang):
    teacher = client.session.session_key
    code = tables.table_open_class(session_key=teacher, class_name="4B", players=4, on_device=True)
    client.cookies.clear()  # a tablet: another browser
    html = client.get(f"/{lang}/play/{code}/").content.decode()
    spaced = re.findall(r'class="[^"]*\btable-code\b[^"]*"[^>]*>([^<]*)<', html)
    assert spaced == [code]
    if lang == "he":
        assert f'<p>שולחן <bdi class="table-code">{code}</bdi></p>' in html
