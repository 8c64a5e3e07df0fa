"""The lobby's forms: a practice table, a table to share with friends or a class, and a
table played around one device.

Every choice is checked here, with a message in the page's language, before anything is
stored: a bad form changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.context_processors import NATIVE_NAMES
from games.engine import BotLevel, Options
from games.live.game_choices import LEVEL_CHOICES, GameChoicesForm, LobbyForm, say_what_to_do
from games.tables.device import DEVICE_COMPUTERS, DEVICE_PEOPLE
from games.tables.protocol import MAX_NAME_BYTES, MAX_NAME_CHARS, ProtocolError, display_name

#: The most a call's measured delay is made up for, at a table that asks for it.
LAG_CAP_MS = 150


def clean_display_name(value: str) -> str:
    try:
        return display_name(value)
    except ProtocolError:
        raise forms.ValidationError(
            _("Names are 1 to %(max)d characters long, with no invisible characters."),
            params={"max": MAX_NAME_CHARS},
        ) from None


class NameField(forms.CharField):
    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("label", _("Your name"))
        kwargs.setdefault("error_messages", {"required": _("Write your name.")})
        kwargs.setdefault("max_length", MAX_NAME_BYTES)  # checked exactly by clean_display_name
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        return clean_display_name(value) if value or self.required else value


@dataclass(frozen=True)
class PracticeSettings:
    name: str
    levels: list[BotLevel]


class PracticeForm(LobbyForm):
    """You and 1 to 3 computer players, a level each; play starts at once."""

    id_prefix = "practice"

    name = NameField(required=False)  # "Play it for real" after a walkthrough asks none
    computers = forms.TypedChoiceField(
        label=_("Computer players"),
        choices=[(n, str(n)) for n in (1, 2, 3)],
        coerce=int,
        initial=2,
    )
    level_1 = forms.ChoiceField(
        label=_("Computer 1"), choices=LEVEL_CHOICES, initial="beginner", required=False
    )
    level_2 = forms.ChoiceField(
        label=_("Computer 2"), choices=LEVEL_CHOICES, initial="beginner", required=False
    )
    level_3 = forms.ChoiceField(
        label=_("Computer 3"), choices=LEVEL_CHOICES, initial="steady", required=False
    )

    def settings(self) -> PracticeSettings:
        data = self.cleaned_data
        levels = [
            BotLevel[(data[f"level_{n}"] or "beginner").upper()]
            for n in range(1, data["computers"] + 1)
        ]
        return PracticeSettings(name=data["name"] or str(_("Player")), levels=levels)


@dataclass(frozen=True)
class TableSettings:
    """What ``games.tables.table_create`` needs, plus the opener's name."""

    name: str
    players: int
    options: Options
    bots: dict[int, BotLevel]
    public: bool
    turn_timer_ms: int | None
    beat_ms: int | None
    lag_cap_ms: int


class OpenTableForm(GameChoicesForm):
    """A table for friends or a class: 2 to 12 seats, computer players in the last seats."""

    id_prefix = "open"
    field_order = ["name", "seats", "computers", "level"]

    name = NameField()
    seats = forms.TypedChoiceField(
        label=_("Seats"), choices=[(n, str(n)) for n in range(2, 13)], coerce=int, initial=4
    )
    computers = forms.IntegerField(
        label=_("Computer players in empty seats"), min_value=0, max_value=11, initial=0
    )
    lag = forms.BooleanField(
        label=_("Be fair to slow connections: a call counts from when it was sent"),
        help_text=_(  # LAG_CAP_MS
            "The server measures each connection's delay and makes up for it, by at most "
            "150 milliseconds."
        ),
        required=False,
    )
    public = forms.BooleanField(
        label=_("List this table in the lobby, so anyone can join"), required=False
    )

    def clean(self):
        data = super().clean()
        seats, computers = data.get("seats"), data.get("computers")
        if seats is not None and computers is not None and computers > seats - 1:
            self.add_error(
                "computers",
                _("Leave at least one seat for you: at most %(max)d computer players.")
                % {"max": seats - 1},
            )
        return data

    def settings(self) -> TableSettings:
        data = self.cleaned_data
        players, computers = data["seats"], data["computers"]
        level = BotLevel[data["level"].upper()]
        turn_timer_ms, beat_ms = self.pace_ms()
        return TableSettings(
            name=data["name"],
            players=players,
            options=self.options(),
            bots={seat: level for seat in range(players - computers, players)},
            public=data["public"],
            turn_timer_ms=turn_timer_ms,
            beat_ms=beat_ms,
            lag_cap_ms=LAG_CAP_MS if data["lag"] else 0,
        )


@dataclass(frozen=True)
class DeviceSettings:
    """What ``games.tables.table_open_device`` needs: the people (name, language) in
    seat order, and the computer players' levels."""

    people: list[tuple[str, str]]
    levels: list[BotLevel]


def language_choices() -> list[tuple[str, str]]:
    """The site's languages, each named in its own script (a child finds their own)."""
    return [(code, NATIVE_NAMES[code]) for code, _name in settings.LANGUAGES]


class DeviceTableForm(LobbyForm):
    """A table on one device (a tablet lying flat): 2 to 4 people, each with the
    language of their edge of the screen (the page's by default), and 0 to 2 computer
    players; play starts at once, the table turning the cards at the slow beat."""

    id_prefix = "device"

    computers = forms.TypedChoiceField(
        label=_("Computer players"),
        choices=[(n, str(n)) for n in range(DEVICE_COMPUTERS + 1)],
        coerce=int,
        initial=0,
    )
    level = forms.ChoiceField(
        label=_("Level of the computer players"), choices=LEVEL_CHOICES, initial="beginner"
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        here = get_language() or settings.LANGUAGE_CODE
        low, high = DEVICE_PEOPLE
        people = {}
        for n in range(1, high + 1):
            people[f"name_{n}"] = NameField(
                label=_("Name"),
                required=n <= low,
                error_messages={"required": _("Write this player's name.")},
            )
            people[f"lang_{n}"] = forms.ChoiceField(
                label=_("Language"),
                choices=language_choices(),
                initial=here if here in dict(language_choices()) else "en",
            )
        self.fields = {**people, **self.fields}
        for field in self.fields.values():
            say_what_to_do(field)

    def people_fields(self) -> list[tuple]:
        """Each player's name and language fields (bound), for the template."""
        high = DEVICE_PEOPLE[1]
        return [(self[f"name_{n}"], self[f"lang_{n}"]) for n in range(1, high + 1)]

    def settings(self) -> DeviceSettings:
        data = self.cleaned_data
        people = [
            (data[f"name_{n}"], data[f"lang_{n}"])
            for n in range(1, DEVICE_PEOPLE[1] + 1)
            if data.get(f"name_{n}")
        ]
        level = BotLevel[data["level"].upper()]
        return DeviceSettings(people=people, levels=[level] * data["computers"])


class JoinByCodeForm(LobbyForm):
    id_prefix = "join"
    code = forms.CharField(
        label=_("Table code"),
        max_length=12,
        error_messages={"required": _("Write the table's code.")},
    )
