"""A minimal blocking WebSocket client (RFC 6455, text frames only) for tests against a
real server process; the test dependencies have no WebSocket client."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct


class WebSocketClosed(Exception):
    """The connection ended; ``code`` is the server's close code, if it sent one."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class WSClient:
    def __init__(
        self,
        host: str,
        port: int,
        path: str,
        origin: str,
        timeout: float = 10,
        receive_buffer: int | None = None,
        cookie: str = "",
        source: str | None = None,
    ):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if source is not None:  # another loopback address: another person to the server
            self.sock.bind((source, 0))
        if receive_buffer is not None:  # before connecting, so the window stays small
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "")
            + "\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise WebSocketClosed("handshake refused")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise WebSocketClosed(head.decode(errors="replace"))

    def _read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise WebSocketClosed("connection closed")
            data += chunk
        return data

    def send_json(self, message: dict) -> None:
        self.sock.sendall(self._frame(message))

    def send_many_json(self, messages: list[dict]) -> None:
        """Every message's frame in one write (a flood that is all sent before the
        server can answer it by closing the socket)."""
        self.sock.sendall(b"".join(self._frame(m) for m in messages))

    @staticmethod
    def _frame(message: dict) -> bytes:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return header + mask + masked

    def receive_json(self) -> dict:
        while True:
            first, second = self._read(2)
            opcode, n = first & 0x0F, second & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            payload = self._read(n)
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise WebSocketClosed("closed by the server", code)
            if opcode == 0x1:
                return json.loads(payload)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
