"""The page workers' settings in ``bench.pages``: the site's settings with one more
address, the bare view (:mod:`bench.pages.urls`)."""

from snapsite.settings import *  # noqa: F403

ROOT_URLCONF = "bench.pages.urls"
