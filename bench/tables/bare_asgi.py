"""The baseline: a bare Channels consumer on the same server and channel layer, that
numbers each turned card and broadcasts it to its group of four (no engine, no
storage). It speaks just enough of docs/protocol.md for the benchmark's players:
``hello`` (with the client's ``seat``), ``turn`` and ``ping``.

``python -m bench.tables`` serves it with uvicorn alone (a table process's command line,
no proxy) on the stack's channel layer (Redis).
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapsite.settings")
django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

SEATS = 4
#: The last number given in each group (one process: a plain dict).
_last_seq: dict[str, int] = {}


def bare_view(to_play: int) -> dict:
    return {"to_play": to_play, "race_open": False, "over": False}


class BareBroadcast(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.group = "bare." + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, close_code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: dict, **kwargs) -> None:
        kind = content.get("type")
        if kind == "hello":
            self.seat = int(content["seat"])
            seq = _last_seq.get(self.group, 0)
            await self.send_json(
                {"type": "welcome", "seat": self.seat, "seq": seq, "started": True,
                 "view": bare_view(seq % SEATS)}
            )  # fmt: skip
        elif kind == "turn":
            seq = _last_seq[self.group] = _last_seq.get(self.group, 0) + 1
            await self.channel_layer.group_send(
                self.group, {"type": "card", "seq": seq, "seat": self.seat}
            )
        elif kind == "ping":
            await self.send_json({"type": "pong", "t": content.get("t")})

    async def card(self, message: dict) -> None:
        seq, seat = message["seq"], message["seat"]
        await self.send_json(
            {"type": "event", "seq": seq, "code": "card_turned", "params": {"seat": seat},
             "view": bare_view(seq % SEATS)}
        )  # fmt: skip


application = ProtocolTypeRouter(
    {"websocket": URLRouter([re_path(r"^ws/bare/(?P<group>\w+)/$", BareBroadcast.as_asgi())])}
)
