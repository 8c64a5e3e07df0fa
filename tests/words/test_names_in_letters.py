"""Name lengths counted as a reader counts letters (grapheme clusters), with a limit on
bytes kept for safety: a 14-letter Tamil name is welcome under "24 letters"."""

from __future__ import annotations

import pytest

from games.models import Seat, Table
from games.tables.protocol import MAX_NAME_BYTES, ProtocolError, display_name
from games.words.graphemes import clusters, count
from tests.play.test_play_pages import PRACTICE, code_in

TAMIL = "ஸ்ரீவித்யா சுப்பிரமணியன்"  # 24 code points, 14 letters


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("Zoë", ["Z", "o", "ë"]),
        ("Zoe\u0308", ["Z", "o", "e\u0308"]),  # a combining diaeresis joins its letter
        ("மீனா", ["மீ", "னா"]),  # vowel signs join their consonant
        ("க்ஷ", ["க்", "ஷ"]),  # the Tamil pulli does not link (Unicode)
        ("क्षमा", ["क्ष", "मा"]),  # a Devanagari conjunct is one letter (GB9c)
        ("र्\u200dया", ["र्\u200dया"]),  # eyelash ra: the ZWJ and the conjunct join
        ("נֹעָה", ["נֹ", "עָ", "ה"]),  # Hebrew points join their letter
        ("👩\u200d👩\u200d👧", ["👩\u200d👩\u200d👧"]),  # an emoji ZWJ sequence
        ("🇭🇷🇲🇾", ["🇭🇷", "🇲🇾"]),  # flags are pairs of regional indicators
        ("👍🏽!", ["👍🏽", "!"]),  # a skin-tone modifier joins its emoji
    ],
)
def test_letters_are_counted_as_a_reader_counts_them(text, letters):
    assert clusters(text) == letters and count(text) == len(letters)


def test_a_tamil_name_of_fourteen_letters_is_welcome_under_twenty_four():
    assert len(TAMIL) == 24 and count(TAMIL) == 14
    assert display_name(TAMIL) == TAMIL
    longer = "மீ" * 24  # 24 letters, 48 code points
    assert display_name(longer) == longer


@pytest.mark.parametrize(
    "name",
    [
        "மீ" * 25,  # 25 letters
        "a" + "\u0301" * MAX_NAME_BYTES,  # one letter, but far too many bytes
        "\u200dAna",  # a joiner with nothing before it
        "Ana \u200c",
        "Ana\u202e",  # bidi control
    ],
)
def test_a_name_too_long_in_letters_or_bytes_or_with_a_stray_joiner_is_refused(name):
    with pytest.raises(ProtocolError, match="bad_name"):
        display_name(name)


@pytest.mark.django_db
def test_the_practice_form_seats_a_long_tamil_name_and_keeps_it_whole(client, content):
    name = "மீனாட்சிசுந்தரம் கிருஷ்ணமூர்த்தி"  # 21 letters, 33 code points
    assert count(name) <= 24 < len(name)
    code = code_in(client.post("/en/play/practice/", {**PRACTICE, "name": name}))
    seat = Seat.objects.get(table=Table.objects.get(code=code), number=0)
    assert seat.display_name == name
