"""Which pages may open the site's WebSockets: those of the site's own origin.

A browser sends the page's origin (scheme, host and port) with every WebSocket
handshake. The connection is accepted only when that origin is the site's own, the
scheme, host and port the browser used to reach this server (``Host`` header, ``ws``
→ ``http`` and ``wss`` → ``https``, ``X-Forwarded-Proto`` when the site is behind a TLS
proxy), with the host in ``ALLOWED_HOSTS``; or one of ``settings.WEBSOCKET_ORIGINS``
(a proxy that rewrites the host). Anything else is refused before the consumer runs
(the handshake answers 403). This stops a page on another port of the same host, or
plain ``http`` when the site is ``https``, from acting with a player's cookie.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

__all__ = ["SameOriginValidator", "origin_allowed"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of ``scheme://host[:port]``; None for anything else."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path or parts.query or parts.fragment or parts.username:
        return None
    return parts.scheme, parts.hostname, port or _DEFAULT_PORTS[parts.scheme]


def _header(scope: dict, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def _scheme(scope: dict) -> str:
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy and _header(scope, proxy[0][5:].lower().replace("_", "-").encode()) == proxy[1]:
        return "https"
    return "https" if scope.get("scheme") == "wss" else "http"


def origin_allowed(scope: dict) -> bool:
    """Is the handshake's ``Origin`` the site's own (see the module docstring)?"""
    origin = _origin_key(_header(scope, b"origin"))
    if origin is None:
        return False
    extra = {_origin_key(o) for o in settings.WEBSOCKET_ORIGINS}
    if origin in extra:
        return True
    host = _header(scope, b"host")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin == _origin_key(f"{_scheme(scope)}://{host}")


class SameOriginValidator:
    """ASGI middleware: a WebSocket whose origin is not allowed is refused."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
