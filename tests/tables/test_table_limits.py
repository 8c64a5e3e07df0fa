"""One person cannot fill the server or the lobby with tables, and the limits never
lock out the people the site serves: tables nobody is at close, class tables are
counted apart, and a refusal says what to do."""

from __future__ import annotations

import html
import re
import time

import pytest
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import tables
from games.live.limit_words import too_many_tables_text
from games.models import Table
from games.tables import TooManyTables
from tests.conftest import LANGUAGE_CODES
from tests.play.test_play_pages import OPEN, PRACTICE, code_in
from tests.teach.test_class_pages import CLASS
from tests.teach.test_class_tablets import TABLETS

pytestmark = pytest.mark.django_db


def test_a_session_opens_no_more_tables_than_its_limit_and_is_told_why(client, content, settings):
    settings.TABLES_OPEN_PER_SESSION = 2
    code_in(client.post("/en/play/practice/", PRACTICE))
    code_in(client.post("/en/play/new/", {**OPEN, "public": "on"}))
    before = Table.objects.count()
    for url, form in (("/en/play/practice/", PRACTICE), ("/en/play/new/", OPEN)):
        response = client.post(url, form)
        assert response.status_code == 429
        assert "You already have 2 tables open:" in response.content.decode()
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
    assert "2 tables are already open on this network" in response.content.decode()
    assert Client(REMOTE_ADDR="10.0.0.8").post("/en/play/new/", OPEN).status_code == 302


def test_the_lobby_shows_one_persons_public_tables_once(client, content):
    mine = [code_in(client.post("/en/play/new/", {**OPEN, "public": "on"})) for _ in range(3)]
    other = code_in(Client().post("/en/play/new/", {**OPEN, "public": "on"}))
    listed = [t["code"] for t in tables.tables_open(limit=20)]
    assert listed == [other, mine[-1]]  # newest first, mine once (the newest)
    page = client.get("/en/play/").content.decode()
    assert set(re.findall(r"/en/play/([A-Z0-9]{6})/", page)) == {other, mine[-1]}


# -- tables nobody ever joined close by the idle times --------------------------------


@pytest.fixture
def closing_soon(settings):
    """Idle times short enough to wait out, long enough for a busy machine to open a
    few tables within them: a table nobody is at closes after 2 s."""
    settings.TABLE_IDLE_PAUSE_S = 1
    settings.TABLE_IDLE_CLOSE_S = 1
    return 2.0


def test_tables_nobody_joined_stop_counting_once_the_idle_times_have_passed(
    client, content, settings, closing_soon
):
    settings.TABLES_OPEN_PER_SESSION = 2
    opened = [code_in(client.post("/en/play/new/", {**OPEN, "public": "on"})) for _ in range(2)]
    assert client.post("/en/play/practice/", PRACTICE).status_code == 429
    assert opened[-1] in client.get("/en/play/").content.decode()  # listed (and kept)
    time.sleep(closing_soon + 0.1)  # nobody ever connected to them
    assert tables.tables_open(limit=20) == []  # no longer listed in the lobby
    page = client.get("/en/play/").content.decode()
    assert not any(code in page for code in opened)
    code_in(client.post("/en/play/practice/", PRACTICE))  # the session opens tables again


def test_an_address_filled_with_tables_nobody_joined_opens_again_after_the_idle_times(
    content, settings, closing_soon
):
    settings.TABLES_OPEN_PER_ADDRESS = 3
    for _ in range(3):  # three people behind one school address, one table each
        code_in(Client(REMOTE_ADDR="10.0.0.9").post("/en/play/practice/", PRACTICE))
    newcomer = Client(REMOTE_ADDR="10.0.0.9")
    assert newcomer.post("/en/play/practice/", PRACTICE).status_code == 429
    time.sleep(closing_soon + 0.1)
    code_in(newcomer.post("/en/play/practice/", PRACTICE))


# -- what a refusal says ----------------------------------------------------------------


def refusal(response) -> str:
    assert response.status_code == 429
    found = re.search(
        r'<ul class="errorlist nonfield">\s*<li>(.*?)</li>', response.content.decode()
    )
    assert found, response.content.decode()[:3000]
    return html.unescape(found.group(1))


def test_a_refusal_says_the_limit_the_rule_how_long_and_what_to_do(client, content, settings):
    settings.TABLES_OPEN_PER_SESSION = 2
    for _ in range(2):
        code_in(client.post("/en/play/practice/", PRACTICE))
    text = refusal(client.post("/en/play/practice/", PRACTICE))
    assert text.startswith("You already have 2 tables open: that is as many as one browser")
    assert "once nobody has been at it for 16 minutes." in text  # 60 s + 900 s
    assert "the first of them closes in 16 minutes." in text
    assert "finish one of your games." in text


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_limit_is_told_in_the_language_of_the_page(content, settings, lang):
    settings.TABLES_OPEN_PER_SESSION = 1
    settings.CLASS_TABLES_OPEN_PER_SESSION = 1
    person, teacher = Client(), Client()
    assert person.post(f"/{lang}/play/practice/", PRACTICE).status_code == 302
    assert teacher.post(f"/{lang}/teach/class/", CLASS).status_code == 302
    for client, url, form, kind in (
        (person, f"/{lang}/play/practice/", PRACTICE, "lobby"),
        (teacher, f"/{lang}/teach/class/", CLASS, "class"),
    ):
        text = refusal(client.post(url, form))
        error = TooManyTables(kind, "session", 1, 0, 16 * 60)
        with translation.override(lang):
            assert text == too_many_tables_text(error)
        if lang != "en":
            with translation.override("en"):
                english = too_many_tables_text(error)
            assert not set(text.split(". ")) & set(english.split(". ")), text  # every sentence
        assert "1" in text and "16" in text


# -- class tables ---------------------------------------------------------------------


def test_a_teacher_opens_class_tables_up_to_the_limit_and_is_told_how_many_still_fit(
    client, content, settings
):
    settings.CLASS_TABLES_OPEN_PER_SESSION = 10
    assert client.post("/en/teach/class/", {**TABLETS, "tablets": "8"}).status_code == 302
    before = Table.objects.count()
    text = refusal(client.post("/en/teach/class/", {**TABLETS, "tablets": "3"}))
    assert text.startswith(
        "One teacher may have 10 class tables open at once. "
        "2 more class tables can be opened now: choose fewer tablets."
    )
    assert Table.objects.count() == before  # none of the three was opened
    assert client.post("/en/teach/class/", {**TABLETS, "tablets": "2"}).status_code == 302
    assert refusal(client.post("/en/teach/class/", CLASS)).startswith(
        "One teacher may have 10 class tables open at once. That many are open already."
    )


def test_one_session_cannot_open_hundreds_of_class_tables(client, content):
    for _ in range(5):  # 40 tables: the default limit of one teacher
        assert client.post("/en/teach/class/", {**TABLETS, "tablets": "8"}).status_code == 302
    assert client.post("/en/teach/class/", {**TABLETS, "tablets": "1"}).status_code == 429
    assert Table.objects.exclude(teacher_key="").count() == 40


def test_teachers_at_a_school_address_full_of_childrens_tables_still_open_their_class(
    content, settings
):
    settings.TABLES_OPEN_PER_ADDRESS = 3
    for _ in range(3):
        code_in(Client(REMOTE_ADDR="10.0.0.5").post("/en/play/practice/", PRACTICE))
    assert Client(REMOTE_ADDR="10.0.0.5").post("/en/play/practice/", PRACTICE).status_code == 429
    for _ in range(3):  # several teachers, each a class on 8 tablets
        teacher = Client(REMOTE_ADDR="10.0.0.5")
        response = teacher.post("/en/teach/class/", {**TABLETS, "tablets": "8"})
        assert response.status_code == 302, response.content[:500]


def test_a_class_table_left_for_a_new_game_no_longer_counts(client, content, settings):
    settings.CLASS_TABLES_OPEN_PER_SESSION = 1
    response = client.post("/en/teach/class/", CLASS)
    assert response.status_code == 302
    old = Table.objects.exclude(teacher_key="").get()
    Table.objects.filter(id=old.id).update(next_code="ZZZZZZ", open_until=0)  # as restart
    assert client.post("/en/teach/class/", CLASS).status_code == 302


# -- the count reads an index ---------------------------------------------------------


def test_counting_a_persons_open_tables_reads_an_index_not_every_table():
    from django.db import connection

    from games.tables.limits import _closing_times

    with CaptureQueriesContext(connection) as queries:
        _closing_times("lobby", "session", "k" * 32, 0)
        _closing_times("lobby", "address", "10.0.0.1", 0)
    for query in queries.captured_queries:
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN QUERY PLAN " + query["sql"])
            plan = " ".join(str(row) for row in cursor.fetchall())
        assert "USING INDEX table_open_by_" in plan, plan
        assert "SCAN" not in plan.replace("USING INDEX", ""), plan


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
