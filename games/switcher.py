"""The language switcher: every button leads to the same page in its language.

Django's ``set_language`` translates the ``next`` address while the
*request's* language is active (cookie or browser), so a reader who arrives
at ``/ta/rules/`` with no cookie and an English browser cannot leave Tamil:
``/ta/rules/`` does not resolve under English and comes back unchanged. Here
the address is resolved in the language it is written in, then reversed in
the chosen one; its query string (``?step=3``) is kept.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponseBadRequest, HttpResponseRedirect
from django.urls import reverse, translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language_from_path, gettext, override
from django.views.decorators.http import require_POST


def page_in_language(url: str, lang: str) -> str:
    """The same page as ``url`` (a local path with an optional query) in ``lang``.

    An address that names no page of the site leads to the home page in ``lang``.
    """
    from_lang = get_language_from_path(urlsplit(url).path)
    if from_lang:
        with override(from_lang):
            target = translate_url(url, lang)
        if target != url or from_lang == lang:
            return target
    with override(lang):
        return reverse("home")


@require_POST
def set_language(request):
    """Switch to ``language`` (POST), remember it in the cookie, and go to ``next`` in it."""
    lang = request.POST.get("language", "")
    if lang not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(gettext("There is no such language on this site."))
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(page_in_language(next_url, lang))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        lang,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
