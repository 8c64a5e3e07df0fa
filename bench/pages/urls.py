"""The site's addresses plus ``/bench/bare/``: the cheapest page Django serves through
the same middleware, the yardstick of `manage.py bench_pages`."""

from django.http import HttpResponse
from django.urls import path

from .urls import *  # noqa: F403
from .urls import urlpatterns as site_urlpatterns


def bare(request):
    return HttpResponse("bare", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *site_urlpatterns]
