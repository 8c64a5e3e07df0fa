"""Lesson sheets in the browser: a teacher fills in the builder on the Teach page, gets
the sheet, and prints it from Chromium (paper size, page numbers, no menus); axe finds
nothing serious on the builder or on a Hebrew and Tamil sheet."""

import io

import pypdf
import pytest
from django.utils import translation
from django.utils.translation import gettext

pytestmark = pytest.mark.browser


def serious_violations(page) -> list:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_a_teacher_builds_a_hebrew_and_tamil_sheet_and_prints_it(site_url, page):
    page.goto(f"{site_url}/he/teach/")
    assert serious_violations(page) == []
    builder = page.locator("#sheet-builder")
    builder.locator("select[name=also]").select_option("ta")
    builder.locator("input[value='glossary']").uncheck()
    builder.locator("input[value='walkthrough:tie']").check()
    builder.locator("input[value='letter']").check()
    builder.locator("button[type=submit]").click()
    page.wait_for_selector(".sheet-paper")
    assert page.url.endswith("/he/teach/sheet/?also=ta&parts=start,walkthrough:tie&paper=letter")
    assert page.locator(".sheet-head .cell[lang=he][dir=rtl]").count() == 1
    assert page.locator(".sheet-head .cell[lang=ta][dir=ltr]").count() == 1
    # Hebrew, the page's language, reads from the right: its column is on the right
    he = page.locator(".sheet-head .cell[lang=he]").bounding_box()
    ta = page.locator(".sheet-head .cell[lang=ta]").bounding_box()
    assert he["x"] > ta["x"]
    assert serious_violations(page) == []
    pdf_link = page.locator(".sheet-tools a[download]").get_attribute("href")
    assert pdf_link == "/he/teach/sheet.pdf?also=ta&parts=start,walkthrough:tie&paper=letter"

    page.emulate_media(media="print")
    assert not page.locator(".sheet-tools").is_visible()
    pdf = pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    box = pdf.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # US Letter
    first = pdf.pages[0].extract_text()
    with translation.override("he"):
        number = gettext("Page %(page)s of %(pages)s") % {"page": 1, "pages": len(pdf.pages)}
    assert all(word in first for word in number.split()), (number, first[-300:])
    assert "/he/teach/sheet/?also=ta&parts=start,walkthrough:tie&paper=letter" in first
