"""The lobby's forms: a practice table, a table to share with friends or a class, and a
table played around one device.

Every choice is checked here, with a message in the page's language, before anything is
stored: a bad form changes nothing.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from django import forms
from django.conf import settings
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.context_processors import NATIVE_NAMES
from games.engine import BotLevel, Options
from games.play.bot_levels import levels_help
from games.tables.device import DEVICE_COMPUTERS, DEVICE_PEOPLE
from games.tables.protocol import MAX_NAME_BYTES, MAX_NAME_CHARS, ProtocolError, display_name

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
#: The most a call's measured delay is made up for, at a table that asks for it.
LAG_CAP_MS = 150
#: The turn timer choices (seconds; 0: none).
TIMER_CHOICES = [
    (0, _("No turn timer")),
    (5, _("5 seconds")),
    (10, _("10 seconds")),
    (20, _("20 seconds")),
]


def clean_display_name(value: str) -> str:
    try:
        return display_name(value)
    except ProtocolError:
        raise forms.ValidationError(
            _("Names are 1 to %(max)d characters long, with no special characters."),
            params={"max": MAX_NAME_CHARS},
        ) from None


class NameField(forms.CharField):
    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("label", _("Your name"))
        kwargs.setdefault("max_length", MAX_NAME_BYTES)  # checked exactly by clean_display_name
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        return clean_display_name(value) if value or self.required else value


@dataclass(frozen=True)
class PracticeSettings:
    name: str
    levels: list[BotLevel]


class LobbyForm(forms.Form):
    """A form of the lobby: its ids start with ``id_prefix``, as three forms share
    the page (and two of them have a name field).

    Django keeps the form's bound fields (``form[name]``) in ``_bound_fields_cache``,
    and each points back at its form (``.form``): every form used left that cycle, with
    its fields and widgets, to the cycle collector (snapsite/http_cycles.py). Here the
    form keeps them weakly: a bound field lives while it is used (a template's loop, a
    view), then goes with its form; asked for again, it is made again, as Django does
    the first time."""

    id_prefix = ""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)
        self._bound_fields_cache = weakref.WeakValueDictionary()

    def __getitem__(self, name: str) -> forms.BoundField:
        # Django 5.2's, the cache read once (an entry may go between two reads)
        bound = self._bound_fields_cache.get(name)
        if bound is None:
            if name not in self.fields:
                return super().__getitem__(name)  # (Django's KeyError)
            bound = self._bound_fields_cache[name] = self.fields[name].get_bound_field(self, name)
        return bound


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
            people[f"name_{n}"] = NameField(label=_("Name"), required=n <= low)
            people[f"lang_{n}"] = forms.ChoiceField(
                label=_("Language"),
                choices=language_choices(),
                initial=here if here in dict(language_choices()) else "en",
            )
        self.fields = {**people, **self.fields}

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
    code = forms.CharField(label=_("Table code"), max_length=12)
