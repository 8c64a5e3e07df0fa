"""Lesson sheets: the builder on the Teach page, /<lang>/teach/sheet/ in one language
and in pairs side by side, and the 400 for an address a sheet cannot be made from."""

from __future__ import annotations

import re

import cssselect2
import pytest
import tinyhtml5

from games.frames.walkthroughs import names_for
from games.models import GlossaryEntry, RulesSection, StartStep
from games.teach.sheets import query as sheets
from tests.conftest import LANGUAGE_CODES

PAIRS = [("he", "ta"), ("en", "mr"), ("hr", "ms"), ("ta", "he")]
PARTS = "start,rules,glossary,walkthrough:tie"


def page(html: str) -> cssselect2.ElementWrapper:
    return cssselect2.ElementWrapper.from_html_root(tinyhtml5.parse(html))


def find(element: cssselect2.ElementWrapper, selector: str) -> list[cssselect2.ElementWrapper]:
    return list(element.query_all(selector))


def text(element: cssselect2.ElementWrapper) -> str:
    return re.sub(r"\s+", " ", "".join(element.etree_element.itertext())).strip()


def cells(row: cssselect2.ElementWrapper) -> list[cssselect2.ElementWrapper]:
    return [c for c in row.iter_children() if "cell" in c.classes or c.local_name == "td"]


def langs_dirs(row) -> list[tuple[str, str]]:
    return [(c.etree_element.get("lang"), c.etree_element.get("dir")) for c in cells(row)]


def direction(lang: str) -> str:
    return "rtl" if lang == "he" else "ltr"


def get_sheet(client, lang: str, query: str):
    response = client.get(f"/{lang}/teach/sheet/?{query}")
    assert response.status_code == 200, response.content.decode()[:2000]
    return response, page(response.content.decode())


# -- the builder ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_teach_page_has_a_sheet_builder_form_that_needs_no_script(client, content, lang):
    html = client.get(f"/{lang}/teach/").content.decode()
    doc = page(html)
    form = doc.query(".sheet-builder form")
    assert form is not None
    assert form.etree_element.get("method") == "get"
    assert form.etree_element.get("action") == f"/{lang}/teach/sheet/"
    values = {e.etree_element.get("value") for e in find(form, 'input[name="parts"]')}
    assert {"start", "rules", "glossary", "walkthrough:tie"} <= values
    assert {f"rules:{s.slug}" for s in RulesSection.objects.all()} <= values
    assert ("quiz" in values) == sheets.quiz_available()
    others = {e.etree_element.get("value") for e in find(form, 'select[name="also"] option')}
    assert others == {""} | set(LANGUAGE_CODES)
    firsts = find(form, 'select[name="lang"] option')
    assert {e.etree_element.get("value") for e in firsts} == set(LANGUAGE_CODES)
    chosen = [
        e.etree_element.get("value") for e in firsts if e.etree_element.get("selected") is not None
    ]
    assert chosen == [lang]  # the page's language unless the teacher chooses another


def test_an_english_page_makes_a_hebrew_and_tamil_sheet_on_a_page_in_english(client, content):
    response = client.get("/en/teach/sheet/?lang=he&also=ta&parts=start&paper=a4")
    assert response.status_code == 200
    doc = page(response.content.decode())
    assert doc.etree_element.get("lang") == "en"  # the page: the teacher's language
    tools = text(find(doc, ".sheet-tools")[0])
    assert "Download the PDF" in tools and not re.search("[\u05d0-\u05ea]", tools)
    pdf = find(doc, ".sheet-tools a[download]")[0].etree_element.get("href")
    assert pdf == "/en/teach/sheet.pdf?lang=he&also=ta&parts=start"
    assert find(doc, ".sheet-tools a:not([download])")[0].etree_element.get("href") == (
        "/en/teach/#sheet-builder"
    )
    paper = find(doc, ".sheet-paper")[0].etree_element
    assert (paper.get("lang"), paper.get("dir")) == ("he", "rtl")  # the sheet: he + ta
    assert [c.etree_element.get("lang") for c in find(doc, ".sheet-head .cell")] == ["he", "ta"]
    html = response.content.decode()
    assert re.search("[\u05d0-\u05ea]", html) and re.search("[\u0b80-\u0bff]", html)


def test_a_sheet_address_naming_the_pages_own_language_drops_it(client, content):
    response = client.get("/he/teach/sheet/?lang=he&also=ta&parts=start")
    assert response.status_code == 302
    assert response["Location"] == "/he/teach/sheet/?also=ta&parts=start"


def test_a_first_language_a_sheet_cannot_have_is_a_clear_error(client, content):
    response = client.get("/en/teach/sheet/?lang=xx&also=ta&parts=start")
    assert response.status_code == 400
    assert "xx" in response.content.decode() and "is not a language a sheet can have" in (
        response.content.decode()
    )
    same = client.get("/en/teach/sheet/?lang=ta&also=ta&parts=start")
    assert same.status_code == 400  # both the same: the second-language check says so


def test_a_first_language_a_sheet_cannot_have_names_the_languages_not_their_codes(client, content):
    response = client.get("/he/teach/sheet/?lang=xx")
    assert response.status_code == 400
    text = response.content.decode()
    for name, own in [("אנגלית", "English"), ("טמילית", "தமிழ்"), ("מראטהית", "मराठी")]:
        assert f"{name} (\u2068{own}\u2069)" in text
    assert "עברית" in text
    assert not re.search(r"\ben, ms, mr\b", text)
    english = client.get("/en/teach/sheet/?lang=xx").content.decode()
    assert "Croatian (\u2068Hrvatski\u2069)" in english and "English (" not in english


def test_the_builders_check_boxes_lead_to_the_short_address(client, content):
    response = client.get(
        "/en/teach/sheet/?also=he&parts=start&parts=glossary&parts=walkthrough:tie&paper=a4"
    )
    assert response.status_code == 302
    assert response["Location"] == "/en/teach/sheet/?also=he&parts=start,glossary,walkthrough:tie"


# -- one language -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_a_sheet_in_one_language_holds_the_chosen_parts_in_that_language(client, content, lang):
    response, doc = get_sheet(client, lang, f"parts={PARTS}")
    root = doc.etree_element
    assert (root.get("lang"), root.get("dir")) == (lang, direction(lang))
    # no site chrome: no menu, no language switcher
    assert doc.query(".site-header") is None and doc.query(".site-nav") is None
    assert [p.etree_element.get("id") for p in find(doc, "section.part")] == [
        "start",
        "rules",
        "glossary",
        "walkthrough-tie",
    ]
    for row in find(doc, ".row"):
        assert langs_dirs(row) == [(lang, direction(lang))]
    body = text(doc)
    for step in StartStep.objects.all():
        assert getattr(step, f"title_{lang}") in body
    for section in RulesSection.objects.all():
        assert getattr(section, f"title_{lang}") in body
    for entry in GlossaryEntry.objects.all():
        assert getattr(entry, f"term_{lang}") in body
    captions = " ".join(text(c) for c in find(doc, "#walkthrough-tie .caption"))
    assert names_for(lang)[2] in captions  # the learner of "tie" has the third name
    assert len(find(doc, "#walkthrough-tie .step .mini-table")) == 4


def page_style(client, doc) -> str:
    """The sheet's @page rule: its own stylesheet of the site (no inline style)."""
    links = [e.etree_element.get("href") for e in find(doc, 'head link[rel="stylesheet"]')]
    (address,) = [a for a in links if "/teach/sheet.css?" in a]
    response = client.get(address)
    assert response["Content-Type"].startswith("text/css")
    return response.content.decode()


def test_a_sheet_prints_on_the_chosen_paper_with_page_numbers_and_its_address(client, content):
    response, doc = get_sheet(client, "en", "parts=glossary&paper=letter")
    assert doc.query("head style") is None
    style = page_style(client, doc)
    assert "size: letter" in style
    assert '"Page " counter(page) " of " counter(pages)' in style
    assert '"http://testserver/en/teach/sheet/?parts=glossary&paper=letter"' in style
    _response, doc = get_sheet(client, "en", "parts=glossary")
    assert "size: A4" in page_style(client, doc)
    assert doc.query('a[href="/en/teach/sheet.pdf?parts=glossary"]') is not None


def test_a_hebrew_sheet_puts_its_page_number_on_the_left(client, content):
    _response, doc = get_sheet(client, "he", "parts=glossary")
    style = page_style(client, doc)
    assert re.search(r"@bottom-left \{ content: [^}]*counter\(page\)", style)
    assert re.search(r"@bottom-right \{ content: \"http://", style)


# -- two languages side by side ---------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_two_languages_sit_side_by_side_each_in_its_own_direction(client, content, first, second):
    _response, doc = get_sheet(client, first, f"also={second}&parts={PARTS}")
    root = doc.etree_element
    assert (root.get("lang"), root.get("dir")) == (first, direction(first))
    expected = [(first, direction(first)), (second, direction(second))]
    rows = find(doc, ".row")
    assert rows
    for row in rows:
        assert langs_dirs(row) == expected

    # rules: each section beside itself, titles then text, paragraph by paragraph
    for section in RulesSection.objects.all():
        unit = doc.query(f"#rules-{section.slug}")
        title_cells = cells(unit.query(".unit-title"))
        assert [text(c) for c in title_cells] == [
            getattr(section, f"title_{first}"),
            getattr(section, f"title_{second}"),
        ]
        assert find(unit, ".text-row")


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_the_glossary_is_a_table_with_a_column_per_language(client, content, first, second):
    _response, doc = get_sheet(client, first, f"also={second}&parts=glossary")
    table = doc.query("table.glossary-table")
    heads = [h.etree_element.get("lang") for h in find(table, "thead th")]
    assert heads == [first, second]
    rows = find(table, "tbody tr")
    entries = list(GlossaryEntry.objects.all())
    assert len(rows) == len(entries)
    for row, entry in zip(rows, entries, strict=True):
        tds = cells(row)
        assert langs_dirs(row) == [(first, direction(first)), (second, direction(second))]
        assert text(tds[0].query(".term")) == getattr(entry, f"term_{first}")
        assert text(tds[1].query(".term")) == getattr(entry, f"term_{second}")


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_both_columns_name_the_same_people(client, content, first, second):
    """Walkthrough words in the second language use the first language's cast."""
    _response, doc = get_sheet(client, first, f"also={second}&parts=walkthrough:tie")
    ours, theirs = names_for(first), names_for(second)
    steps = find(doc, "#walkthrough-tie .step")
    assert len(steps) == 4
    for step in steps:
        picture = text(step.query(".mini-table"))
        columns = cells(step.query(".step-words"))
        assert [c.etree_element.get("lang") for c in columns] == [first, second]
        for column in columns:
            words = text(column)
            assert any(name in words for name in ours[:3]), words
            assert not any(name in words for name in theirs if name not in ours), words
        assert any(name in picture for name in ours[:3])


def test_untranslated_content_says_so_in_its_own_column(client, content):
    step = StartStep.objects.first()
    step.title_ta, step.body_ta, step.source_ta = step.title_en, step.body_en, ""
    step.save()
    _response, doc = get_sheet(client, "he", "also=ta&parts=start")
    unit = doc.query(f"#start-{step.slug}")
    he_cell, ta_cell = cells(unit.query(".text-row"))
    assert ta_cell.query(".missing") is not None
    english = step.body_en.split(".")[0]
    assert english not in text(ta_cell)
    assert step.title_en not in text(cells(unit.query(".unit-title"))[1])
    assert he_cell.query(".missing") is None


def test_a_quiz_on_a_sheet_asks_the_same_questions_in_both_columns(client, content):
    if not sheets.quiz_available():
        pytest.skip("the engine's quiz (games.teach.quiz.questions.make_quiz) is not there")
    response = client.get("/en/teach/sheet/?also=he&parts=quiz")
    assert response.status_code == 302
    assert re.fullmatch(r"/en/teach/sheet/\?also=he&parts=quiz&seed=\d+", response["Location"])
    _response, doc = get_sheet(client, "en", "also=he&parts=quiz&seed=12")
    questions = find(doc, ".quiz-question")
    assert len(questions) == 8
    for question in questions:
        columns = cells(question.query(".step-words"))
        assert [c.etree_element.get("dir") for c in columns] == ["ltr", "rtl"]
        assert not any(name in text(question) for name in names_for("he"))
    answers = find(doc, ".quiz-answers .answer-row")
    assert len(answers) == 8
    again = get_sheet(client, "en", "also=he&parts=quiz&seed=12")[0].content
    assert again == _response.content


# -- addresses a sheet cannot be made from ----------------------------------------------


def form_titles(client, lang: str) -> dict[str, str]:
    """What the sheet builder on the Teach page calls each choice (value -> label)."""
    form = page(client.get(f"/{lang}/teach/").content.decode())
    titles = {}
    for label in find(form, ".sheet-form label"):
        control = label.query("input") or label.query("option")
        if control is not None:
            titles[control.etree_element.get("value")] = text(label)
    for option in find(form, "#sheet-also option"):
        titles[option.etree_element.get("value")] = text(option)
    return titles


def isolated(*values: str) -> str:
    return "; ".join(f"\u2068{v}\u2069" for v in values)


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("also=xx&parts=start", ["en", "ms", "mr", "he", "ta"]),
        ("parts=start,recipes", ["start", "rules", "rules:introduction", "walkthrough:tie"]),
        ("parts=walkthrough:no-such-walkthrough", ["walkthrough:snap-pot", "quiz"]),
        ("parts=rules:no-such-section", ["rules:stuck-pot", "glossary"]),
        ("parts=", ["start", "glossary", "walkthrough:first-turns"]),
        ("also=he", ["rules:players", "rules:deck"]),
        ("parts=start&paper=a3", ["a4", "letter"]),
    ],
)
def test_a_bad_address_answers_400_naming_the_choices_as_the_form_does(
    client, content, query, codes
):
    titles = form_titles(client, "hr")
    for url in (f"/hr/teach/sheet/?{query}", f"/hr/teach/sheet.pdf?{query}"):
        response = client.get(url)
        assert response.status_code == 400
        html = response.content.decode()
        listed = " ".join(text(li) for li in find(page(html), ".sheet-problems li"))
        for code in codes:
            assert f"\u2068{titles[code]}\u2069" in listed, code
        if codes[0] == "start":  # the bad value itself is not a code of a part
            assert "walkthrough:" not in listed and "rules:" not in listed
        assert page(html).etree_element.get("lang") == "hr"
        assert page(html).query('a[href="/hr/teach/#sheet-builder"]') is not None


def test_a_second_language_equal_to_the_page_s_is_named_as_the_address_has_it(client, content):
    html = client.get("/hr/teach/sheet/?also=hr&parts=start").content.decode()
    assert "\u2068hr\u2069" in html  # the value the address holds, as typed


def test_a_bad_quiz_number_answers_400(client, content):
    if not sheets.quiz_available():
        pytest.skip("the engine's quiz (games.teach.quiz.questions.make_quiz) is not there")
    for seed in ("abc", "-1", "99999999999", "٣"):
        response = client.get(f"/en/teach/sheet/?parts=quiz&seed={seed}")
        assert response.status_code == 400, seed
