from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from games.content.page_cache import cached_page
from games.js_catalog import CachedJavaScriptCatalog
from games.offline import views as offline_views
from games.rules import views as rules_views
from games.site_icons import favicon
from games.switcher import set_language

urlpatterns = [
    # The switcher's own view: it translates `next` from the language of its address.
    path("i18n/setlang/", set_language, name="set_language"),
    # The service worker answers for the whole site, so it is served from its root.
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("favicon.ico", favicon, name="favicon"),
]

urlpatterns += i18n_patterns(
    path("", include("games.urls")),
    # "Play in two minutes": teachers bookmark /<lang>/start/.
    path("start/", cached_page(rules_views.start), name="start"),
    path("jsi18n/", CachedJavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    prefix_default_language=True,
)
