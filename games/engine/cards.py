"""Cards and the deck (R2).

A card is a small immutable value. Ranks are numbers: 1 is the Ace, 11 the Jack,
12 the Queen and 13 the King. Suits are one-letter codes: ``"S"``, ``"H"``,
``"D"``, ``"C"``. Two cards *match* when their ranks are equal (R2).

>>> Card.parse("10H")
Card(rank=10, suit='H')
>>> Card.parse("QD").code
'QD'
>>> Card.parse("AS").matches(Card.parse("AH"))
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Card", "RANK_CODES", "SUITS", "full_deck"]

#: Suit codes, in the order used by :func:`full_deck`.
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
#: Rank codes; ``RANK_CODES[rank - 1]`` is the code of ``rank``.
RANK_CODES: tuple[str, ...] = (
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
)
_RANK_OF = {code: i + 1 for i, code in enumerate(RANK_CODES)}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card: ``rank`` 1..13 (A=1, J=11, Q=12, K=13), ``suit`` in S, H, D, C.

    >>> card = Card(12, "D")
    >>> card.code
    'QD'
    >>> str(Card.parse("10h"))
    '10H'
    >>> Card(14, "S")
    Traceback (most recent call last):
    ...
    ValueError: rank must be an int from 1 to 13, not 14
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise ValueError(f"rank must be an int from 1 to 13, not {self.rank!r}")
        if self.suit not in SUITS:
            raise ValueError(f"suit must be one of S, H, D, C, not {self.suit!r}")

    @property
    def code(self) -> str:
        """The short code: ``"AS"``, ``"10H"``, ``"QD"``."""
        return RANK_CODES[self.rank - 1] + self.suit

    def matches(self, other: Card) -> bool:
        """True when both cards have the same rank (R2); suits do not matter."""
        return self.rank == other.rank

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a code such as ``"10H"``, ``"AS"`` or ``"qd"`` (case-insensitive).

        >>> Card.parse("KC")
        Card(rank=13, suit='C')
        >>> Card.parse("1X")
        Traceback (most recent call last):
        ...
        ValueError: not a card code: '1X'
        """
        if isinstance(text, str):
            code = text.strip().upper()
            card = _BY_CODE.get(code)
            if card is not None:
                return card
        raise ValueError(f"not a card code: {text!r}")


_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_CODE: dict[str, Card] = {card.code: card for card in _DECK}


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in a fixed order: suits S, H, D, C; in each suit A, 2 .. 10, J, Q, K.

    As a deck order (R20) the first card is the top of the deck.

    >>> deck = full_deck()
    >>> len(deck), len(set(deck))
    (52, 52)
    >>> [c.code for c in deck[:3]], deck[-1].code
    (['AS', '2S', '3S'], 'KC')
    """
    return _DECK
