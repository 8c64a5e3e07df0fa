"""The builder's forms: a lesson's table and deal (:class:`SetupForm`), a step, and a
moment's note. Each turns what was typed into the frames layer's values; every
refusal is a sentence in the page's language (``games.frames.lesson_setup``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.options import MAX_TIE_WINDOW_MS
from games.frames.lesson_draft import MAX_NOTE, MAX_TITLE
from games.frames.lesson_setup import (
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_TURN_LIMIT,
    Setup,
    SetupError,
    parse_pile,
)

__all__ = ["MomentForm", "SetupForm", "StepForm"]

SEATS = range(MAX_PLAYERS)


class SetupForm(forms.Form):
    """Title, 2 to 6 named players (the filled name fields, in order), the class's
    seat, the table's options and the deal: a seed, and the top of each pile."""

    title = forms.CharField(label=_("Title of the lesson"), max_length=MAX_TITLE, required=False)
    learner = forms.TypedChoiceField(
        label=_("The class plays as player"),
        choices=[(n, str(n + 1)) for n in SEATS],
        coerce=int,
        initial=0,
    )
    index_card = forms.BooleanField(label=_("Index card (the first call always wins)"),
                                    required=False)  # fmt: skip
    tie_window_ms = forms.IntegerField(
        label=_("Tie window (milliseconds)"), min_value=0, max_value=MAX_TIE_WINDOW_MS, initial=150
    )
    turn_limit = forms.IntegerField(
        label=_("Turn limit (cards turned; empty: none)"),
        min_value=1,
        max_value=MAX_TURN_LIMIT,
        required=False,
    )
    seed = forms.IntegerField(
        label=_("Seed for the cards you do not arrange"), min_value=0, max_value=MAX_SEED, initial=1
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for n in SEATS:
            number = n + 1
            self.fields[f"name_{n}"] = forms.CharField(
                label=_("Player %(number)d: name") % {"number": number},
                max_length=MAX_NAME,
                required=False,
            )
            self.fields[f"pile_{n}"] = forms.CharField(
                label=_("Player %(number)d: top cards, top first (for example 10H KS)")
                % {"number": number},
                max_length=160,
                required=False,
            )

    def name_rows(self):
        return [(self[f"name_{n}"], self[f"pile_{n}"]) for n in SEATS]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        names, piles = [], []
        try:
            for n in SEATS:
                name = (data.get(f"name_{n}") or "").strip()
                pile = parse_pile(data.get(f"pile_{n}") or "")
                if not name:
                    if pile:
                        raise SetupError(_("Cards are arranged for a player with no name."))
                    continue
                names.append(name)
                piles.append(pile)
            self.setup = Setup(
                names=tuple(names),
                learner=data["learner"],
                index_card=data["index_card"],
                tie_window_ms=data["tie_window_ms"],
                turn_limit=data.get("turn_limit"),
                seed=data["seed"],
                arranged=tuple(piles) if any(piles) else (),
            )
        except SetupError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    @classmethod
    def initial_of(cls, setup: Setup, title: str) -> dict:
        initial = {
            "title": title,
            "learner": setup.learner,
            "index_card": setup.index_card,
            "tie_window_ms": setup.tie_window_ms,
            "turn_limit": setup.turn_limit,
            "seed": setup.seed,
        }
        for n, name in enumerate(setup.names):
            initial[f"name_{n}"] = name
            if setup.arranged:
                initial[f"pile_{n}"] = " ".join(setup.arranged[n])
        return initial


class StepForm(forms.Form):
    do = forms.ChoiceField(choices=[(k, k) for k in ("turn", "snap", "snap_pot", "close", "go_on")])
    seat = forms.TypedChoiceField(choices=[(n, n) for n in SEATS], coerce=int, required=False)
    also = forms.TypedChoiceField(
        choices=[("", "")] + [(n, n) for n in SEATS], coerce=int, required=False, empty_value=None
    )

    def step(self) -> dict | str:
        data = self.cleaned_data
        if data["do"] == "go_on":
            return "go_on"
        if data["do"] == "close":
            return {"do": "close", "seats": []}
        seats = [data["seat"]] if data.get("seat") is not None else []
        if data["do"] != "turn" and data.get("also") is not None:
            seats.append(data["also"])
        return {"do": data["do"], "seats": seats}


class MomentForm(forms.Form):
    # No max_length here: the draft refuses a long note with its own sentence.
    note = forms.CharField(label=_("Your note at this step"), required=False,
                           widget=forms.Textarea(attrs={"rows": 3}))  # fmt: skip
    ask = forms.BooleanField(label=_("The class decides the next step here"), required=False)

    max_note = MAX_NOTE
