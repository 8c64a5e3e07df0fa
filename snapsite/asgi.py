"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Served by uvicorn: the table processes behind the proxy, and `make run`'s one process
(snapsite/serve.py). Page workers behind the proxy serve snapsite/wsgi.py instead.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapsite.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games.play.routing import websocket_urlpatterns  # noqa: E402
from games.play.ws_guard import ConnectionGuard  # noqa: E402
from games.play.ws_origin import SameOriginValidator  # noqa: E402

# The session's cookie only, read lazily: no user is looked up (Channels'
# AuthMiddlewareStack reads the session and user from the database for every
# connection, on the one database thread the tables write from; nothing here uses
# scope["user"]). The consumer checks that the session exists when it takes a seat.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": ConnectionGuard(
            SameOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
