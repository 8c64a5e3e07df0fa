"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from snapsite.http_cycles import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapsite.settings")
# Django's ASGIHandler, whose requests leave no reference cycle (snapsite/http_cycles.py)
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from games.play.routing import websocket_urlpatterns  # noqa: E402
from games.play.ws_guard import CONNECTIONS, ConnectionGuard  # noqa: E402
from games.play.ws_origin import SameOriginValidator  # noqa: E402
from snapsite import (  # noqa: E402
    admission,
    autobahn_tuning,
    daphne_cycles,
    db_connections,
    fd_table,
    gc_tuning,
    thread_switch,
)

db_connections.install()
autobahn_tuning.install()
daphne_cycles.install()
admission.install()
# the table of open files grown once now, not while the sockets come (snapsite/fd_table.py)
fd_table.reserve(settings.FD_TABLE_SLOTS)
# another thread keeps the interpreter from the loop 1 ms at most (snapsite/thread_switch.py)
thread_switch.install(settings.THREAD_SWITCH_INTERVAL_MS)

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

# Last: everything start-up loads is kept out of the collector's sight, and so is what
# survives each collection; the hourly full collection rides on the regular memory look.
gc_tuning.tune()
CONNECTIONS.regular_looks.append(gc_tuning.thaw_if_due)
