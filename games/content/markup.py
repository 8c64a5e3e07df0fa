"""The small markup of the content files, as HTML.

Paragraphs are separated by blank lines, list items start with "- ",
``**word**`` is bold. Runs of digits are wrapped in ``<bdi>`` so numbers
and card ranks keep their order inside right-to-left text.
"""

import re

from django.utils.html import escape

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_NUMBER = re.compile(r"(?<![\w&#])(\d+(?:[.,]\d+)?)")


def inline(text: str) -> str:
    """One line of markup, escaped: bold words and numbers isolated, no paragraph."""
    html = escape(text)
    html = _NUMBER.sub(r"<bdi>\1</bdi>", html)
    return _BOLD.sub(r"<strong>\1</strong>", html)


def render_markup(text: str) -> str:
    """Turn content markup into HTML.

    >>> print(render_markup("A **tie** after 150 ms.\\n\\n- one\\n- <b>"))
    <p>A <strong>tie</strong> after <bdi>150</bdi> ms.</p>
    <ul><li>one</li><li>&lt;b&gt;</li></ul>
    """
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if lines and all(line.startswith("- ") for line in lines):
            items = "".join(f"<li>{inline(line[2:])}</li>" for line in lines)
            blocks.append(f"<ul>{items}</ul>")
        elif lines:
            blocks.append(f"<p>{inline(' '.join(lines))}</p>")
    return "\n".join(blocks)
