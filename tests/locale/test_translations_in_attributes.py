"""A translation that lands in an HTML attribute is escaped there, whatever it holds.

Two checks: no template prints ``{% translate %}`` or ``{% blocktranslate %}`` (or a text
they stored, unescaped) inside an attribute, read from the templates; and with a quote
and a would-be attribute added to every catalog text, every page still has only its own
attributes."""

from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import trans_real

from games.play import views as play_views
from games.words import texts
from tests.locale.attribute_translations import project_templates, unescaped_places
from tests.site.html_check import attribute_problems
from tests.site.site_pages import every_page

#: Added to every catalog text: it ends a double- or single-quoted attribute and opens
#: one named ``broken-out`` wherever a translation is printed unescaped.
BREAKOUT = " \"' broken-out='1' x=\""


def test_no_template_prints_a_translation_unescaped_in_an_attribute():
    assert unescaped_places(project_templates(Path(settings.BASE_DIR))) == []


@pytest.mark.parametrize(
    "template",
    [
        '<nav aria-label="{% translate "Main menu" %}">',
        "<nav aria-label='{% trans \"Main menu\" %}'>",
        '<img alt={% translate "Cards" %}>',
        '<b title="{% blocktranslate count n=k %}{{ n }} card{% plural %}{{ n }} cards'
        '{% endblocktranslate %}">',
        '<b title="{% translate "Cards" as t %}{{ t }}">',
        '<p\n  class="x"\n  aria-label="{% if a %}{% translate "A" %}{% endif %}">',
    ],
)
def test_the_scan_finds_a_translation_printed_raw_in_an_attribute(template):
    (place,) = unescaped_places({"page.html": "{% load i18n %}" + template})
    assert place.template == "page.html"


def test_the_scan_follows_a_block_that_the_base_page_opens_in_an_attribute():
    sources = {
        "base.html": '<meta name="description" content="{% block description %}{% endblock %}">',
        "child.html": '{% block description %}{% translate "About" %}{% endblock %}'
        '{% block body %}<p>{% translate "Hello" %}</p>{% endblock %}',
    }
    assert [(p.template, p.tag) for p in unescaped_places(sources)] == [
        ("child.html", '{% translate "About" %}')
    ]


@pytest.mark.parametrize(
    "template",
    [
        '<p>{% translate "Text" %}</p>',
        '<b title="{% translate "Cards" as t %}{{ t|force_escape }}">{% translate "x" %}</b>',
        '<script>const a = "{% translate "x" %}";</script>',
        "<!-- <b title=\"{% translate 'x' %}\"> -->",
    ],
)
def test_the_scan_leaves_translations_in_text_and_escaped_ones_alone(template):
    assert unescaped_places({"page.html": template}) == []


def forget_made_texts() -> None:
    """Empty the texts the site keeps once made per language (card names, blank forms),
    so none made with the added quote outlives the test, nor one made before it hides
    from it."""
    texts._card_names.clear()
    play_views._blank_forms.clear()


@pytest.fixture
def breakout_in_every_translation(monkeypatch):
    forget_made_texts()
    gettext, ngettext = trans_real.DjangoTranslation.gettext, trans_real.DjangoTranslation.ngettext
    monkeypatch.setattr(
        trans_real.DjangoTranslation, "gettext", lambda self, msg: gettext(self, msg) + BREAKOUT
    )
    monkeypatch.setattr(
        trans_real.DjangoTranslation,
        "ngettext",
        lambda self, one, many, n: ngettext(self, one, many, n) + BREAKOUT,
    )
    yield
    monkeypatch.undo()
    forget_made_texts()


@pytest.mark.parametrize("lang", ["he", "ta"])
def test_a_quote_in_any_translation_stays_inside_its_attribute(
    client, content, breakout_in_every_translation, lang
):
    for url, status in every_page(client, lang):
        response = client.get(url, follow=True)
        assert response.status_code == status, url
        html = response.content.decode()
        assert "broken-out" in html, url  # the translations did carry it
        assert attribute_problems(html) == [], url
