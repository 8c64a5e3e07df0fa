"""Lesson sheets as PDF (/<lang>/teach/sheet.pdf): made by WeasyPrint from the sheet's
HTML with the site's own fonts, in every language and in pairs.

Each test saves page 1 as a picture under test-output/sheets/ to look at (shaping of
Tamil and Devanagari, Hebrew beside a left-to-right language, nothing running over).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf
import pypdfium2
import pytest

from games.models import GlossaryEntry
from games.teach.sheets import pdf as sheets_pdf
from tests.conftest import LANGUAGE_CODES

OUT = Path(__file__).resolve().parents[2] / "test-output" / "sheets"
POINTS = {"a4": (595, 842), "letter": (612, 792)}
# Each language's font file and the name it is embedded under (sheet.css's @font-face
# family: proof that the shipped file, not a system copy, was used).
FONTS = {
    "en": ("NotoSans-Regular.ttf", "Snap-Sans"),
    "ms": ("NotoSans-Regular.ttf", "Snap-Sans"),
    "hr": ("NotoSans-Regular.ttf", "Snap-Sans"),
    "mr": ("NotoSansDevanagari-Regular.ttf", "Snap-Devanagari"),
    "he": ("NotoSansHebrew-Regular.ttf", "Snap-Hebrew"),
    "ta": ("NotoSansTamil-Regular.ttf", "Snap-Tamil"),
}


@pytest.fixture
def fetched(monkeypatch):
    """Every address WeasyPrint asked the sheet's fetcher for."""
    urls: list[str] = []
    original = sheets_pdf.static_file

    def recording(url):
        urls.append(url)
        return original(url)

    monkeypatch.setattr(sheets_pdf, "static_file", recording)
    return urls


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2068", "").replace("\u2069", ""))


def words_for_snap(lang: str) -> list[str]:
    """The language's own words for Snap and the Snap Pot, from its glossary."""
    return [
        getattr(GlossaryEntry.objects.get(slug=s), f"term_{lang}") for s in ("snap", "snap-pot")
    ]


def get_pdf(client, url: str, name: str, paper: str = "a4") -> pypdf.PdfReader:
    response = client.get(url)
    assert response.status_code == 200, response.content[:2000]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    data = response.content
    reader = pypdf.PdfReader(io.BytesIO(data))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == POINTS[paper]
    save_first_page(data, name, paper)
    return reader


def save_first_page(data: bytes, name: str, paper: str) -> None:
    """Page 1 as a PNG for review; it must show text on white, in the paper's shape."""
    OUT.mkdir(parents=True, exist_ok=True)
    document = pypdfium2.PdfDocument(data)
    image = document[0].render(scale=1.5).to_pil().convert("L")
    image.save(OUT / f"{name}.png")
    width, height = image.size
    assert abs(width / height - POINTS[paper][0] / POINTS[paper][1]) < 0.01
    dark = sum(1 for value in image.get_flattened_data() if value < 128)
    assert dark > width * height * 0.01, "page 1 is (nearly) blank"


def text_of(reader: pypdf.PdfReader) -> str:
    return flat(" ".join(page.extract_text() for page in reader.pages))


def font_names(reader: pypdf.PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for font in fonts.values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_a_sheet_pdf_in_each_language_says_snap_and_snap_pot(client, content, fetched, lang):
    reader = get_pdf(client, f"/{lang}/teach/sheet.pdf?parts=start,glossary", lang)
    text = text_of(reader)
    for word in words_for_snap(lang):
        assert flat(word) in text, (lang, word)
    # the shipped fonts, read from the site's static files, and nothing else
    assert fetched
    assert all(re.match(r"http://testserver/static/games/", url) for url in fetched), fetched
    font_file, embedded = FONTS[lang]
    assert any(url.endswith("/fonts/" + font_file) for url in fetched)
    assert embedded in font_names(reader)


@pytest.mark.parametrize(("first", "second", "paper"), [("he", "ta", "a4"), ("en", "mr", "letter")])
def test_a_two_language_pdf_holds_both_languages(client, content, first, second, paper):
    url = f"/{first}/teach/sheet.pdf?also={second}&parts=glossary,walkthrough:tie&paper={paper}"
    reader = get_pdf(client, url, f"{first}-{second}-{paper}", paper)
    text = text_of(reader)
    for lang in (first, second):
        for word in words_for_snap(lang):
            assert flat(word) in text, (lang, word)
    for lang in (first, second):
        assert FONTS[lang][1] in font_names(reader)


def test_the_pdf_fetcher_serves_static_files_only(settings):
    assert sheets_pdf.static_file("http://testserver/static/games/css/sheet.css").is_file()
    assert sheets_pdf.static_file("http://testserver/static/../../snapsite/settings.py") is None
    assert sheets_pdf.static_file("http://testserver/en/rules/") is None
    with pytest.raises(ValueError):
        sheets_pdf.StaticFilesFetcher().fetch("http://example.com/style.css")
    with pytest.raises(ValueError):
        sheets_pdf.StaticFilesFetcher().fetch("file:///etc/passwd")


def to_unicode_values(reader: pypdf.PdfReader, family: str) -> list[str]:
    """The text each glyph of ``family``'s embedded font stands for (its ToUnicode map)."""
    values = []
    for page in reader.pages:
        for font in page["/Resources"].get_object().get("/Font", {}).values():
            font = font.get_object()
            if str(font["/BaseFont"]).split("+")[-1] != family:
                continue
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            for hex_text in re.findall(r"<[0-9a-f]{4}> <([0-9a-f]*)>", cmap):
                values.append(bytes.fromhex(hex_text).decode("utf-16-be"))
    return values


@pytest.mark.parametrize(("lang", "virama"), [("ta", "\u0bcd"), ("mr", "\u094d")])
def test_tamil_and_marathi_are_shaped_into_conjuncts(client, content, lang, virama):
    """HarfBuzz turns a consonant with its virama (and the next consonant) into one
    glyph: the font holds glyphs that stand for several characters with a virama."""
    response = client.get(f"/{lang}/teach/sheet.pdf?parts=start")
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    values = to_unicode_values(reader, FONTS[lang][1])
    assert values
    conjuncts = [v for v in values if len(v) >= 2 and virama in v]
    assert conjuncts, values


def test_hebrew_is_laid_out_right_to_left(client, content):
    """The first letter of the Hebrew word for Snap is drawn rightmost."""
    response = client.get("/en/teach/sheet.pdf?also=he&parts=glossary")
    word = GlossaryEntry.objects.get(slug="snap").term_he
    textpage = pypdfium2.PdfDocument(response.content)[0].get_textpage()
    text = textpage.get_text_range()  # pdfium gives the letters in reading order
    start = text.find(word)
    assert start >= 0, text[:400]
    lefts = [textpage.get_charbox(start + i)[0] for i in range(len(word))]
    assert lefts == sorted(lefts, reverse=True), lefts  # each letter left of the one before
    english = GlossaryEntry.objects.get(slug="snap").term_en
    start = text.find(english)
    lefts = [textpage.get_charbox(start + i)[0] for i in range(len(english))]
    assert lefts == sorted(lefts), lefts


#: Text sizes in the PDF's text units (CSS px, 0.75 pt): sheet.css sets headings at
#: 11pt (h3) and more, body text at 10.6pt at most (Marathi), the page's foot at 8.5pt.
HEADING_PX = 11 * 4 / 3 - 0.1
FOOT_PX = 8.5 * 4 / 3 + 0.1


def lowest_line_sizes(data: bytes) -> list[list[float]]:
    """For each page of the PDF, the text sizes of its lowest line of text above the
    page's foot (the page number and address)."""
    document = pypdfium2.PdfDocument(data)
    pages = []
    for page in document:
        text = page.get_textpage()
        chars = []
        for i in range(text.count_chars()):
            size = pypdfium2.raw.FPDFText_GetFontSize(text.raw, i)
            _left, bottom, _right, top = text.get_charbox(i)
            if top > bottom and size > FOOT_PX:
                chars.append((bottom, size))
        lowest = min(bottom for bottom, _size in chars)
        pages.append(sorted({round(s, 1) for b, s in chars if b <= lowest + 2}))
        text.close()
        page.close()
    document.close()
    return pages


@pytest.mark.parametrize(("first", "second", "paper"), [("he", "ta", "a4"), ("en", "mr", "letter")])
def test_no_page_of_a_long_two_language_pdf_ends_with_a_heading(
    client, content, first, second, paper
):
    """The trial's 13-page Hebrew + Tamil sheet left the heading "איך משחקים" alone at
    the foot of page 3: a heading always has the start of its text under it."""
    url = f"/{first}/teach/sheet.pdf?also={second}&parts=start,rules,glossary&paper={paper}"
    response = client.get(url)
    assert response.status_code == 200
    pages = lowest_line_sizes(response.content)
    assert len(pages) >= 8  # a long sheet
    ending_with_a_heading = [n for n, sizes in enumerate(pages, 1) if min(sizes) >= HEADING_PX]
    assert not ending_with_a_heading, (ending_with_a_heading, pages)


def test_the_last_step_of_a_walkthrough_is_never_alone_on_a_page(client, content):
    """The trial's Hebrew + Tamil sheet ended its walkthrough with step 5 of 5 alone on
    a page: the step before it goes along."""
    parts = "start,rules,glossary,walkthrough:wrong-call,quiz"
    response = client.get(f"/he/teach/sheet.pdf?also=ta&parts={parts}&paper=a4&seed=3")
    assert response.status_code == 200
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    steps = [len(re.findall(r"படி \d+ / \d+", page.extract_text())) for page in reader.pages]
    assert sum(steps) == 5, steps  # each step once, told in Tamil "படி N / 5"
    alone = [n for n, count in enumerate(steps, 1) if count == 1 and steps[n - 2]]
    assert not alone, steps
