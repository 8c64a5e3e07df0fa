import pytest

from tests.conftest import LANGUAGE_CODES

pytestmark = pytest.mark.browser


def switch_language(page, code: str) -> None:
    with page.expect_navigation():
        page.click(f'.language-switcher button[value="{code}"]')


@pytest.mark.parametrize(("code", "direction"), [("he", "rtl"), ("ta", "ltr")])
def test_switching_from_english_rules_keeps_the_rules_page(
    site_url, page, screenshot, code, direction
):
    page.goto(f"{site_url}/en/rules/")
    screenshot(page, "rules-en")
    switch_language(page, code)
    assert page.url == f"{site_url}/{code}/rules/"
    assert page.get_attribute("html", "lang") == code
    assert page.get_attribute("html", "dir") == direction
    assert page.locator(".rules-section").count() == 12
    screenshot(page, f"rules-{code}")
    # The choice sticks: the bare address now opens this language.
    page.goto(f"{site_url}/")
    assert page.url == f"{site_url}/{code}/"


@pytest.mark.parametrize("entry", ["/ta/rules/", "/he/learn/tie/", "/hr/glossary/"])
def test_a_reader_arriving_by_any_link_can_switch_to_every_other_language(
    site_url, chromium, screenshot, entry
):
    entry_lang = entry.split("/")[1]
    for code in LANGUAGE_CODES:
        if code == entry_lang:
            continue
        # An empty profile each time: no cookie, an English browser.
        context = chromium.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{site_url}{entry}")
        assert page.get_attribute("html", "lang") == entry_lang
        switch_language(page, code)
        assert page.url == f"{site_url}{entry.replace(f'/{entry_lang}/', f'/{code}/', 1)}"
        assert page.get_attribute("html", "lang") == code
        if code == "en":
            screenshot(page, f"switched-{entry_lang}-to-en")
        # The choice is kept: the bare address opens the chosen language.
        page.goto(f"{site_url}/")
        assert page.url == f"{site_url}/{code}/"
        context.close()


def test_the_switcher_works_without_javascript_and_keeps_the_query(site_url, chromium):
    context = chromium.new_context(java_script_enabled=False, locale="ta-IN")
    page = context.new_page()
    page.goto(f"{site_url}/he/learn/tie/?step=3")
    switch_language(page, "hr")
    assert page.url == f"{site_url}/hr/learn/tie/?step=3"
    page.goto(f"{site_url}/")
    assert page.url == f"{site_url}/hr/"
    context.close()


def test_a_walkthrough_step_reached_with_javascript_is_kept_across_languages(site_url, chromium):
    context = chromium.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{site_url}/he/learn/tie/")
    page.click('[data-step="next"]')
    assert page.input_value('.language-switcher [name="next"]') == "/he/learn/tie/?step=2"
    switch_language(page, "ta")
    assert page.url == f"{site_url}/ta/learn/tie/?step=2"
    context.close()


def test_hebrew_layout_is_mirrored(site_url, page, screenshot):
    def brand_and_switcher_x(lang):
        page.goto(f"{site_url}/{lang}/")
        brand = page.locator(".brand").bounding_box()
        switcher = page.locator(".language-switcher").bounding_box()
        return brand["x"], switcher["x"]

    brand_en, switcher_en = brand_and_switcher_x("en")
    assert brand_en < switcher_en  # brand on the left in English
    brand_he, switcher_he = brand_and_switcher_x("he")
    screenshot(page, "home-he")
    assert brand_he > switcher_he  # and on the right in Hebrew
    assert brand_he > 640


def test_scripts_render_with_the_shipped_fonts(site_url, page, screenshot):
    for lang in ("ta", "mr", "he"):
        page.goto(f"{site_url}/{lang}/rules/")
        page.evaluate("document.fonts.ready")
        loaded = page.evaluate(
            "() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
        )
        expected = {"ta": "Snap Tamil", "mr": "Snap Devanagari", "he": "Snap Hebrew"}[lang]
        assert any(expected in family for family in loaded), loaded
    screenshot(page, "rules-he-fonts")


def test_rules_page_is_readable_on_a_small_phone(site_url, chromium, screenshot):
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    for lang in ("en", "ta"):
        page.goto(f"{site_url}/{lang}/rules/")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        screenshot(page, f"rules-{lang}-phone")
    context.close()
