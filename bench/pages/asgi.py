"""The site's ASGI application with the bare view (:mod:`bench.pages.settings`)."""

import os

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.pages.settings"

from snapsite.asgi import application  # noqa: E402, F401
