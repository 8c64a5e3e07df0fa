"""A message sent to a connection whose client has just left is not an error: the
server's disconnect is on its way to the consumer (bench_tables: every table's last
``seats`` to its leaving players was logged as an ERROR with a traceback)."""

from __future__ import annotations

import pytest
from autobahn.exception import Disconnected
from uvicorn.protocols.utils import ClientDisconnected

from games.play.ws_guard import _Connection
from tests.own_loop import run_in_own_loop as run


async def _receive():
    return {"type": "websocket.connect"}


@pytest.mark.parametrize("gone", [Disconnected, ClientDisconnected], ids=["daphne", "uvicorn"])
def test_a_send_to_a_client_that_has_just_left_is_quietly_let_go(gone):
    tried = []

    async def send(message):
        tried.append(message)
        raise gone("Attempt to send on a closed protocol")

    async def two_sends():
        connection = _Connection(_receive, send, None)
        await connection.send({"type": "websocket.send", "text": '{"type": "seats"}'})
        await connection.send({"type": "websocket.send", "text": '{"type": "error"}'})
        return connection

    connection = run(two_sends())
    assert connection.closed
    assert len(tried) == 1  # the second is not tried on a connection known to be gone


@pytest.mark.parametrize("gone", [Disconnected, ClientDisconnected], ids=["daphne", "uvicorn"])
def test_closing_a_connection_whose_client_has_just_left_is_not_an_error(gone):
    async def send(message):
        raise gone("Attempt to send on a closed protocol")

    async def close():
        connection = _Connection(_receive, send, None)
        await connection.send({"type": "websocket.close", "code": 4408})
        return connection

    assert run(close()).closed


def test_any_other_failure_of_a_send_still_reaches_the_consumer():
    async def send(message):
        raise ValueError("not a client leaving")

    with pytest.raises(ValueError):
        run(_Connection(_receive, send, None).send({"type": "websocket.send", "text": "{}"}))
