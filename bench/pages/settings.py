"""Settings of `manage.py bench_pages`'s server: the site's settings with one more
address, a bare Django view to compare the pages with (snapsite/bench_urls.py)."""

from .settings import *  # noqa: F403

ROOT_URLCONF = "snapsite.bench_urls"
