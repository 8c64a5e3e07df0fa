"""autobahn's per-connection debug text is made only if it is logged
(snapsite/autobahn_tuning.py, installed by the ASGI application)."""

from __future__ import annotations

import pprint

import pytest


@pytest.mark.django_db
def test_autobahns_debug_formatting_is_made_only_when_the_text_is_asked_for(monkeypatch):
    from autobahn.websocket import protocol

    import snapsite.asgi  # noqa: F401 (installs it)

    calls = []
    real = pprint.pformat
    monkeypatch.setattr(pprint, "pformat", lambda value: calls.append(value) or real(value))
    settings = [("autoPingInterval", 0, "WebSocketServerFactory")]
    text = protocol.pformat(settings)
    assert calls == []  # a debug line nobody logs costs nothing
    assert f"{text}" == real(settings) and calls == [settings]
