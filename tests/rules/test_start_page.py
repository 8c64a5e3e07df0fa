"""“Play in two minutes” prints on one A4 page."""

import re

import pytest

pytestmark = pytest.mark.browser


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def print_to_a4(page) -> bytes:
    page.evaluate("document.fonts.ready")
    return page.pdf(format="A4", print_background=True)


@pytest.mark.parametrize("lang", ["en", "he", "ta"])
def test_the_start_page_prints_on_one_a4_page(site_url, page, screenshot, lang):
    page.goto(f"{site_url}/{lang}/start/")
    if lang == "en":
        assert page.locator('[data-action="print"]').is_visible()
    assert pdf_pages(print_to_a4(page)) == 1
    screenshot(page, f"start-{lang}")
    page.emulate_media(media="print")
    screenshot(page, f"start-{lang}-print")


def rules_text(page, site_url: str, lang: str) -> str:
    page.goto(f"{site_url}/{lang}/rules/")
    return " ".join(page.locator(".rules-section p, .rules-section li").all_inner_texts())


@pytest.mark.parametrize(("lang", "direction"), [("en", "ltr"), ("he", "rtl"), ("ta", "ltr")])
def test_a_translation_half_again_as_long_still_fits_one_page(
    site_url, page, screenshot, lang, direction
):
    """Stand-in text in the language's own script, 1.5 times the English length per step."""
    source = rules_text(page, site_url, lang)
    page.goto(f"{site_url}/en/start/")
    page.evaluate(
        """([lang, dir, source]) => {
          document.documentElement.lang = lang;
          document.documentElement.dir = dir;
          let at = 0;
          const take = (n) => { const s = source.slice(at, at + n); at += n; return s; };
          for (const step of document.querySelectorAll(".start-step")) {
            const title = step.querySelector("h2");
            title.textContent = take(Math.ceil(title.textContent.length * 1.5));
            for (const p of step.querySelectorAll("p")) {
              p.textContent = take(Math.ceil(p.textContent.length * 1.5));
            }
          }
        }""",
        [lang, direction, source],
    )
    assert pdf_pages(print_to_a4(page)) == 1
    page.emulate_media(media="print")
    screenshot(page, f"start-{lang}-long-print")
