"""A table on one device, the pages: the table page of the session holding its seats
is ``play/device.html`` with each person's edge, in their language; a class's tablet
gets it (empty) before its children sit down; anyone else gets the table page."""

import json
import re

from games import tables
from games.engine import BotLevel
from games.models import Table


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
