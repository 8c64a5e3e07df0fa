"""The shortest paths to a game: one press on the home page and on "Play in two
minutes" seats you at a practice table; the Play page puts the practice button before
its choices, and tells the computer players' levels by what they do."""

import html as html_lib
import re

import pytest
from django.utils import translation

from games.engine import BotLevel
from games.live.bot_levels import level_description
from games.models import Seat, Table
from tests.conftest import LANGUAGE_CODES

ONE_PRESS = re.compile(
    r'<form class="play-now" method="post" action="(/\w+/play/practice/)">(.*?)</form>', re.S
)


@pytest.mark.parametrize("page", ["", "start/"])
@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_one_press_on_the_home_page_and_the_start_page_starts_a_practice_game(
    client, content, lang, page
):
    html = client.get(f"/{lang}/{page}").content.decode()
    form = ONE_PRESS.search(html)
    assert form and form.group(1) == f"/{lang}/play/practice/"
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(2)))
    response = client.post(form.group(1), fields)
    assert response.status_code == 302
    code = response["Location"].rstrip("/").rsplit("/", 1)[1]
    seats = Seat.objects.filter(table=Table.objects.get(code=code)).order_by("number")
    assert [s.is_bot for s in seats] == [False, True, True]  # seated at once, with two
    assert seats[0].session_key == client.session.session_key
    # ... computer players a young child can beat: they call late and miss many matches
    assert [s.bot_level for s in seats[1:]] == ["gentle", "gentle"]


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_the_play_page_shows_the_practice_button_before_the_choices(client, content, lang):
    html = client.get(f"/{lang}/play/").content.decode()
    practice = html.index('class="lobby-form practice-form"')
    button = html.index('type="submit"', practice)
    assert practice < button < html.index('id="practice_computers"')
    assert html.index("practice-box") < html.index('id="join-title"')


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_levels_are_told_by_what_the_computer_players_do(client, content, lang):
    html = html_lib.unescape(client.get(f"/{lang}/play/").content.decode())
    with translation.override(lang):
        described = [level_description(level) for level in BotLevel]
    for text in described:
        assert text in html
    assert len(set(described)) == len(BotLevel) == 4
    with translation.override("en"):
        beginner = level_description(BotLevel.BEGINNER)
    spec = BotLevel.BEGINNER.spec
    assert f"once in {round(1 / spec.false_call)} cards" in beginner
    assert f"misses {round((1 - spec.notice) * 10)} matches in 10" in beginner
    with translation.override("en"):
        gentle = level_description(BotLevel.GENTLE)
    assert gentle.startswith("Gentle: calls after about 1.4 s, misses 4 matches in 10")


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_home_pages_buttons_come_before_its_long_lead(client, content, lang):
    """On a phone the Tamil lead fills the first screen: the buttons come first."""
    html = client.get(f"/{lang}/").content.decode()
    assert html.index('class="play-now"') < html.index('class="lead"')
