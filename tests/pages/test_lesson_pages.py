"""Teachers' lessons through their pages: a lesson made, changed only with its secret
link, refusals that change nothing, the lesson page in each reader's language with the
teacher's notes escaped, a copy of one's own, and lessons deleted after a year unvisited."""

import json
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.models import Lesson

pytestmark = pytest.mark.django_db

SETUP = {
    "title": "Two tens",
    "name_0": "Ana",
    "pile_0": "10H 10C",
    "name_1": "Ben",
    "pile_1": "10S",
    "name_2": "Chen",
    "pile_2": "10D",
    "learner": "0",
    "tie_window_ms": "150",
    "turn_limit": "4",
    "seed": "7",
}


def made(client, data=SETUP, lang="en") -> tuple[str, str]:
    """Make a lesson; its code and its edit path (without ?new=1)."""
    response = client.post(f"/{lang}/teach/lessons/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    match = re.fullmatch(rf"/{lang}/teach/lessons/([A-Z0-9]+)/edit/([^/]+)/\?new=1", response["Location"])
    assert match, response["Location"]
    return match[1], f"/{lang}/teach/lessons/{match[1]}/edit/{match[2]}/"


def step(client, path, at, **data):
    return client.post(f"{path}?at={at}", {"change": "step", **data})


def frames_of(html: str) -> dict:
    raw = re.search(r'<script id="walkthrough-frames" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(raw[1])


def build_stuck_pot(client, path):
    for at, data in enumerate(
        [
            {"do": "turn", "seat": "0"},
            {"do": "turn", "seat": "1"},
            {"do": "snap", "seat": "0", "also": "1"},
            {"do": "close"},
            {"do": "turn", "seat": "2"},
            {"do": "turn", "seat": "0"},
            {"do": "snap", "seat": "0", "also": "2"},
            {"do": "close"},
        ]
    ):
        response = step(client, path, at, **data)
        assert response.status_code == 302, response.content.decode()[:3000]


def test_a_lesson_is_made_and_played_forward_on_the_engine():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    lesson = Lesson.objects.get(code=code)
    assert len(lesson.steps) == 8
    page = client.get(path).content.decode()
    assert "The game is over with 4 cards in the Snap Pot: they stay there." in page
