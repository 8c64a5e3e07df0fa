"""What a browser does before the WebSocket: the Play page's forms, with a cookie jar
and the CSRF token each page carries (stdlib HTTP, one jar per simulated player), from
a loopback address of its own household's (127.x.y.z: nginx counts people by address)."""

from __future__ import annotations

import http.client
import re
import urllib.parse
from http.cookies import SimpleCookie

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CODE = re.compile(r"/play/([A-Z0-9]+)/$")


class Browser:
    """One visitor: its own cookies (session, CSRF), like one tablet."""

    def __init__(self, url: str, lang: str = "en", source: str = "127.0.0.1") -> None:
        parts = urllib.parse.urlsplit(url)
        self.source = source
        self.host, self.port = parts.hostname, parts.port or 80
        self.origin = f"http://{self.host}:{self.port}"
        self.lang = lang
        self.cookies: dict[str, str] = {}

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def request(self, method: str, path: str, form: dict | None = None):
        conn = http.client.HTTPConnection(
            self.host, self.port, timeout=30, source_address=(self.source, 0)
        )
        headers = {"Cookie": self.cookie_header(), "Origin": self.origin,
                   "Referer": self.origin + path}  # fmt: skip
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode()
        finally:
            conn.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, response.headers, text

    def open_table(self, name: str, seats: int = 4) -> str:
        """Open a table from the lobby's form (4 seats, no computers, own turns, no
        timer, longest turn limit) and return its code."""
        status, _, page = self.request("GET", f"/{self.lang}/play/")
        token = TOKEN.search(page)
        if status != 200 or token is None:
            raise RuntimeError(f"the lobby answered {status}")
        form = {
            "csrfmiddlewaretoken": token.group(1),
            "name": name, "seats": seats, "computers": 0, "level": "steady",
            "tie_window_ms": 150, "turn_limit": 2000, "pace": "own", "turn_timer": 0,
        }  # fmt: skip
        status, headers, _ = self.request("POST", f"/{self.lang}/play/new/", form)
        match = CODE.search(headers.get("Location", ""))
        if status != 302 or match is None:
            raise RuntimeError(f"opening a table answered {status}")
        self.visit_table(match.group(1))
        return match.group(1)

    def visit_table(self, code: str) -> None:
        """Load the table's page (it gives this browser its session)."""
        status, _, _ = self.request("GET", f"/{self.lang}/play/{code}/")
        if status != 200:
            raise RuntimeError(f"the table page answered {status}")
