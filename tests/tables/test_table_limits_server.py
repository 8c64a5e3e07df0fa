"""The limits of open tables over the real server: tables nobody ever joined, and tables
open when the server was killed, close by the idle times, so the session and the whole
address that opened them open tables again once that time has passed; with two
processes on PostgreSQL and Redis the count is the database's, and the tables of a
process that died close too."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from urllib.parse import urlencode

import pytest

from tests.conftest import require
from tests.servers import ROOT, free_port, start_site_server
from tests.snapsite.test_production_services import (  # noqa: F401 (a fixture)
    PG_HOST,
    PG_PORT,
    REDIS_HOST,
    REDIS_PORT,
    postgres_database,
    reachable,
)

from .test_table_server_restart import site_with_table
from .wsclient import WebSocketClosed, WSClient

pytestmark = pytest.mark.server

PRACTICE = {"name": "Ana", "computers": "1", "level_1": "beginner"}
OPEN = {
    "name": "Ben",
    "seats": "4",
    "computers": "0",
    "level": "steady",
    "tie_window_ms": "150",
    "turn_limit": "",
    "pace": "own",
    "turn_timer": "10",
    "public": "on",
}
#: Short idle times: a table nobody is at closes 7 s after the last one left (or after
#: it was opened), one whose process stopped at most 2 s later still. Long enough for
#: a busy machine to open tables, kill a process and ask again within them.
IDLE = {"TABLE_IDLE_PAUSE_S": "2", "TABLE_IDLE_CLOSE_S": "5"}
CLOSES_AFTER_S = 2 + 5 + 2  # the idle times, and the margin of an attended table
LIMITS = {"TABLES_OPEN_PER_SESSION": "2", "TABLES_OPEN_PER_ADDRESS": "4", **IDLE}


class Browser:
    """One person's browser (its cookies) at a network address of the loopback."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str, str]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode({**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
        connection.close()
        return response.status, response.getheader("Location") or "", text

    def open_table(self, url: str = "/en/play/practice/", form: dict = PRACTICE) -> str | int:
        """The code of the table opened, or the status of the refusal."""
        if "csrftoken" not in self.cookies:
            self.request("GET", "/en/play/")
        status, location, _text = self.request("POST", url, form)
        if status != 302:
            return status
        return re.fullmatch(r"/en/play/([A-Z0-9]+)/", location).group(1)

    def connect(self, code: str) -> WSClient:
        """A welcomed connection of this browser to table ``code``."""
        client = WSClient(
            "127.0.0.1", self.port, f"/ws/play/{code}/",
            origin=f"http://127.0.0.1:{self.port}",
            cookie=f"sessionid={self.cookies['sessionid']}", source=self.source,
        )  # fmt: skip
        client.send_json({"type": "hello"})
        assert client.receive_json()["type"] == "welcome"
        return client


def closed_at_once(port: int, code: str) -> bool:
    """Connecting to table ``code`` is closed with 4404: the table is gone."""
    client = WSClient("127.0.0.1", port, f"/ws/play/{code}/", origin=f"http://127.0.0.1:{port}")
    try:
        client.receive_json()
    except WebSocketClosed as closed:
        return closed.code == 4404
    finally:
        client.close()
    return False


def wait_until(seconds_from: float, seconds: float) -> None:
    time.sleep(max(0.0, seconds_from + seconds - time.monotonic()))


def test_tables_never_joined_or_open_across_a_restart_close_and_free_the_limits(tmp_path):
    env, _ = site_with_table(tmp_path, "print('site')", **LIMITS)
    port = free_port()
    log = open(tmp_path / "server.log", "w")
    server = start_site_server(env, port, log)
    try:
        ana, ben, cara = (Browser(port) for _ in range(3))  # one school, one address
        mine = [ana.open_table() for _ in range(2)]
        assert all(isinstance(code, str) for code in mine)
        assert ana.open_table() == 429  # her session's limit
        played = ana.connect(mine[0])  # one of them had a connection
        public = [ben.open_table("/en/play/new/", OPEN) for _ in range(2)]  # never joined
        assert all(isinstance(code, str) for code in public)
        assert cara.open_table() == 429  # the address's limit: 4 tables
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        played.close()
        killed = time.monotonic()
        server = start_site_server(env, port, log)
        wait_until(killed, CLOSES_AFTER_S + 1)
        assert isinstance(ana.open_table(), str)  # the session opens tables again
        assert isinstance(cara.open_table(), str)  # and so does the school's address
        _status, _location, lobby = Browser(port).request("GET", "/en/play/")
        assert not any(code in lobby for code in public)  # no longer listed
        assert closed_at_once(port, public[0]) and closed_at_once(port, mine[0])
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.mark.redis
@pytest.mark.postgres
def test_with_two_processes_the_count_is_shared_and_a_dead_processs_tables_close(
    postgres_database,  # noqa: F811 (the fixture above)
    tmp_path,
):
    require(reachable(REDIS_HOST, REDIS_PORT), f"Redis is not running on {REDIS_HOST}:{REDIS_PORT}")
    require(reachable(PG_HOST, PG_PORT), f"PostgreSQL is not running on {PG_HOST}:{PG_PORT}")
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": postgres_database,
        "REDIS_URL": f"redis://{REDIS_HOST}:{REDIS_PORT}/5",
        **LIMITS,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(manage + ["migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    log = open(tmp_path / "server.log", "w")
    ports = [free_port(), free_port()]
    servers = [start_site_server(env, port, log) for port in ports]
    try:
        ana = Browser(ports[0])
        mine = [ana.open_table() for _ in range(2)]
        assert all(isinstance(code, str) for code in mine)
        played = ana.connect(mine[0])  # its owner: the first process
        ana.port = ports[1]
        assert ana.open_table() == 429  # the other process counts the same tables
        servers[0].send_signal(signal.SIGKILL)
        servers[0].wait(timeout=10)
        played.close()
        killed = time.monotonic()
        assert ana.open_table() == 429
        wait_until(killed, CLOSES_AFTER_S + 1)
        assert isinstance(ana.open_table(), str)
        assert closed_at_once(ports[1], mine[0])  # the dead process's table is gone
    finally:
        for server in servers:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=10)
        log.close()
