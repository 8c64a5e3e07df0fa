"""A class on tablets: the class form opens one table on one device per tablet, all
sharing the first one's code as their group; the teacher's page of the group shows
every tablet's table (its code large, who sat down, started or over) and starts them
all; it is the teacher's only."""

import re

import pytest
from django.test import Client

from games import tables
from games.models import Seat, Table
from games.tables import store
from tests.conftest import LANGUAGE_CODES

TABLETS = {
    "class_name": "Class 2A",
    "seats": "12",
    "tablets": "3",
    "per_tablet": "2",
    "level": "beginner",
    "tie_window_ms": "150",
    "turn_limit": "",
    "pace": "own",
    "turn_timer": "10",
}


def opened_tablets(client, data=TABLETS) -> str:
    response = client.post("/en/teach/class/", data)
    assert response.status_code == 302, response.content[:800]
    match = re.fullmatch(r"/en/teach/class/([A-Z0-9]+)/tablets/", response["Location"])
    assert match, response["Location"]
    return match.group(1)


def group_codes(first: str) -> list[str]:
    return list(
        Table.objects.filter(device_group=first).order_by("id").values_list("code", flat=True)
    )


def sit_down(code: str, names: list[tuple[str, str]]) -> None:
    """A tablet's children sit down (as the consumer's ``join`` with ``players`` does)."""
    table_id = store.table_id(code)
    seats = [(n, name, lang) for n, (name, lang) in enumerate(names)]
    store.seats_bind(table_id, seats, f"tablet-{code}")


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_class_form_offers_tablets_of_two_to_four_children(client, content, lang):
    html = client.get(f"/{lang}/teach/class/").content.decode()
    tablets = re.search(r'<select name="tablets".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="(\d+)"', tablets) == [str(n) for n in range(9)]
    per_tablet = re.search(r'<select name="per_tablet".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="(\d+)"', per_tablet) == ["2", "3", "4"]


@pytest.mark.django_db
def test_the_form_opens_one_table_on_one_device_per_tablet_in_one_group(client):
    first = opened_tablets(client)
    group = list(Table.objects.filter(device_group=first).order_by("id"))
    assert len(group) == 3 and group[0].code == first
    for table in group:
        assert table.on_device and table.players == 2
        assert table.teacher_key == client.session.session_key
        assert table.class_name == "Class 2A" and not table.teacher_started
        assert (table.turn_timer_ms, table.beat_ms) == (None, 3000)  # the slow beat
        assert not Seat.objects.filter(table=table).exclude(session_key="").exists()
    assert Table.objects.count() == 3


@pytest.mark.django_db
def test_a_steady_beat_chosen_for_the_tablets_is_kept(client):
    first = opened_tablets(client, {**TABLETS, "pace": "beat", "tablets": "1"})
    assert Table.objects.get(code=first).beat_ms == 1800


@pytest.mark.django_db
def test_without_tablets_the_form_opens_one_ordinary_class_table(client):
    response = client.post("/en/teach/class/", {**TABLETS, "tablets": "0"})
    code = re.fullmatch(r"/en/teach/class/([A-Z0-9]+)/", response["Location"]).group(1)
    table = Table.objects.get()
    assert table.code == code and not table.on_device and table.players == 12
    assert table.device_group == "" and table.turn_timer_ms == 10_000


@pytest.mark.django_db
@pytest.mark.parametrize("change", [{"tablets": "9"}, {"per_tablet": "5"}, {"per_tablet": "1"}])
def test_an_impossible_number_of_tablets_or_children_opens_nothing(client, change):
    assert client.post("/en/teach/class/", {**TABLETS, **change}).status_code == 400
    assert Table.objects.count() == 0


@pytest.mark.django_db
def test_the_tablets_page_shows_every_tablets_code_who_sat_down_and_the_link(client):
    first = opened_tablets(client)
    codes = group_codes(first)
    sit_down(codes[1], [("Noa", "he"), ("Ravi", "ta")])
    html = client.get(f"/en/teach/class/{first}/tablets/").content.decode()
    for code in codes:
        assert f'<bdi class="table-code">{code}</bdi>' in html
        assert f"http://testserver/play/{code}/" in html  # the language-free link
        assert f'href="/en/teach/class/{code}/"' in html
    cards = re.findall(r'<li class="tablet-card.*?</li>', html, re.S)
    assert len(cards) == 3
    assert "Nobody has sat down yet." in cards[0] and "Waiting: 2 seats free." in cards[0]
    assert '<bdi class="name">Noa</bdi>, <bdi class="name">Ravi</bdi>' in cards[1]
    assert "Ready: everyone has sat down." in cards[1]
    assert "Start the games at the 3 tablets waiting" in html
    page = client.get(f"/en/teach/class/{codes[2]}/").content.decode()  # one tablet's table
    assert f'href="/en/teach/class/{first}/tablets/"' in page
    assert "the children at the tablet write their names" in page


@pytest.mark.django_db
def test_the_tablets_page_is_the_teachers_only(client):
    first = opened_tablets(client)
    other = Client()
    assert other.get(f"/en/teach/class/{first}/tablets/").status_code == 403
    assert other.post(f"/en/teach/class/{first}/tablets/start/").status_code == 403
    assert not Table.objects.filter(teacher_started=True).exists()
    alone = tables.table_open_class(
        session_key=client.session.session_key, class_name="4B", players=4
    )
    assert client.get(f"/en/teach/class/{alone}/tablets/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_teacher_starts_every_tablets_table_at_once(client, content):
    first = opened_tablets(client, {**TABLETS, "per_tablet": "3"})
    codes = group_codes(first)
    sit_down(codes[0], [("Noa", "he"), ("Ravi", "ta"), ("Ana", "en")])
    sit_down(codes[1], [("Ben", "hr"), ("Chen", "en")])  # one seat free: the table shrinks
    # nobody at the third tablet: it cannot start, and says why
    response = client.post(f"/en/teach/class/{first}/tablets/start/")
    assert response.status_code == 302  # back to the tablets page, which says the refusals
    assert response["Location"] == f"/en/teach/class/{first}/tablets/"
    response = client.get(response["Location"])
    started = dict(Table.objects.filter(device_group=first).values_list("code", "teacher_started"))
    assert started == {codes[0]: True, codes[1]: True, codes[2]: False}
    assert Table.objects.get(code=codes[1]).players == 2
    html = response.content.decode()
    cards = re.findall(r'<li class="tablet-card.*?</li>', html, re.S)
    assert "Playing." in cards[0] and "Playing." in cards[1]
    assert "A game needs at least two players." in cards[2]
    assert "Start the game at the 1 tablet waiting" in html


@pytest.mark.django_db
def test_the_tablets_state_counts_the_seats_computer_players_will_take_as_taken(client):
    first = opened_tablets(client, {**TABLETS, "fill": "on"})
    codes = group_codes(first)
    sit_down(codes[0], [("Noa", "he")])
    page = client.get(f"/en/teach/class/{first}/tablets/").content.decode()
    assert 'http-equiv="refresh"' not in page
    state = client.get(f"/en/teach/class/{first}/tablets/state/").json()
    assert [c["code"] for c in state["cards"]] == codes
    assert (
        "Ready: a computer player takes the 1 seat still free at the start."
        in (state["cards"][0]["html"])
    )
    assert "Waiting:" not in "".join(c["html"] for c in state["cards"])
    assert "Start the games at the 3 tablets waiting" in state["start"]
    assert Client().get(f"/en/teach/class/{first}/tablets/state/").status_code == 403
