"""The site's addresses plus ``/bench/bare/``: the cheapest answer Django gives through
the same middleware, the yardstick of ``bench.pages``."""

from django.http import HttpResponse
from django.urls import path

from snapsite.urls import *  # noqa: F403
from snapsite.urls import urlpatterns as site_urlpatterns


def bare(request):
    return HttpResponse("bare", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *site_urlpatterns]
