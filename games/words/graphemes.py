"""Letters as a reader counts them: extended grapheme clusters (Unicode UAX #29).

A Tamil reader counts "மீ" or "க்" as one letter (எழுத்து), though each is two code
points; a Marathi reader counts the conjunct "क्ष" as one. Python's ``len`` counts code
points, so a name limit in code points refuses short Tamil and Marathi names. No
library for this is installed, so this module follows UAX #29 for what names in the
site's scripts (Latin, Hebrew, Devanagari, Tamil) and emoji need:

- a combining mark (Mn, Me), a spacing vowel sign (Mc), ZWNJ, ZWJ or an emoji
  modifier joins the letter before it (GB9, GB9a);
- a Devanagari, Bengali, Gujarati, Oriya, Telugu or Malayalam consonant joins the one
  before it across a virama (GB9c, conjuncts); the Tamil virama (pulli) does not link,
  as in Unicode, so "க்ஷ" is "க்" and "ஷ";
- a pictograph joins the one before it across ZWJ (GB11, emoji sequences), and two
  regional indicators make one flag (GB12, GB13).

Hangul syllable rules (GB6–GB8) and Prepend marks are left out: none of the site's
languages writes them, and without them a Hangul name counts each jamo.

>>> count("Ana"), count("மீனா"), count("क्षमा"), count("ஸ்ரீவித்யா சுப்பிரமணியன்")
(3, 2, 2, 14)
>>> count("👩\u200d👩\u200d👧"), count("🇭🇷"), count("e\u0301")
(1, 1, 1)
"""

from __future__ import annotations

import unicodedata

ZWNJ, ZWJ = "\u200c", "\u200d"

#: The viramas that link consonants into one cluster (Indic_Conjunct_Break=Linker).
LINKERS = frozenset("\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d")
#: The consonants a linker can join (Indic_Conjunct_Break=Consonant, Unicode 15.1):
#: Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam.
_CONSONANTS = (
    (0x0915, 0x0939), (0x0958, 0x095F), (0x0978, 0x097F),
    (0x0995, 0x09A8), (0x09AA, 0x09B0), (0x09B2, 0x09B2), (0x09B6, 0x09B9),
    (0x09DC, 0x09DD), (0x09DF, 0x09DF), (0x09F0, 0x09F1),
    (0x0A95, 0x0AA8), (0x0AAA, 0x0AB0), (0x0AB2, 0x0AB3), (0x0AB5, 0x0AB9), (0x0AF9, 0x0AF9),
    (0x0B15, 0x0B28), (0x0B2A, 0x0B30), (0x0B32, 0x0B33), (0x0B35, 0x0B39),
    (0x0B5C, 0x0B5D), (0x0B5F, 0x0B5F), (0x0B71, 0x0B71),
    (0x0C15, 0x0C28), (0x0C2A, 0x0C39), (0x0C58, 0x0C5A),
    (0x0D15, 0x0D3A),
)  # fmt: skip
#: Extended_Pictographic, as ranges (the emoji blocks and the older symbol blocks).
_PICTOGRAPHS = ((0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x3299), (0x1F000, 0x1FAFF))
_REGIONAL = (0x1F1E6, 0x1F1FF)
_MODIFIERS = (0x1F3FB, 0x1F3FF)


def _within(ch: str, ranges) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in ranges)


def is_extend(ch: str) -> bool:
    """Joins the letter before it (Extend, SpacingMark or ZWJ)."""
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or ch in (ZWNJ, ZWJ)
        or _within(ch, (_MODIFIERS,))
    )


def is_conjunct_consonant(ch: str) -> bool:
    return _within(ch, _CONSONANTS)


def is_pictograph(ch: str) -> bool:
    if is_regional(ch) or _within(ch, (_MODIFIERS,)):
        return False
    return _within(ch, _PICTOGRAPHS) and unicodedata.category(ch) in ("So", "Sm", "Cn", "Po")


def is_regional(ch: str) -> bool:
    return _within(ch, (_REGIONAL,))


def _joins(cluster: list[str], ch: str) -> bool:
    """Whether ``ch`` continues ``cluster`` (the cluster so far) rather than starting one."""
    if is_extend(ch):
        return True
    prev = cluster[-1]
    if is_conjunct_consonant(ch) and is_conjunct_consonant(cluster[0]):
        # GB9c: consonant [extend or linker]* linker [extend or linker]* × consonant
        return _ends_with_linker(cluster)
    if is_pictograph(ch) and prev == ZWJ:
        # GB11: pictograph extend* ZWJ × pictograph
        before = cluster[:-1]
        return bool(before) and ZWJ not in before[-1:] and _last_letter(before, is_pictograph, ZWJ)
    if is_regional(ch) and is_regional(prev):
        # GB12, GB13: flags are pairs of regional indicators
        run = 0
        for c in reversed(cluster):
            if not is_regional(c):
                break
            run += 1
        return run % 2 == 1
    return False


def _last_letter(cluster: list[str], test, stop: str = "") -> bool:
    """Whether the cluster's last character that is not a mark passes ``test`` (False
    when a ``stop`` character comes first)."""
    for c in reversed(cluster):
        if c == stop:
            return False
        if not is_extend(c):
            return test(c)
    return False


def _ends_with_linker(cluster: list[str]) -> bool:
    """The marks after the cluster's last consonant include a linker (GB9c)."""
    for c in reversed(cluster):
        if c in LINKERS:
            return True
        if not is_extend(c):
            return False
    return False


def clusters(text: str) -> list[str]:
    """``text`` split into the letters a reader sees."""
    result: list[list[str]] = []
    for ch in text:
        if result and _joins(result[-1], ch):
            result[-1].append(ch)
        else:
            result.append([ch])
    return ["".join(c) for c in result]


def count(text: str) -> int:
    """How many letters a reader counts in ``text`` (extended grapheme clusters)."""
    return len(clusters(text))
