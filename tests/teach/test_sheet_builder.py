"""Lesson sheets in the browser: a teacher fills in the builder on the Teach page, gets
the sheet, and prints it from Chromium (paper size, page numbers, no menus); axe finds
nothing serious on the builder or on a Hebrew and Tamil sheet."""

import io
import re

import pypdf
import pytest
from django.utils import translation
from django.utils.translation import gettext

from tests.browsers import loaded
from tests.screens import serious_violations

pytestmark = pytest.mark.browser


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
    loaded(page)  # its columns are placed by its styles
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


def test_an_english_teacher_making_a_hebrew_and_tamil_sheet_reads_its_page_in_english(
    site_url, page
):
    page.goto(f"{site_url}/en/teach/")
    builder = page.locator("#sheet-builder")
    builder.locator("select[name=lang]").select_option("he")
    builder.locator("select[name=also]").select_option("ta")
    builder.locator("button[type=submit]").click()
    page.wait_for_selector(".sheet-paper")
    loaded(page)  # its columns are placed by its styles
    assert "/en/teach/sheet/?lang=he&also=ta&" in page.url
    assert page.locator("html").get_attribute("lang") == "en"
    tools = page.locator(".sheet-tools")
    assert (
        tools.get_by_role("link", name="Download the PDF")
        .get_attribute("href")
        .startswith("/en/teach/sheet.pdf?lang=he&also=ta&")
    )
    tools.get_by_role("link", name="Change this sheet").wait_for()
    assert not re.search("[\u0590-\u05ff\u0b80-\u0bff]", tools.inner_text())
    # the sheet itself: Hebrew on the right, Tamil on the left, as before
    assert page.locator(".sheet-head .cell[lang=he][dir=rtl]").count() == 1
    he = page.locator(".sheet-head .cell[lang=he]").bounding_box()
    ta = page.locator(".sheet-head .cell[lang=ta]").bounding_box()
    assert he["x"] > ta["x"]
    assert serious_violations(page) == []
    tools.get_by_role("link", name="Change this sheet").click()
    page.wait_for_url("**/en/teach/#sheet-builder")
