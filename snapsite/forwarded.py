"""The client's address behind the site's own proxy.

Page workers run under gunicorn, which hands Django the proxy's address as
``REMOTE_ADDR``; the per-address limits (games.tables.limits) must count people, not
the proxy. When the request comes from an address in ``FORWARDED_ALLOW_IPS`` (the
proxy: nginx sets ``X-Forwarded-For`` to the address it saw), ``REMOTE_ADDR`` becomes
the last address of that header, the one the proxy wrote. From any other address the
header is ignored, so nobody can claim another address by sending it. The table
processes get the same from uvicorn's own ``--forwarded-allow-ips``.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def forwarded_address(meta: dict, trusted: frozenset[str]) -> str | None:
    """The client address ``meta`` says, believing ``X-Forwarded-For`` only from
    ``trusted`` peers and only when its last entry is an address.

    >>> forwarded_address({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "10.0.0.7"},
    ...                   frozenset({"127.0.0.1"}))
    '10.0.0.7'
    >>> forwarded_address({"REMOTE_ADDR": "10.9.9.9", "HTTP_X_FORWARDED_FOR": "10.0.0.7"},
    ...                   frozenset({"127.0.0.1"}))
    '10.9.9.9'
    >>> forwarded_address({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "nonsense"},
    ...                   frozenset({"127.0.0.1"}))
    '127.0.0.1'
    """
    peer = meta.get("REMOTE_ADDR")
    header = meta.get("HTTP_X_FORWARDED_FOR", "")
    if peer not in trusted or not header:
        return peer
    last = header.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return peer


class ForwardedClientAddress:
    """Middleware: ``REMOTE_ADDR`` set from the proxy's ``X-Forwarded-For``."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.trusted = frozenset(settings.FORWARDED_ALLOW_IPS)

    def __call__(self, request):
        if self.trusted:
            request.META["REMOTE_ADDR"] = forwarded_address(request.META, self.trusted)
        return self.get_response(request)
