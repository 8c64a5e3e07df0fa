"""The choices of a game that a table opened from the lobby shares with a class table:
the computer players' level, the rules' options and the pace (turn timer or beat).

Every choice is checked here, with a message in the page's language, before anything is
stored: a bad form changes nothing.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine import Options
from games.live.bot_levels import levels_help

__all__ = ["BEAT_MS", "LEVEL_CHOICES", "PACE_CHOICES", "GameChoicesForm", "LobbyForm"]

LEVEL_CHOICES = [
    ("gentle", pgettext_lazy("computer player level", "Gentle (very slow)")),
    ("beginner", pgettext_lazy("computer player level", "Beginner (slow)")),
    ("steady", pgettext_lazy("computer player level", "Steady")),
    ("quick", pgettext_lazy("computer player level", "Quick")),
]
#: Pace "beat": the table turns a card every so many ms.
BEAT_MS = {"beat_slow": 3000, "beat": 1800}
PACE_CHOICES = [
    ("own", _("Each player turns their own card")),
    ("beat_slow", _("The table turns the cards: slow beat (young children)")),
    ("beat", _("The table turns the cards: steady beat")),
]
#: The turn timer choices (seconds; 0: none).
TIMER_CHOICES = [
    (0, _("No turn timer")),
    (5, _("5 seconds")),
    (10, _("10 seconds")),
    (20, _("20 seconds")),
]


#: What a required field left empty asks for, when the field has no words of its own: a
#: child reads what to do, not Django's "This field is required."
NUMBER_REQUIRED = _("Write a number here.")
CHOICE_REQUIRED = _("Choose one from the list.")


def say_what_to_do(field: forms.Field) -> None:
    """Give ``field`` a required message that says what to do, unless it has one."""
    if field.error_messages["required"] is not forms.Field.default_error_messages["required"]:
        return
    if isinstance(field, forms.IntegerField):
        field.error_messages["required"] = NUMBER_REQUIRED
    elif isinstance(field, forms.ChoiceField):
        field.error_messages["required"] = CHOICE_REQUIRED


class LobbyForm(forms.Form):
    """A form of the lobby: its ids start with ``id_prefix``, as three forms share
    the page (and two of them have a name field). A required field left empty says
    what to write or choose there."""

    id_prefix = ""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            say_what_to_do(field)


class GameChoicesForm(LobbyForm):
    """The choices a table opened by a person shares with a class table: the computer
    players' level, the rules' options and the pace (see :meth:`options` and
    :meth:`pace_ms`)."""

    level = forms.ChoiceField(
        label=_("Level of the computer players"),
        choices=LEVEL_CHOICES,
        initial="steady",
        help_text=levels_help(),
    )
    tie_window_ms = forms.IntegerField(
        label=_("Tie window (milliseconds)"),
        help_text=_("Calls this close together are a tie. 0 means the first call always wins."),
        min_value=0,
        max_value=500,
        initial=150,
    )
    index_card = forms.BooleanField(
        label=_("Index card: the first hand on the card wins, no ties"), required=False
    )
    turn_limit = forms.IntegerField(
        label=_("Turn limit (cards turned; empty: none)"),
        min_value=10,
        max_value=2000,
        required=False,
    )
    pace = forms.ChoiceField(label=_("Pace"), choices=PACE_CHOICES, initial="own")
    turn_timer = forms.TypedChoiceField(
        label=_("Turn timer: the table turns an idle player's card after"),
        choices=TIMER_CHOICES,
        coerce=int,
        initial=10,
    )

    def options(self) -> Options:
        data = self.cleaned_data
        return Options(
            tie_window_ms=data["tie_window_ms"],
            index_card=data["index_card"],
            turn_limit=data["turn_limit"],
        )

    def pace_ms(self) -> tuple[int | None, int | None]:
        """``(turn_timer_ms, beat_ms)``: a turn timer (or none) when each player turns,
        else the table's steady beat."""
        data = self.cleaned_data
        beat_ms = BEAT_MS.get(data["pace"])
        if beat_ms is not None:
            return None, beat_ms
        return data["turn_timer"] * 1000 or None, None
