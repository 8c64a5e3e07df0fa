from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language, get_language_bidi

from games.web_fonts import preloaded

# Each language named in its own script, whatever the page's language.
NATIVE_NAMES = {
    "en": "English",
    "ms": "Bahasa Melayu",
    "mr": "मराठी",
    "he": "עברית",
    "ta": "தமிழ்",
    "hr": "Hrvatski",
}


def languages(request):
    """The current language, its direction, this page in every language and the web
    fonts its text needs first (preloaded: games/web_fonts.py)."""
    path = request.get_full_path()
    alternates = [
        {
            "code": code,
            "name": NATIVE_NAMES[code],
            "url": translate_url(path, code),
            "bidi": code in settings.LANGUAGES_BIDI,
        }
        for code, _name in settings.LANGUAGES
    ]
    return {
        "page_language": get_language(),
        "page_dir": "rtl" if get_language_bidi() else "ltr",
        "alternates": alternates,
        "page_fonts": preloaded(get_language()),
    }
