"""A few clients, each its own browser (cookies, keep-alive, ``Accept-Encoding: gzip``),
fetch one address for a while: requests per second, answers by status, errors."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.parse
from http.cookies import SimpleCookie


class PageClient:
    """One browser on one kept-alive connection."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            self.conn.request("GET", path, headers=sent)
            response = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()  # the server closed the kept-alive connection: once more
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            self.conn.request("GET", path, headers=sent)
            response = self.conn.getresponse()
        body = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, dict(response.headers), body

    def close(self) -> None:
        self.conn.close()


def rate(url: str, path: str, *, clients: int, seconds: float, conditional: bool) -> dict:
    """Requests per second for ``path`` from ``clients`` browsers in ``seconds``; with
    ``conditional``, each sends back the ETag it got first (a revisit)."""
    counts, statuses, sizes, errors = [0] * clients, {}, [], []
    lock = threading.Lock()
    stop_at = [0.0]
    began = [0.0]

    def go() -> None:  # run by the last thread to arrive, before any is released
        began[0] = time.monotonic()
        stop_at[0] = began[0] + seconds

    start = threading.Barrier(clients + 1, action=go)

    def browse(index: int) -> None:
        client = PageClient(url)
        try:
            status, headers, body = client.get(path)  # a first visit: cookies, ETag
            with lock:
                sizes.append(len(body))
            etag = headers.get("ETag") if conditional else None
            start.wait()
            while time.monotonic() < stop_at[0]:
                status, _, _ = client.get(path, {"If-None-Match": etag} if etag else None)
                counts[index] += 1
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
        except Exception as error:  # noqa: BLE001 (a failed client is a figure)
            errors.append(f"{type(error).__name__}: {error}"[:80])
            start.abort()
        finally:
            client.close()

    threads = [threading.Thread(target=browse, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    try:
        start.wait()
    except threading.BrokenBarrierError:
        pass
    for thread in threads:
        thread.join(seconds + 60)
    elapsed = max(time.monotonic() - began[0], 1e-9) if began[0] else float("inf")
    return {
        "rps": round(sum(counts) / elapsed, 1),
        "statuses": statuses,
        "bytes": max(sizes) if sizes else None,
        "errors": errors,
    }
