"""The lobby and the replays are kept rendered as the content pages are
(games/content/page_cache.py): a browser's copy that is still right gets 304, each
visitor gets their own CSRF tokens, and each is kept under a version of what it is made
of (games/tables/changes.py: the open tables; a replay's seats), so a new table or a
purged name shows at once."""

from __future__ import annotations

import gzip
import os
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.frames import recorded as replay_frames
from games.models import Seat, Table
from games.tables import store
from tests.content.test_page_cache import TOKEN, secret_of
from tests.play.test_play_pages import OPEN as OPEN_FORM
from tests.replay.replay_helpers import store_game

OPEN = {**OPEN_FORM, "public": "on"}


def kept_pages() -> list[bytes]:
    """Every page the process keeps, as the page cache stores them (pickled)."""
    return list(caches["pages"]._cache.values())


def open_public_table(client) -> str:
    response = client.post("/en/play/new/", OPEN)
    assert response.status_code == 302, response.content.decode()[:600]
    return response["Location"].rstrip("/").rsplit("/", 1)[1]


@pytest.fixture
def named_game(content):
    """A finished game at a class table opened 31 days ago, a person named on seat 0."""
    code = store_game(players=3, seed=2, names={0: "Zubeida"})
    Table.objects.filter(code=code).update(
        teacher_key="teacher", created=timezone.now() - timedelta(days=31)
    )
    return code


@pytest.mark.parametrize("lang", ["en", "ta"])
def test_a_replay_answers_304_to_its_etag(client, named_game, lang):
    path = f"/{lang}/replay/{named_game}/"
    first = client.get(path)
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    again = client.get(path, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    lesson = client.get(path + "lesson/")
    revisit = client.get(path + "lesson/", headers={"if-none-match": lesson["ETag"]})
    assert revisit.status_code == 304


def test_a_second_visit_to_a_replay_does_not_play_the_game_again(named_game, monkeypatch):
    made = []
    frames = replay_frames.frames
    monkeypatch.setattr(replay_frames, "frames", lambda *a: made.append(1) or frames(*a))
    pages = [Client().get(f"/{lang}/replay/{named_game}/") for lang in ("en", "ta", "en", "ta")]
    assert [p.status_code for p in pages] == [200] * 4 and len(made) == 2  # once a language
    assert pages[0].content.decode().count("Zubeida") == pages[2].content.decode().count("Zubeida")
    assert secret_of(pages[0].content.decode()) != secret_of(pages[2].content.decode())
    assert 'lang="ta"' in pages[3].content.decode()


def test_a_purge_drops_the_kept_replay_at_once(client, named_game):
    for path in (f"/en/replay/{named_game}/", f"/ta/replay/{named_game}/lesson/"):
        assert "Zubeida" in client.get(path).content.decode()
    assert any(b"Zubeida" in page for page in kept_pages())
    call_command("purge_classes", stdout=open(os.devnull, "w"))
    assert not any(b"Zubeida" in page for page in kept_pages())  # gone from memory
    for path in (f"/en/replay/{named_game}/", f"/ta/replay/{named_game}/lesson/"):
        response = client.get(path)
        assert response.status_code == 404 and "Zubeida" not in response.content.decode()


def test_a_seat_renamed_by_its_table_owner_is_never_served_from_a_kept_replay(client, named_game):
    path = f"/en/replay/{named_game}/"
    first = client.get(path)
    assert "Zubeida" in first.content.decode()
    store.seat_bind(store.table_id(named_game), 0, "session-0", "Yara")  # as an owner would
    page = client.get(path, headers={"if-none-match": first["ETag"]})
    assert page.status_code == 200
    assert "Yara" in page.content.decode() and "Zubeida" not in page.content.decode()
    assert not any(b"Zubeida" in kept for kept in kept_pages())


def test_a_game_not_over_yet_stays_409_until_it_is_over(client, content):
    code = store_game(players=3, seed=2, stop_after=20)
    assert [client.get(f"/en/replay/{code}/").status_code for _ in range(2)] == [409, 409]
    assert not kept_pages()


def test_the_lobby_answers_304_while_its_open_tables_stay_the_same(client, content):
    first = client.get("/ta/play/")
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    again = client.get("/ta/play/", headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304


def test_the_lobby_shows_a_newly_opened_table_at_once(content):
    ana, ben = Client(), Client()
    before = ben.get("/en/play/")
    code = open_public_table(ana)
    after = ben.get("/en/play/", headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and f'href="/en/play/{code}/"' in after.content.decode()
    assert after["ETag"] != before["ETag"]
    for seat in Seat.objects.filter(table__code=code, session_key=""):
        store.seat_bind(seat.table_id, seat.number, f"k-{seat.number}", "Ben")  # now full
    assert f'href="/en/play/{code}/"' not in ben.get("/en/play/").content.decode()
    assert len(kept_pages()) == 1  # the lobby kept once: the older copies are dropped


def test_every_lobby_form_carries_each_visitors_own_token_compressed_or_not(content):
    ana, ben = Client(), Client()
    packed = [c.get("/he/play/", headers={"accept-encoding": "gzip"}) for c in (ana, ben)]
    texts = [gzip.decompress(p.content).decode() for p in packed]
    plain = ana.get("/he/play/").content.decode()
    for text, client in zip([*texts, plain], (ana, ben, ana), strict=True):
        secrets = {secret_of(m.group(0)) for m in TOKEN.finditer(text)}
        assert len(TOKEN.findall(text)) == 4 and secrets == {client.cookies["csrftoken"].value}
