"""WebSocket routes (wired into snapsite/asgi.py)."""

from django.urls import re_path

from games.play.consumer import TableConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/play/(?P<code>[A-Za-z0-9]{4,12})/$", TableConsumer.as_asgi()),
]
