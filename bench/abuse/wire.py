"""A minimal asyncio WebSocket client (RFC 6455 text frames) and the lobby's form
post, for the abuse benchmark: the standard library only, 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import socket
import struct
import urllib.parse

HOST = "127.0.0.1"


class Closed(Exception):
    """The server closed the connection (``code``: its close code, None if dropped)."""

    def __init__(self, code: int | None) -> None:
        super().__init__(code)
        self.code = code


class Socket:
    """One WebSocket connection to ``ws://127.0.0.1:<port><path>``."""

    def __init__(self, reader, writer) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(
        cls,
        port: int,
        path: str,
        cookie: str = "",
        receive_buffer: int | None = None,
        source: str | None = None,
    ) -> Socket:
        """``source``: the loopback address to connect from (127.0.0.x: another person
        to the server; still to 127.0.0.1 only)."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # Small frames leave at once, as a browser's do (Chromium sets TCP_NODELAY on
        # every socket). asyncio sets it only on sockets made with IPPROTO_TCP, and
        # without it a move written just after a pong waited for the server's delayed
        # ACK (Nagle's algorithm): 15 to 45 ms on the keepalive pings' 20-second beat,
        # counted as the server's round trip.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if source is not None:
            if not source.startswith("127."):
                raise ValueError(f"the benchmark stays on the loopback, not {source}")
            sock.bind((source, 0))
        if receive_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
        reader, writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(os.urandom(16)).decode()
        head = (
            f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://{HOST}:{port}\r\n"
        )
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        writer.write((head + "\r\n").encode())
        async with asyncio.timeout(10):
            answer = await reader.readuntil(b"\r\n\r\n")
        if not answer.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise Closed(None)
        return cls(reader, writer)

    def frame(self, text: str, opcode: int = 0x1) -> bytes:
        return self._frame(text.encode(), opcode)

    @staticmethod
    def _frame(payload: bytes, opcode: int) -> bytes:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        else:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return header + mask + masked

    async def send(self, message: dict) -> None:
        self.writer.write(self.frame(json.dumps(message)))
        await self.writer.drain()

    async def receive(self) -> dict:
        """The next text frame as JSON (pings are answered); raises :class:`Closed` at
        the end."""
        try:
            while True:
                first, second = await self.reader.readexactly(2)
                n = second & 0x7F
                if n == 126:
                    (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif n == 127:
                    (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                payload = await self.reader.readexactly(n)
                opcode = first & 0x0F
                if opcode == 0x8:
                    code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                    raise Closed(code)
                if opcode == 0x9:  # answered as a browser does: the server drops a
                    # connection whose pings go unanswered
                    self.writer.write(self._frame(payload, 0xA))
                if opcode == 0x1:
                    return json.loads(payload)
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            raise Closed(None) from error

    def close(self) -> None:
        self.writer.close()


async def http(port: int, method: str, path: str, cookies: dict, form: dict | None = None):
    """One HTTP request; ``cookies`` is updated from the answer. Returns (status,
    headers, body)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    body = urllib.parse.urlencode(form or {}).encode() if method == "POST" else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n"
    if cookies:
        head += "Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()) + "\r\n"
    if method == "POST":
        head += "Content-Type: application/x-www-form-urlencoded\r\n"
        head += f"Content-Length: {len(body)}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    async with asyncio.timeout(30):
        raw = await reader.read()
    writer.close()
    head_text, _, content = raw.partition(b"\r\n\r\n")
    lines = head_text.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    if "chunked" in headers.get("transfer-encoding", [""])[0].lower():
        content = unchunked(content)
    for cookie in headers.get("set-cookie", []):
        name, _, rest = cookie.partition("=")
        cookies[name] = rest.split(";", 1)[0]
    return status, headers, content.decode("utf-8", "replace")


def unchunked(body: bytes) -> bytes:
    """A body sent in chunks (``Transfer-Encoding: chunked``), joined.

    >>> unchunked(b"3\\r\\nabc\\r\\n2;x=1\\r\\nde\\r\\n0\\r\\n\\r\\n")
    b'abcde'
    """
    out, rest = b"", body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


async def open_table(port: int, cookies: dict, name: str, turn_limit: int) -> str:
    """Open a table of two people from the lobby (as a browser would); its code."""
    _status, _headers, page = await http(port, "GET", "/en/play/", cookies)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {
        "csrfmiddlewaretoken": token,
        "name": name,
        "seats": "2",
        "computers": "0",
        "level": "steady",
        "tie_window_ms": "150",
        "turn_limit": str(turn_limit),
        "pace": "own",
        "turn_timer": "0",
    }
    status, headers, body = await http(port, "POST", "/en/play/new/", cookies, form)
    if status != 302:
        raise RuntimeError(f"the lobby did not open a table ({status}): {body[:300]}")
    return re.fullmatch(r"/en/play/([A-Z0-9]+)/", headers["location"][0]).group(1)


def cookie_header(cookies: dict) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies.items() if k == "sessionid")
