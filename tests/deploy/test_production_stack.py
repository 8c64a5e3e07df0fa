"""The production stack as docs/deploy.md runs it (deploy.stack): nginx in front of two
page workers and two table processes, on PostgreSQL and Redis.

- A whole game in Chromium through nginx, with a player on each table process's side;
  the process that owns the table is SIGKILLed mid-game and the game goes on to its
  end, every event reaching each player once.
- 1,000 WebSocket handshakes from one address that then say nothing are capped by the
  proxy (most refused with 429, the rest cut by the hello timeout) while a game at
  another address goes on.
- Two classes behind one address connect (the second made to wait a few seconds);
  past them, handshakes are refused.
- A table's frames are compressed when the browser offers it.
"""

from __future__ import annotations

import collections
import json
import re
import selectors
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import require
from tests.servers import ROOT, free_port
from tests.snapsite.test_production_services import (
    PG_HOST,
    PG_PORT,
    REDIS_HOST,
    REDIS_PORT,
    reachable,
)
from tests.tables.test_table_two_processes import Tablet

pytestmark = [
    pytest.mark.server,
    pytest.mark.postgres,
    pytest.mark.redis,
    # one stack for the module: its tests run in one worker of a parallel run
    pytest.mark.xdist_group("production-stack"),
]

MAKE_TABLES = """
from django.contrib.sessions.backends.db import SessionStore
from games import tables
from games.engine import BotLevel, Options
from games.tables import store
out = []
for _ in range({count}):
    session = SessionStore()
    session.create()
    code = tables.table_create(
        players=3, options=Options(tie_window_ms=40, turn_limit={turns}), seed=5,
        bots={{seat: BotLevel.QUICK for seat in {bot_seats}}}, bot_time_scale=0.05,
        away_after_ms=60000,
    )
    store.seat_bind(store.table_id(code), 0, session.session_key, "Ana")
    out.append(code + ":" + session.session_key)
print(" ".join(out))
"""


def established(port: int) -> int:
    """Established TCP connections whose local end is 127.0.0.1:``port``."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if state == "01" and int(local.split(":")[1], 16) == port:
            count += 1
    return count


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    from deploy.stack import nginx_missing

    missing = nginx_missing()
    require(missing is None, missing)
    import psycopg
    from redis import Redis

    from deploy.stack import Stack

    name = f"snap_stack_{uuid.uuid4().hex[:8]}"
    redis_url = f"redis://{REDIS_HOST}:{REDIS_PORT}/9"
    Redis.from_url(redis_url).flushdb()
    stack = Stack(
        workdir=tmp_path_factory.mktemp("stack"), port=free_port(), pages=2, tables=2,
        database_url=f"postgres://postgres@{PG_HOST}:{PG_PORT}/{name}", redis_url=redis_url,
        # a lease is taken over this long after its owner stopped renewing it
        settings={"TABLES_OPEN_PER_ADDRESS": "100000"},
    )  # fmt: skip
    with stack:
        yield stack
    admin = f"postgresql://postgres@{PG_HOST}:{PG_PORT}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_tables(stack, count: int, turns: int, bot_seats=(2,)) -> list[tuple[str, str]]:
    """``count`` tables of three, Ana in seat 0 (a session of her own), computer players
    in ``bot_seats``: [(code, Ana's session key)]."""
    script = MAKE_TABLES.format(count=count, turns=turns, bot_seats=tuple(bot_seats))
    out = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", script],
        env=stack.env(), cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [tuple(pair.split(":")) for pair in out.stdout.split()[-count:]]


def process_reached(stack, code: str) -> int:
    """The index of the table process nginx sends ``code``'s WebSockets to."""
    from tests.tables.wsclient import WSClient

    seen = []
    for _attempt in range(5):  # another connection may come or go in the same moment
        before = [established(p) for p in stack.table_ports]
        probe = WSClient("127.0.0.1", stack.port, f"/ws/play/{code}/", origin=stack.url)
        deadline = time.monotonic() + 5  # a busy machine may take a while to connect
        while True:
            time.sleep(0.1)
            after = [established(p) for p in stack.table_ports]
            grown = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if b > a]
            if grown or time.monotonic() > deadline:
                break
        probe.close()
        if len(grown) == 1:
            return grown[0]
        seen.append((before, after))
        time.sleep(0.5)
    raise AssertionError(f"no single table process took the probe: {seen}")


def handshake(stack, code: str, extensions: str | None = None) -> bytes:
    """A browser's WebSocket handshake for table ``code`` through the stack's nginx,
    offering ``extensions`` when given."""
    offered = f"Sec-WebSocket-Extensions: {extensions}\r\n" if extensions else ""
    return (
        f"GET /ws/play/{code}/ HTTP/1.1\r\nHost: 127.0.0.1:{stack.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{offered}Origin: {stack.url}\r\n\r\n"
    ).encode()


def event_seqs(frames: list[str]) -> list[int]:
    seqs = []
    for frame in frames:
        message = json.loads(frame)
        if message.get("type") == "event":
            seqs.append(message["seq"])
    return seqs


@pytest.mark.browser
def test_a_game_in_chromium_through_nginx_survives_the_killing_of_its_owner(stack, chromium):
    # A table whose WebSockets nginx sends to table-1; Ana sits at it on table-0 directly
    # (a process the pool no longer routes it to), so table-0 owns it and the browser's
    # player is on the other side.
    code, ana_key = next(
        (code, key)
        for code, key in make_tables(stack, 8, turns=70)
        if process_reached(stack, code) == 1
    )
    owner = "table-0"
    ana = Tablet(stack.table_ports[0], code, ana_key, seat=0)
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))
    page.goto(f"{stack.url}/en/play/{code}/")
    page.locator("#join-name").fill("Ben")
    page.locator("#join-name").press("Enter")
    page.locator(".seat.learner").wait_for()
    killed = False
    deadline = time.monotonic() + 150
    while not page.locator("#finished").is_visible():
        assert time.monotonic() < deadline, "the game did not end"
        assert ana.error is None, ana.last_frames
        if not killed and len(ana.seqs) >= 12:
            stack.kill(owner)  # mid-game: the table's owner dies at once
            killed = True
            ana.drop()
            ana.connect(stack.port)  # Ana's tablet comes back through nginx
        if page.locator("[data-move=turn]").is_enabled():
            page.keyboard.press("t")
        elif page.locator("[data-move=snap]").is_enabled():
            page.keyboard.press("s")
        page.wait_for_timeout(120)
    assert killed
    deadline = time.monotonic() + 30
    while not ana.over and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ana.over, ana.last_frames
    for seqs in (ana.seqs, event_seqs(frames)):
        assert len(seqs) == len(set(seqs)), "an event came twice"
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "an event was lost"
    assert event_seqs(frames)[-1] == ana.seqs[-1]  # both saw the same last event
    context.close()
    ana.drop()
    stack.restart(owner)


def test_a_thousand_silent_handshakes_from_one_address_are_capped_by_the_proxy(stack):
    ((code, ana_key),) = make_tables(stack, 1, turns=60, bot_seats=(1, 2))
    ((quiet_code, _key),) = make_tables(stack, 1, turns=60)
    ana = Tablet(stack.port, code, ana_key, seat=0)  # from 127.0.0.1, through nginx
    silent = silent_handshakes(stack, quiet_code, "127.0.0.2", 1000)  # not the players'
    answers = collections.Counter(
        status for status, _at in answered_when(silent, time.monotonic(), within_s=30)
    )
    reached = sum(established(p) for p in stack.table_ports)
    assert answers.get("429", 0) >= 800, answers  # refused at the proxy
    assert answers.get("101", 0) <= 150, answers  # at most the per-address connections
    assert reached <= 160, reached  # the table processes never held more of them
    deadline = time.monotonic() + 90
    while not ana.over:  # the game at the other address went on meanwhile
        assert time.monotonic() < deadline and ana.error is None, ana.last_frames
        time.sleep(0.2)
    assert ana.seqs == list(range(ana.seqs[0], ana.seqs[0] + len(ana.seqs)))
    for sock in silent:
        sock.close()
    ana.drop()


def silent_handshakes(stack, code: str, address: str, count: int) -> list[socket.socket]:
    """``count`` WebSocket handshakes for table ``code`` from ``address``, sent one after
    the other through the stack's nginx; their sockets, which say nothing more."""
    request = handshake(stack, code)
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((address, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", stack.port))
        sock.sendall(request)
        sockets.append(sock)
    return sockets


def answered_when(sockets: list[socket.socket], started: float, within_s: float) -> list:
    """Each socket's HTTP status and when it came (seconds after ``started``), in the
    order sent; ("none", None) for a socket that got nothing within ``within_s``."""
    answers: list = [("none", None)] * len(sockets)
    deadline = started + within_s
    with selectors.DefaultSelector() as waiting:  # epoll: select() stops at fd 1023
        for index, sock in enumerate(sockets):
            waiting.register(sock, selectors.EVENT_READ, index)
        while waiting.get_map() and time.monotonic() < deadline:
            for key, _events in waiting.select(timeout=0.2):
                try:
                    status = key.fileobj.recv(64).split(b" ")[1].decode()
                except (OSError, IndexError):
                    status = "none"
                answers[key.data] = (status, time.monotonic() - started)
                waiting.unregister(key.fileobj)
    return answers


def test_two_classes_behind_one_address_connect_and_a_third_is_refused(stack):
    # 30 children with two tabs each open 60 WebSockets at once, and a second class at
    # the same school in the same second 60 more: 140 handshakes from one address
    ((code, _key),) = make_tables(stack, 1, turns=60)
    started = time.monotonic()
    sockets = silent_handshakes(stack, code, "127.0.0.6", 140)  # no other test's address
    answers = answered_when(sockets, started, within_s=30)
    statuses = [status for status, _ in answers]
    first_class = [at for status, at in answers[:60] if status == "101"]
    second_class = [at for status, at in answers[60:120] if status == "101"]
    assert len(first_class) == 60 and max(first_class) < 5, answers[:60]  # at once
    assert len(second_class) == 60, answers[60:120]  # let in too, not refused...
    assert max(second_class) >= 4  # ...but made to wait, paced at 10 handshakes a second
    assert statuses.count("429") >= 15, statuses  # past the burst: refused
    for sock in sockets:
        sock.close()


def test_a_tables_websocket_is_compressed_when_the_browser_offers_it(stack):
    ((code, _key),) = make_tables(stack, 1, turns=60)
    # the extension as Chromium offers it
    request = handshake(stack, code, "permessage-deflate; client_max_window_bits")
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            assert chunk, answer
            answer += chunk
    head = answer.split(b"\r\n\r\n")[0].decode().lower()
    assert head.startswith("http/1.1 101"), head
    assert "sec-websocket-extensions: permessage-deflate" in head, head


def test_the_proxy_serves_static_files_itself_with_long_caching(stack):
    import urllib.request

    with urllib.request.urlopen(f"{stack.url}/en/rules/") as answer:
        html = answer.read().decode()
    css = re.search(r'href="(/static/[^"]+\.css)"', html).group(1)
    assert re.search(r"\.[0-9a-f]{12}\.css$", css), css  # a hashed name
    with urllib.request.urlopen(f"{stack.url}{css}") as answer:
        assert "immutable" in answer.headers["Cache-Control"]
        assert answer.headers["Server"] == "nginx"


def test_tables_opened_through_the_proxy_count_against_the_childs_own_address(stack):
    """gunicorn's page workers see nginx's address; the table is counted for the address
    nginx saw (X-Forwarded-For, believed from the proxy only)."""
    from tests.tables.test_table_limits_server import Browser

    code = Browser(stack.port, source="127.0.0.7").open_table()
    assert isinstance(code, str), code
    script = (
        f"from games.models import Table; print(Table.objects.get(code='{code}').opener_address)"
    )
    out = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", script],
        env=stack.env(), cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert out.stdout.split()[-1] == "127.0.0.7"
