"""What a page's HTML must be for every browser to read it the same way: each start tag's
attributes are attributes HTML (or the page's SVG) has, each once, so no text has broken out
of an attribute's quotes; and the meta description is whole.

Python's own ``html.parser`` reads the page as a browser would and keeps whatever it
finds; a text that ended an attribute early shows as attributes named after its words."""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: The attributes the site's markup uses (as html.parser reports them, lower case), all
#: of them HTML's or SVG's; aria-* and data-* are checked by their form.
KNOWN_ATTRIBUTES = frozenset(
    """
    accept accept-charset action alt as async autocapitalize autocomplete autocorrect autofocus
    charset checked class cols colspan content crossorigin cx cy d datetime decoding defer dir
    disabled download enctype enterkeyhint fill focusable for form height hidden href hreflang
    http-equiv id inert inputmode integrity lang list loading max maxlength media method min
    minlength multiple name nonce novalidate open pattern placeholder points r readonly
    referrerpolicy rel required reversed role rows rowspan rx ry scope selected size sizes span
    spellcheck src srcset start step stroke stroke-width style tabindex target title transform
    translate type value viewbox width wrap x x1 x2 xmlns y y1 y2 popover label
    """.split()
)
PATTERNED = re.compile(r"(aria|data)-[a-z][a-z0-9-]*")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.descriptions: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        names = [name for name, _ in attrs]
        for name in names:
            if name not in KNOWN_ATTRIBUTES and not PATTERNED.fullmatch(name):
                self.problems.append(f"<{tag}> has an unknown attribute {name!r}: {attrs}")
        for name in {n for n in names if names.count(n) > 1}:
            self.problems.append(f"<{tag}> has {name!r} twice: {attrs}")
        values = dict(attrs)
        if tag == "meta" and values.get("name") == "description":
            self.descriptions.append(values.get("content"))

    handle_startendtag = handle_starttag


def attribute_problems(html: str) -> list[str]:
    """Each start tag whose attributes are not what HTML has, said in words."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.problems


def meta_descriptions(html: str) -> list[str | None]:
    """The content of each ``<meta name="description">``, as a browser reads it."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.descriptions
