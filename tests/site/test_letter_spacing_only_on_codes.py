"""Letter-spacing is for table codes (Latin capitals and digits) only: spaced out, the
words of Hebrew, Tamil or Marathi fall apart. The style rules that space letters style
the code classes, so every element of a template styled as a code holds the code and
nothing else (never a translated word such as "Table")."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_ELEMENT = re.compile(
    r"<(\w+)[^>]*\bclass=\"[^\"]*\b(?:table-code|big-code)\b[^\"]*\"[^>]*>(.*?)</\1>", re.S
)


def templates() -> list[Path]:
    return sorted([*ROOT.glob("templates/**/*.html"), *ROOT.glob("games/**/templates/**/*.html")])


def test_an_element_styled_as_a_code_in_a_template_holds_only_the_code():
    found = [
        (path.relative_to(ROOT), inner)
        for path in templates()
        for _tag, inner in CODE_ELEMENT.findall(path.read_text())
    ]
    assert len(found) >= 10
    assert [f for f in found if not re.fullmatch(r"\{\{\s*[\w.]+\s*\}\}", f[1].strip())] == []
