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
    match = re.fullmatch(
        rf"/{lang}/teach/lessons/([A-Z0-9]+)/edit/([^/]+)/\?new=1", response["Location"]
    )
    assert match, response["Location"]
    return match[1], f"/{lang}/teach/lessons/{match[1]}/edit/{match[2]}/"


def step(client, path, at, **data):
    return client.post(f"{path}?at={at}", {"change": "step", **data})


def frames_of(html: str) -> dict:
    raw = re.search(
        r'<script id="walkthrough-frames" type="application/json">(.*?)</script>', html, re.S
    )
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


def refused(response, text: str) -> None:
    assert response.status_code == 400
    assert text in response.content.decode()


RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
DECK = [f"{r}{s}" for s in "SHDC" for r in RANKS]


@pytest.mark.parametrize(
    ("piles", "says"),
    [
        (
            {"pile_0": " ".join(DECK[:18]), "pile_1": " ".join(DECK[18:36]),
             "pile_2": " ".join(DECK[36:] + ["AS"])},
            "A deck has 52 cards, and this arrangement has 53.",
        ),
        ({"pile_0": "7H 2C", "pile_1": "7h"}, "The ⁨7 of hearts⁩ is arranged twice"),
        ({"pile_0": "7X"}, "“⁨7X⁩” is not a card."),
        ({"pile_0": " ".join(DECK[:19])}, "is dealt 18 cards at this table: arrange no more."),
    ],
)  # fmt: skip
def test_a_bad_arrangement_is_refused_and_makes_no_lesson(piles, says):
    response = Client().post(
        "/en/teach/lessons/", {**SETUP, "pile_0": "", "pile_1": "", "pile_2": "", **piles}
    )
    refused(response, says)
    assert not Lesson.objects.exists()


def test_a_step_the_engine_refuses_is_told_why_and_changes_nothing():
    client = Client()
    code, path = made(client)
    step(client, path, 0, do="turn", seat="0")
    before = Lesson.objects.get(code=code).steps
    response = step(client, path, 1, do="turn", seat="0")  # Ana again: Ben's turn
    refused(response, "It is not your turn, so you may not turn over a card now.")
    assert "⁨Ana⁩" in response.content.decode()
    response = step(client, path, 1, do="close")
    refused(response, "Nobody has called, so there is no race to end.")
    assert Lesson.objects.get(code=code).steps == before


def test_a_wrong_call_is_a_step_the_engine_plays():
    client = Client()
    code, path = made(client)
    step(client, path, 0, do="turn", seat="0")
    assert step(client, path, 1, do="snap", seat="2").status_code == 302
    page = client.get(path).content.decode()
    assert "Wrong call! ⁨Chen⁩ gives a penalty card to ⁨Ana⁩." in page


def test_a_note_too_long_or_a_lesson_too_long_is_refused():
    client = Client()
    code, path = made(client, {**SETUP, "turn_limit": ""})
    refused(
        client.post(f"{path}?at=0", {"change": "moment", "note": "x" * 301}),
        "That is too long: at most 300 characters.",
    )
    assert Lesson.objects.get(code=code).notes == {}
    lesson = Lesson.objects.get(code=code)
    lesson.steps = [{"do": "turn", "seats": [n % 3]} for n in range(80)]
    lesson.save()
    refused(step(client, path, 80, do="turn", seat="2"), "A lesson has at most 80 steps.")
    assert len(Lesson.objects.get(code=code).steps) == 80


def test_a_note_with_markup_is_shown_as_text_in_every_language():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    note = '<script>alert("x")</script><b>look</b>'
    assert (
        client.post(f"{path}?at=2", {"change": "moment", "note": note, "ask": "on"}).status_code
        == 302
    )
    for lang in ("en", "he", "ta"):
        html = client.get(f"/{lang}/lesson/{code}/").content.decode()
        assert "<script>alert" not in html and "<b>look</b>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;look&lt;/b&gt;" in html
        frames = frames_of(html)
        assert frames["frames"][2]["m"] == note
        assert frames["frames"][2]["x"] == "snap"


def test_only_the_secret_link_edits_and_the_plain_link_only_shows():
    client = Client()
    code, path = made(client)
    wrong = f"/en/teach/lessons/{code}/edit/not-the-key/"
    assert client.get(wrong).status_code == 403
    assert (
        client.post(f"{wrong}?at=0", {"change": "step", "do": "turn", "seat": "0"}).status_code
        == 403
    )
    assert Lesson.objects.get(code=code).steps == []
    lesson = Lesson.objects.get(code=code)
    assert path.split("/")[-2] not in lesson.edit_hash  # only a hash is kept
    assert len(lesson.edit_hash) == 64
    html = client.get(f"/en/lesson/{code}/").content.decode()
    assert "/edit/" not in html


def test_the_short_link_opens_in_the_devices_language():
    client = Client()
    code, _path = made(client)
    response = client.get(f"/lesson/{code}/", HTTP_ACCEPT_LANGUAGE="ta")
    assert response.status_code == 302 and response["Location"] == f"/ta/lesson/{code}/"


def test_a_lesson_tells_the_engines_events_in_the_readers_language():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    client.post(f"{path}?at=0", {"change": "moment", "ask": "on", "note": ""})
    he = frames_of(client.get(f"/he/lesson/{code}/").content.decode())
    en = frames_of(client.get(f"/en/lesson/{code}/").content.decode())
    assert he["frames"][0]["x"] == "turn" and en["frames"][0]["x"] == "turn"
    assert "תיקו" in he["texts"][he["frames"][4]["c"]]
    assert "tie" in en["texts"][en["frames"][4]["c"]]
    # a wrong press at the first marked moment: the engine's answer, in Hebrew
    wrong = he["frames"][0]["b"]["snap"]
    assert wrong["o"] == "mistake"


def test_changing_an_early_step_replays_the_rest_or_says_where_it_no_longer_fits():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    # The seed changes: the arranged cards stay on top, so every step still fits.
    response = client.post(f"{path}?at=3", {"change": "setup", **SETUP, "seed": "99"})
    assert response.status_code == 302
    assert len(Lesson.objects.get(code=code).steps) == 8
    # Step 4 becomes Chen's turn (the race is settled first, R9): step 5, Chen's turn
    # again, no longer fits, and the lesson ends before it.
    response = step(client, path, 3, do="turn", seat="2")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Step 5 no longer fits" in page
    assert "It is not your turn" in page
    assert len(Lesson.objects.get(code=code).steps) == 4


def test_a_lesson_copied_is_the_copiers_own():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    response = Client().post(f"/en/teach/lessons/{code}/copy/")
    assert response.status_code == 302
    copy = re.search(r"/teach/lessons/([A-Z0-9]+)/edit/", response["Location"])[1]
    assert copy != code
    assert Lesson.objects.get(code=copy).steps == Lesson.objects.get(code=code).steps


def test_the_examples_are_ready_to_play():
    client = Client()
    for name, steps in (("stuck-pot", 8), ("blocked-pot", 15)):
        response = client.post("/en/teach/lessons/", {"example": name})
        code = re.search(r"/teach/lessons/([A-Z0-9]+)/edit/", response["Location"])[1]
        lesson = Lesson.objects.get(code=code)
        assert len(lesson.steps) == steps and len(lesson.marks) == 2
        frames = frames_of(client.get(f"/ta/lesson/{code}/").content.decode())["frames"]
        assert sum(1 for f in frames if f.get("x")) == 2


def test_lessons_not_visited_for_a_year_are_deleted():
    client = Client()
    old, _ = made(client)
    kept, _ = made(client)
    Lesson.objects.filter(code=old).update(last_visit=timezone.now() - timedelta(days=366))
    Lesson.objects.filter(code=kept).update(last_visit=timezone.now() - timedelta(days=300))
    out = StringIO()
    call_command("purge_lessons", stdout=out)
    assert "Deleted 1 lesson" in out.getvalue()
    assert list(Lesson.objects.values_list("code", flat=True)) == [kept]


def test_a_lesson_prints_as_a_sheet_beside_another_language():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    client.post(f"{path}?at=2", {"change": "moment", "note": "Wer ruft? <i>x</i>", "ask": "on"})
    response = client.get(
        f"/he/teach/sheet/?lang=he&also=ta&parts=lesson:{code.lower()}", follow=True
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="step"') == 9
    assert "תיקו!" in html and "சமநிலை!" in html  # the tie, told in both languages
    assert "Wer ruft? &lt;i&gt;x&lt;/i&gt;" in html and '<p class="decides">' in html
    missing = client.get("/en/teach/sheet/?parts=lesson:AAAAAA")
    assert missing.status_code == 400
    assert "There is no lesson with the code ⁨AAAAAA⁩" in missing.content.decode()


def test_a_lesson_sheet_prints_as_a_pdf_in_hebrew_and_tamil(tmp_path):
    import io

    import pypdf

    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    response = client.get(f"/he/teach/sheet.pdf?also=ta&parts=lesson:{code}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.content)).pages)
    assert code in text


def test_a_teacher_gives_the_class_a_lesson_and_the_students_page_links_it():
    teacher = Client()
    code, _path = made(teacher)
    response = teacher.post(
        "/en/teach/class/",
        {"class_name": "4B", "seats": "4", "level": "beginner", "tie_window_ms": "150",
         "pace": "own", "turn_timer": "0"},
    )  # fmt: skip
    table = response["Location"].rstrip("/").rsplit("/", 1)[1]
    assert Client().post(f"/en/teach/class/{table}/lesson/", {"lesson": code}).status_code == 403
    response = teacher.post(f"/en/teach/class/{table}/lesson/", {"lesson": code.lower()})
    assert response.status_code == 302
    page = teacher.get(f"/en/teach/class/{table}/").content.decode()
    config = json.loads(re.search(r'id="class-config" type="application/json">(.*?)<', page)[1])
    assert config["walkthroughs"][-1] == {"slug": f"lesson:{code}", "title": "Two tens"}
    student = Client().get(f"/ta/play/{table}/").content.decode()
    assert f'href="/ta/lesson/{code}/"' in student
    table_config = json.loads(
        re.search(r'id="table-config" type="application/json">(.*?)<', student)[1]
    )
    assert table_config["walkthroughs"][-1] == f"lesson:{code}"
    lesson = Client().get(f"/ta/lesson/{code}/").content.decode()
    assert f'data-slug="lesson:{code}"' in lesson  # the player marks it done here
    refused = teacher.post(f"/en/teach/class/{table}/lesson/", {"lesson": "AAAAAA"}, follow=True)
    assert "There is no lesson with that code." in refused.content.decode()


def test_the_computer_goes_on_until_something_can_be_called():
    client = Client()
    code, path = made(client, {**SETUP, "pile_0": "", "pile_1": "", "pile_2": "", "turn_limit": ""})
    response = step(client, path, 0, do="go_on")
    assert response.status_code == 302
    steps = Lesson.objects.get(code=code).steps
    assert 1 <= len(steps) <= 52 and all(s["do"] == "turn" for s in steps)
    assert [s["seats"][0] for s in steps[:3]] == [0, 1, 2][: len(steps[:3])]  # in turn
    page = client.get(response["Location"]).content.decode()
    assert f"After step {len(steps)} of {len(steps)}" in page
    # Something can be called now: a call by Ana is a step the engine plays.
    assert step(client, path, len(steps), do="snap", seat="0").status_code == 302


def test_the_class_decides_only_a_right_move_of_its_own_player():
    client = Client()
    code, path = made(client)
    build_stuck_pot(client, path)
    response = client.post(f"{path}?at=1", {"change": "moment", "ask": "on"})  # Ben's turn
    refused(response, "The class can decide only a right move of ⁨Ana⁩")
    assert Lesson.objects.get(code=code).marks == []
    html = client.get(path).content.decode()
    assert '<meta name="referrer" content="same-origin">' in html
