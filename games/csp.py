"""A Content-Security-Policy on every response: scripts, styles, fonts, images and
connections from the site itself only; no inline script, style or event handler (the
pages keep theirs in static files); no frames, plugins or foreign form targets.

A page's data for its scripts travels in ``<script type="application/json">`` blocks
(``json_script``), which are data, never run. WebSockets go back to the page's own
host (``ws:``/``wss:`` of the same host and port).
"""

from __future__ import annotations

from django.core.exceptions import DisallowedHost

__all__ = ["ContentSecurityPolicyMiddleware", "policy"]


def policy(host: str) -> str:
    """The policy of a page served as ``host`` (the request's Host, with its port)."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src 'self' ws://{host} wss://{host}",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            try:
                host = request.get_host()
            except DisallowedHost:  # answered 400 already; its page needs no socket
                host = "invalid.invalid"
            response["Content-Security-Policy"] = policy(host)
        return response
