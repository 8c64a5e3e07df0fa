"""The Play pages: the lobby's forms create tables (or change nothing and say why), and
the table page gives its client what it needs."""

import json
import re

import pytest

from games.engine import BotLevel, Options
from games.models import Seat, Table
from games.tables.codes import ALPHABET
from tests.conftest import LANGUAGE_CODES

PRACTICE = {
    "name": "Ana",
    "computers": "2",
    "level_1": "beginner",
    "level_2": "quick",
    "level_3": "steady",
}
OPEN = {
    "name": "Ms Tan",
    "seats": "6",
    "computers": "2",
    "level": "steady",
    "tie_window_ms": "200",
    "turn_limit": "",
    "pace": "own",
    "turn_timer": "10",
}


def code_in(response) -> str:
    assert response.status_code == 302, response.content[:500]
    match = re.fullmatch(r"/en/play/([A-Z0-9]+)/", response["Location"])
    assert match, response["Location"]
    return match.group(1)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_lobby_offers_practice_a_table_of_your_own_and_joining_by_code(client, content, lang):
    html = client.get(f"/{lang}/play/").content.decode()
    assert f'action="/{lang}/play/practice/"' in html
    assert f'action="/{lang}/play/new/"' in html
    assert 'name="code"' in html
    assert "coming soon" not in html


def test_the_lobby_forms_speak_the_language_of_each_visit_in_turn(client, content):
    seats_label = re.compile(r'<label for="open_seats"[^>]*>([^<]+)</label>')

    def label(lang: str) -> str:
        html = client.get(f"/{lang}/play/").content.decode()
        found = seats_label.search(html)
        assert found, html[:2000]
        return found.group(1)

    english, croatian, english_again = label("en"), label("hr"), label("en")
    assert english == english_again == "Seats:" and croatian != english


def test_a_bad_open_form_is_shown_with_its_errors_after_a_blank_one(client, content):
    client.get("/en/play/")  # the blank form, made once
    response = client.post("/en/play/new/", {"name": "Ana", "seats": "99"})
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()


def test_practice_seats_you_with_computer_players_at_their_levels(client, content):
    code = code_in(client.post("/en/play/practice/", PRACTICE))
    table = Table.objects.get(code=code)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [(s.display_name, s.is_bot, s.bot_level) for s in seats] == [
        ("Ana", False, ""),
        ("", True, "beginner"),
        ("", True, "quick"),
    ]
    assert seats[0].session_key == client.session.session_key  # the seat is this browser's
    assert set(code) <= set(ALPHABET)


def test_a_bad_practice_form_says_why_and_creates_nothing(client, content):
    response = client.post("/en/play/practice/", {**PRACTICE, "name": "\u202e", "computers": "7"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Names are 1 to 24 characters long" in html
    assert "Select a valid choice." in html
    assert Table.objects.count() == 0


def test_opening_a_table_stores_its_options_pace_and_computer_players(client, content):
    code = code_in(
        client.post("/en/play/new/", {**OPEN, "index_card": "on", "public": "on", "lag": "on"})
    )
    table = Table.objects.get(code=code)
    assert table.lag_cap_ms == 150
    assert table.players == 6 and table.public
    assert Options(**table.options) == Options(tie_window_ms=200, index_card=True)
    assert (table.turn_timer_ms, table.beat_ms) == (10_000, None)
    seats = {s.number: s for s in Seat.objects.filter(table=table)}
    assert seats[0].display_name == "Ms Tan" and seats[0].session_key == client.session.session_key
    assert [n for n, s in sorted(seats.items()) if s.is_bot] == [4, 5]
    assert {s.bot_level for s in seats.values() if s.is_bot} == {BotLevel.STEADY.name.lower()}
    lobby = client.get("/en/play/").content.decode()
    assert f'href="/en/play/{code}/"' in lobby  # public, with free seats: listed


def test_a_steady_beat_table_has_no_turn_timer(client, content):
    code = code_in(client.post("/en/play/new/", {**OPEN, "pace": "beat_slow", "turn_limit": "200"}))
    table = Table.objects.get(code=code)
    assert (table.turn_timer_ms, table.beat_ms, table.lag_cap_ms) == (None, 3000, 0)
    assert table.options["turn_limit"] == 200 and not table.public
    assert f'href="/en/play/{code}/"' not in client.get("/en/play/").content.decode()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seats", "13"),
        ("seats", "1"),
        ("tie_window_ms", "501"),
        ("computers", "6"),
        ("name", "<" * 25),
        ("name", "Ana\u202e"),
        ("pace", "fast"),
        ("turn_limit", "5"),
    ],
)
def test_an_impossible_table_is_refused_with_a_reason_and_nothing_stored(
    client, content, field, value
):
    response = client.post("/en/play/new/", {**OPEN, field: value})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert Table.objects.count() == 0


def test_a_code_typed_in_lower_case_with_spaces_finds_the_table(client, content):
    code = code_in(client.post("/en/play/practice/", PRACTICE))
    typed = f"{code[:3].lower()} {code[3:].lower()}"
    response = client.get("/en/play/", {"code": typed})
    assert response.status_code == 302 and response["Location"] == f"/en/play/{code}/"
    missing = client.get("/en/play/", {"code": "XXXXXX"})
    assert missing.status_code == 400
    assert "There is no table with that code." in missing.content.decode()


def test_the_table_page_shows_the_code_and_gives_its_client_the_cards_in_its_language(
    client, content
):
    code = code_in(client.post("/en/play/practice/", PRACTICE))
    html = client.get(f"/he/play/{code}/").content.decode()
    assert f'<bdi class="table-code big-code" id="share-code">{code}</bdi>' in html
    assert f"http://testserver/he/play/{code}/" in html  # the link to share
    config = json.loads(
        re.search(r'id="table-config" type="application/json">(.*?)</script>', html).group(1)
    )
    assert config["socket"] == f"/ws/play/{code}/" and config["lang"] == "he"
    assert len(config["cards"]) == 52 and config["cards"]["10H"]["red"] is True
    assert config["rules"]["R13"]["url"].startswith("/he/rules/#")
    assert config["rules"]["R13"]["section"]  # named in Hebrew, from the rules content


def test_an_unknown_table_is_a_translated_404(client, content):
    response = client.get("/en/play/AAAAAA/")
    assert response.status_code == 404


def test_play_it_for_real_needs_no_name_and_no_levels(client, content):
    code = code_in(client.post("/en/play/practice/", {"computers": "2"}))
    seats = Seat.objects.filter(table__code=code).order_by("number")
    assert [(s.display_name, s.bot_level) for s in seats] == [
        ("Player", ""),
        ("", "beginner"),
        ("", "beginner"),
    ]


def test_an_empty_open_form_says_what_to_write_and_choose_in_each_field(client, content):
    html = client.post("/ms/play/new/", {"tie_window_ms": ""}).content.decode()
    assert "Tulis nama kamu." in html and "Tulis nombor di sini." in html
    assert "Pilih satu daripada senarai." in html
    assert "Medan ini diperlukan." not in html


def test_joining_with_no_code_asks_for_the_tables_code(client, content):
    response = client.get("/hr/play/", {"code": ""})
    assert response.status_code == 400
    assert "Upišite šifru stola." in response.content.decode()


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_no_required_field_of_the_lobby_falls_back_on_djangos_words(lang):
    from django.forms import Field
    from django.utils import translation

    from games.play.forms import DeviceTableForm, JoinByCodeForm, OpenTableForm, PracticeForm

    with translation.override(lang):
        generic = str(Field.default_error_messages["required"])
        for form_class in (PracticeForm, OpenTableForm, DeviceTableForm, JoinByCodeForm):
            form = form_class(data={})
            for name, field in form.fields.items():
                if field.required:
                    said = str(field.error_messages["required"])
                    assert said != generic, (form_class.__name__, name)
