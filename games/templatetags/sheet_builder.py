"""The choices of the lesson sheet builder on the Teach page (sheet_builder.html).

A tag rather than view context: the Teach page's view and template are shared with
other parts of the page, and the builder brings its own data.
"""

from django import template
from django.conf import settings
from django.utils.translation import get_language

from games.context_processors import NATIVE_NAMES
from games.frames import walkthroughs
from games.models import RulesSection
from games.teach.sheets import query as sheets

register = template.Library()


@register.simple_tag
def sheet_builder_choices() -> dict:
    lang = get_language()
    return {
        "languages": [
            {
                "code": code,
                "name": NATIVE_NAMES[code],
                "dir": "rtl" if code in settings.LANGUAGES_BIDI else "ltr",
            }
            for code in sheets.language_codes()
        ],
        "lang": lang,
        "sections": list(RulesSection.objects.all()),
        "walkthroughs": walkthroughs.summaries(),
        "quiz": sheets.quiz_available(),
        "papers": sheets.PAPERS,
    }
