"""Names players type are safe in every sentence, in every language.

Live tables will put any name into the event texts, captions and notes: a Latin name on
a Hebrew page, a Hebrew or Tamil name on a Croatian page, a name nobody can tell the
gender of. Every such name (and every card name) must sit inside a bidi isolate
(U+2068 … U+2069), every placeholder must be filled, and in Hebrew no letter may be
glued in front of a name (a prefix such as ל or ו breaks on "Ben").
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from games.engine import REJECT_REASONS, Card
from games.engine import events as ev
from games.frames.walkthroughs import frames, played_scenarios
from games.words.texts import FSI, PDI, event_text
from tests.conftest import LANGUAGE_CODES

NAMES = ["Ben", "נועה", "கவின்", "Sam Kim"]
COUNTS = (1, 2, 5, 21)
KINDS = ("snap", "snap_pot")
HEBREW_LETTER = "[\u05d0-\u05ea]"
NAME_PLACEHOLDER = r"%\((?:player|players|receiver|winner|you|card|p\d)\)s"
LEFT_OVER = re.compile(r"%\(\w+\)[sd]|%[sd]\b")


def sample_events(seat: int) -> list:
    """Every event type in every variant the texts tell apart, about ``seat``."""
    other = (seat + 1) % len(NAMES)
    card = Card.parse("10H")
    events = [
        ev.CardTurned(seat, card),
        ev.PlayerOut(seat),
        ev.PlayerBack(seat),
        ev.WrongCall(seat, "snap", other, True),
        ev.WrongCall(seat, "snap_pot", other, False),
        ev.WrongCall(seat, "snap", None, False),
        ev.GameOver(seat, False, "all_cards", (seat,)),
        ev.GameOver(seat, False, "stuck_pot", (seat,)),
        ev.GameOver(seat, False, "turn_limit", (seat,)),
        ev.GameOver(None, True, "turn_limit", (seat, other)),
        ev.GameOver(None, True, "no_cards", ()),
    ]
    for kind in KINDS:
        events += [
            ev.RaceOpened(kind, seat, 0, 150),
            ev.CallJoined(kind, seat, 20),
            ev.RaceCancelled(kind),
            ev.TooLate(seat, kind),
        ]
    for n in COUNTS:
        events += [
            ev.PileTurnedOver(seat, n),
            ev.PilesWon(seat, (other,), n, True, 1),
            ev.PilesWon(seat, (seat, other, (other + 1) % 4), n, True, 3),
            ev.PilesWon(seat, (seat, other), n, False, 0),
            ev.TieToPot("snap", (seat, other), (seat, other), card, n),
            ev.TieToPot("snap_pot", (seat, other), (other,), card, n),
        ]
    events += [ev.Rejected(seat, reason) for reason in REJECT_REASONS]
    return events


def named_seats(event) -> set[int]:
    """The seats whose names the event's text must carry."""
    match event:
        case ev.WrongCall(seat=seat, penalty_to=receiver, paid=True) if receiver is not None:
            return {seat, receiver}
        case ev.PilesWon(winner=seat) | ev.GameOver(winner=seat) if seat is not None:
            return {seat}
        case ev.GameOver(reason="turn_limit", winners=winners):
            return set(winners)
        case ev.Rejected() | ev.GameOver() | ev.TieToPot() | ev.RaceCancelled():
            return set()
    return {event.seat}


def counted(event) -> int | None:
    """The number the event's text must show (cards turned over, won, in the pot)."""
    if isinstance(event, (ev.PileTurnedOver, ev.PilesWon)):
        return event.cards
    if isinstance(event, ev.TieToPot):
        return event.pot_cards
    return None


def assert_name_safe(text: str, lang: str, where: str, names=NAMES) -> None:
    assert text.strip(), where
    assert not LEFT_OVER.search(text), f"{where}: placeholder left in {text!r}"
    for name in names:
        for found in re.finditer(re.escape(name), text):
            start, end = found.start(), found.end()
            inside = text[start - 1 : start] == FSI and text[end : end + 1] == PDI
            assert inside, f"{where}: {name!r} not isolated in {text!r}"
    assert text.count(FSI) == text.count(PDI), f"{where}: unbalanced isolates in {text!r}"
    if lang == "he":
        glued = re.search(HEBREW_LETTER + FSI, text)
        assert not glued, f"{where}: Hebrew letter glued to a name in {text!r}"


def test_the_samples_cover_every_event_type():
    assert {type(e) for e in sample_events(0)} == set(ev.EVENT_TYPES)


#: Hebrew says "one" after the noun in the singular ("קלף אחד"), not the digit 1.
ONE_IN_WORDS = {"he": ["אחד", "אחת"]}


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_event_text_isolates_every_name(lang):
    with translation.override(lang):
        for seat in range(len(NAMES)):
            for event in sample_events(seat):
                text = event_text(event, NAMES)
                where = f"{lang} {event!r}"
                assert_name_safe(text, lang, where)
                for named in named_seats(event):
                    assert f"{FSI}{NAMES[named]}{PDI}" in text, f"{where}: no name in {text!r}"
                count = counted(event)
                if count is not None:
                    said = [str(count)] + (ONE_IN_WORDS.get(lang, []) if count == 1 else [])
                    assert any(s in text for s in said), (
                        f"{where}: count {count} missing in {text!r}"
                    )


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
@pytest.mark.parametrize("slug", list(played_scenarios()))
def test_every_caption_and_note_isolates_every_name(lang, slug):
    players = played_scenarios()[slug].scenario.players
    with translation.override(lang):
        for shift in range(len(NAMES)):  # every name sits in every seat once
            names = (NAMES[shift:] + NAMES[:shift])[:players]
            for frame in frames(slug, names=names):
                where = f"{lang} {slug} frame {frame['number']}"
                texts = [frame["caption"], *frame["events"]]
                for answer in frame["branches"].values():
                    texts += [answer["note"], *answer["events"]]
                for text in texts:
                    assert_name_safe(text, lang, where, names)


def glued_hebrew_entries() -> list[str]:
    """Entries of the Hebrew catalogs with a letter glued before a name placeholder."""
    bad = []
    for path in sorted(Path(settings.BASE_DIR, "locale", "he", "LC_MESSAGES").glob("*.po")):
        for entry in polib.pofile(str(path)):
            if entry.obsolete:
                continue
            for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                for glued in re.finditer(HEBREW_LETTER + NAME_PLACEHOLDER, text):
                    bad.append(f"{path.name}: {glued[0]!r} in msgid {entry.msgid!r}")
    return bad


def test_the_hebrew_catalog_glues_no_letter_to_a_name():
    bad = glued_hebrew_entries()
    assert not bad, "\n".join(bad)
