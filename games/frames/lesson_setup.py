"""A teacher's lesson: its table (names, options) and its deal, checked.

A lesson is dealt like every real game (R4, R20): 52 cards, each once, one at a time
clockwise from the first player. The teacher may arrange the top of any player's
face-down pile (as many cards as matter, top first); the rest of the deck is shuffled
from the lesson's seed and dealt legally around them. The dealt order itself is what
a lesson keeps (Python's shuffle is not promised stable), so a lesson replays exactly.

Every refusal is a :class:`SetupError` whose message is a whole sentence in the active
language; nothing is changed by a refused setup.

>>> setup = Setup(names=("Ana", "Ben"), arranged=(("10H", "KS"), ()))
>>> deck = dealt_deck(setup)
>>> state = start_of(setup, deck)
>>> [c.code for c in state.face_down[0][-2:]]  # Ana's pile, top last: KS under 10H
['KS', '10H']
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import Card, GameState, Options, deal, full_deck
from games.engine.options import MAX_TIE_WINDOW_MS
from games.words.texts import card_name, fill

__all__ = [
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_TURN_LIMIT",
    "MIN_PLAYERS",
    "Setup",
    "SetupError",
    "dealt_deck",
    "parse_pile",
    "pile_sizes",
    "start_of",
]

#: A lesson's table: 2 to 6 players (a projector shows six seats well).
MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: Longest player name, in characters.
MAX_NAME = 20
#: Largest turn limit a lesson may set (R19): more than a long lesson needs.
MAX_TURN_LIMIT = 500
#: Seeds a teacher may type: 0 to this.
MAX_SEED = 999_999_999

_SPLIT = re.compile(r"[\s,;]+")


class SetupError(ValueError):
    """A setup the lesson cannot have; ``str(error)`` says why, in the reader's language."""


@dataclass(frozen=True)
class Setup:
    """``names`` by seat; ``learner``: the seat the class plays; ``first``: who plays
    first (the dealer sits on their right); ``arranged``: per seat, the top of the
    face-down pile, top first (card codes)."""

    names: tuple[str, ...]
    learner: int = 0
    first: int = 0
    index_card: bool = False
    tie_window_ms: int = 150
    turn_limit: int | None = None
    seed: int = 1
    arranged: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(
                _("A lesson has from %(min)d to %(max)d players.")
                % {"min": MIN_PLAYERS, "max": MAX_PLAYERS}
            )
        for name in self.names:
            if not name.strip():
                raise SetupError(_("Every player needs a name."))
            if len(name) > MAX_NAME:
                raise SetupError(
                    ngettext(
                        "A name may have at most %(count)d character.",
                        "A name may have at most %(count)d characters.",
                        MAX_NAME,
                    )
                    % {"count": MAX_NAME}
                )
        if not (0 <= self.learner < n and 0 <= self.first < n):
            raise SetupError(_("There is no such seat at this table."))
        if type(self.tie_window_ms) is not int or not 0 <= self.tie_window_ms <= MAX_TIE_WINDOW_MS:
            raise SetupError(
                _("The tie window is from 0 to %(max)d milliseconds.") % {"max": MAX_TIE_WINDOW_MS}
            )
        if self.turn_limit is not None and not 1 <= self.turn_limit <= MAX_TURN_LIMIT:
            raise SetupError(
                _("The turn limit is from 1 to %(max)d cards, or none.") % {"max": MAX_TURN_LIMIT}
            )
        if not 0 <= self.seed <= MAX_SEED:
            raise SetupError(_("The seed is a whole number from 0 to %(max)d.") % {"max": MAX_SEED})
        if len(self.arranged) not in (0, n):
            raise SetupError(_("Arrange the cards of each player at the table."))
        check_arranged(self)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def dealer(self) -> int:
        return (self.first - 1) % self.players

    @property
    def options(self) -> Options:
        return Options(
            tie_window_ms=self.tie_window_ms,
            index_card=self.index_card,
            turn_limit=self.turn_limit,
        )

    def to_json(self) -> dict:
        return {
            "names": list(self.names),
            "learner": self.learner,
            "first": self.first,
            "index_card": self.index_card,
            "tie_window_ms": self.tie_window_ms,
            "turn_limit": self.turn_limit,
            "seed": self.seed,
            "arranged": [list(p) for p in self.arranged],
        }

    @classmethod
    def from_json(cls, data: dict) -> Setup:
        return cls(
            names=tuple(data["names"]),
            learner=data.get("learner", 0),
            first=data.get("first", 0),
            index_card=data.get("index_card", False),
            tie_window_ms=data.get("tie_window_ms", 150),
            turn_limit=data.get("turn_limit"),
            seed=data.get("seed", 1),
            arranged=tuple(tuple(p) for p in data.get("arranged", ())),
        )


def parse_pile(text: str) -> tuple[str, ...]:
    """Card codes as a teacher types them ("10H ks, 7d"), top first, in stored form;
    a :class:`SetupError` names the first word that is not a card.

    >>> parse_pile("10h ks, 7D")
    ('10H', 'KS', '7D')
    """
    codes = []
    for word in _SPLIT.split(text.strip()):
        if not word:
            continue
        try:
            codes.append(Card.parse(word).code)
        except ValueError:
            raise SetupError(
                fill(_("“%(word)s” is not a card. Write cards like 10H, KS or 7D."), word=word[:12])
            ) from None
    return tuple(codes)


def pile_sizes(players: int, first: int) -> list[int]:
    """How many cards each seat is dealt (R4): the first seats from ``first`` get one
    more when 52 does not share out evenly.

    >>> pile_sizes(3, 0)
    [18, 17, 17]
    """
    return [52 // players + (1 if (seat - first) % players < 52 % players else 0)
            for seat in range(players)]  # fmt: skip


def check_arranged(setup: Setup) -> None:
    """Refuse an arrangement of more than 52 cards, a card twice, or more cards on a
    player's pile than that player is dealt."""
    cards = [Card.parse(code) for pile in setup.arranged for code in pile]
    if len(cards) > 52:
        raise SetupError(
            _("A deck has 52 cards, and this arrangement has %(count)d.") % {"count": len(cards)}
        )
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise SetupError(
                fill(_("The %(card)s is arranged twice: a deck has each card once."),
                     card=card_name(card))
            )  # fmt: skip
        seen.add(card)
    sizes = pile_sizes(setup.players, setup.first)
    for seat, pile in enumerate(setup.arranged):
        if len(pile) > sizes[seat]:
            raise SetupError(
                fill(
                    ngettext(
                        "%(player)s is dealt %(count)d card at this table: arrange no more.",
                        "%(player)s is dealt %(count)d cards at this table: arrange no more.",
                        sizes[seat],
                    ),
                    player=setup.names[seat],
                    count=sizes[seat],
                )
            )


def dealt_deck(setup: Setup) -> tuple[Card, ...]:
    """The deck order, top first, that deals ``setup``: each player's arranged cards on
    top of their pile, the rest shuffled from the seed and dealt as the deal gives."""
    n = setup.players
    arranged = [[Card.parse(c) for c in pile] for pile in (setup.arranged or [()] * n)]
    named = {c for pile in arranged for c in pile}
    rest = [c for c in full_deck() if c not in named]
    random.Random(setup.seed).shuffle(rest)
    sizes = pile_sizes(n, setup.first)
    piles: list[list[Card]] = []  # bottom to top
    for seat in range(n):
        under = sizes[seat] - len(arranged[seat])
        piles.append(rest[:under] + list(reversed(arranged[seat])))
        rest = rest[under:]
    # The j-th card dealt goes to seat first + j, laid on top: it is that seat's
    # (j // n)-th card from the bottom.
    return tuple(piles[(setup.first + j) % n][j // n] for j in range(52))


def start_of(setup: Setup, deck: tuple[Card, ...] | list) -> GameState:
    """The dealt start position of ``setup`` from its kept deck order."""
    return deal(setup.players, list(deck), setup.dealer, setup.options)
