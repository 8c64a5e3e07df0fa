"""The form a teacher fills in to open a class table (``/<lang>/teach/class/``).

The rules' options, the computer players' level and the pace are the lobby's own
fields (:class:`games.live.game_choices.GameChoicesForm`); a class adds its name, up to 12
seats, and whether computer players take the seats still free at the start; or, on one
device, how many tablets (a table each, opened together) and children at each.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import BotLevel, Options
from games.live.game_choices import GameChoicesForm
from games.tables.device import DEVICE_BEAT_MS, DEVICE_PEOPLE, TABLETS_MAX

__all__ = ["ClassSettings", "ClassTableForm", "PaceForm"]


@dataclass(frozen=True)
class ClassSettings:
    """What ``games.tables.table_open_class`` needs."""

    class_name: str
    players: int
    options: Options
    fill_level: BotLevel | None
    turn_timer_ms: int | None
    beat_ms: int | None
    tablets: int = 0  # on one device: this many tables, one per tablet (0: not on one device)


class ClassTableForm(GameChoicesForm):
    id_prefix = "class"
    field_order = ["class_name", "seats", "tablets", "per_tablet", "fill", "level"]

    class_name = forms.CharField(
        label=_("Name of the class"),
        max_length=60,
        help_text=_("Shown to the students when they join, for example “Class 4B”."),
    )
    seats = forms.TypedChoiceField(
        label=_("Seats (students and computer players)"),
        choices=[(n, str(n)) for n in range(2, 13)],
        coerce=int,
        initial=12,
    )
    tablets = forms.TypedChoiceField(
        label=_("On one device: tablets"),
        choices=[(0, _("No: each student on a device of their own"))]
        + [(n, str(n)) for n in range(1, TABLETS_MAX + 1)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        help_text=_(
            "2 to 4 children share each tablet lying flat, each at an edge of the screen in "
            "their own language. Each tablet gets a table of its own, opened now. With a "
            "pace where each player turns, the tablets' tables turn the cards at the slow "
            "beat."
        ),
    )
    per_tablet = forms.TypedChoiceField(
        label=_("Children at each tablet"),
        choices=[(n, str(n)) for n in range(DEVICE_PEOPLE[0], DEVICE_PEOPLE[1] + 1)],
        coerce=int,
        initial=DEVICE_PEOPLE[1],
        required=False,
        empty_value=DEVICE_PEOPLE[1],
        help_text=_("The seats of each tablet's table (instead of the seats above)."),
    )
    fill = forms.BooleanField(
        label=_("Computer players in the seats still free when you start the game"),
        help_text=_("Without them, the table shrinks to the students who have sat down."),
        required=False,
    )

    def clean_class_name(self) -> str:
        name = self.cleaned_data["class_name"].strip()
        if not name or any(not ch.isprintable() for ch in name):
            raise forms.ValidationError(_("Give the class a name, with no invisible characters."))
        return name

    def settings(self) -> ClassSettings:
        data = self.cleaned_data
        turn_timer_ms, beat_ms = self.pace_ms()
        tablets = data["tablets"]
        if tablets and not beat_ms:  # young children around a tablet: the table turns
            turn_timer_ms, beat_ms = None, DEVICE_BEAT_MS
        return ClassSettings(
            class_name=data["class_name"],
            players=data["per_tablet"] if tablets else data["seats"],
            options=self.options(),
            fill_level=BotLevel[data["level"].upper()] if data["fill"] else None,
            turn_timer_ms=turn_timer_ms,
            beat_ms=beat_ms,
            tablets=tablets,
        )


class PaceForm(GameChoicesForm):
    """The pace alone: the teacher's page changes it during a game."""

    id_prefix = "pace"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in [n for n in self.fields if n not in ("pace", "turn_timer")]:
            del self.fields[name]
