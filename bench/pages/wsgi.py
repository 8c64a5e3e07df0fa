"""The site's WSGI application with the bare view (:mod:`bench.pages.settings`)."""

import os

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.pages.settings"

from snapsite.wsgi import application  # noqa: E402, F401
