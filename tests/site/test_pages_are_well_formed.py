"""Every page, in every language, is HTML a browser reads as it was meant: no translation
ends an attribute early (the Hebrew and Marathi start pages' descriptions once did, at the
ASCII quote of a quoted "Snap!"), and the meta description is the whole sentence."""

import pytest
from django.utils import translation

from tests.conftest import LANGUAGE_CODES
from tests.site.html_check import attribute_problems, meta_descriptions
from tests.site.site_pages import every_page

SITE_DESCRIPTION = "Learn and play Snap, the children's card game."
START_DESCRIPTION = (
    "Snap in six short steps for children: deal, take turns, call “Snap!”, win the piles, "
    "mistakes and how you win."
)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_page_has_only_real_attributes_and_one_whole_description(client, content, lang):
    for url, status in every_page(client, lang):
        response = client.get(url, follow=True)
        assert response.status_code == status, url
        html = response.content.decode()
        assert attribute_problems(html) == [], url
        descriptions = meta_descriptions(html)  # a lesson sheet's says how to print it
        assert len(descriptions) == 1, url
        assert all(d and d.strip() == d for d in descriptions), (url, descriptions)


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
@pytest.mark.parametrize(
    ("url", "msgid"), [("/{lang}/", SITE_DESCRIPTION), ("/{lang}/start/", START_DESCRIPTION)]
)
def test_the_meta_description_is_the_whole_translation(client, content, lang, url, msgid):
    html = client.get(url.format(lang=lang)).content.decode()
    with translation.override(lang):
        expected = translation.gettext(msgid)
    assert meta_descriptions(html) == [expected]
