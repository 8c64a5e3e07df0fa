"""Table options: the house defaults (D) of RULES.md and their alternatives."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_OPTIONS", "MAX_TIE_WINDOW_MS", "Options"]

MAX_TIE_WINDOW_MS = 500


@dataclass(frozen=True, slots=True)
class Options:
    """Options of one table. The defaults are the house defaults of RULES.md.

    - ``tie_window_ms`` (R9, 0..500, default 150): calls reaching the server within this
      many ms of the first valid call tie with it.
    - ``index_card`` (R12): the index-card variant; the effective tie window is 0.
    - ``either_word_counts`` (R14 option): "Snap!" and "Snap Pot!" both count when a
      real match is showing (for young children).
    - ``missed_match_callable`` (R8 default True): a match stays callable until one of
      its piles is covered. When False only a match with the card just turned counts.
    - ``turn_limit`` (R19, default None = off): once ``turn_limit`` cards have been
      turned, the game ends as soon as nothing more can come of the last of them: at
      once if it leaves nothing to call; after the race it opens if someone calls (or
      when a penalty removes the match); at the latest when the next card would be
      turned (that card is not turned). The most cards win; only those tied for the
      most share the win.
    - ``penalty_from_face_up_when_empty`` (R14 default True): a wrong caller with an
      empty face-down pile pays the bottom card of his face-up pile; when False he
      pays nothing.

    >>> Options().effective_tie_window_ms
    150
    >>> Options(tie_window_ms=300, index_card=True).effective_tie_window_ms
    0
    >>> Options(tie_window_ms=501)
    Traceback (most recent call last):
    ...
    ValueError: tie_window_ms must be an int from 0 to 500, not 501
    """

    tie_window_ms: int = 150
    index_card: bool = False
    either_word_counts: bool = False
    missed_match_callable: bool = True
    turn_limit: int | None = None
    penalty_from_face_up_when_empty: bool = True

    def __post_init__(self) -> None:
        w = self.tie_window_ms
        if type(w) is not int or not 0 <= w <= MAX_TIE_WINDOW_MS:
            raise ValueError(f"tie_window_ms must be an int from 0 to 500, not {w!r}")
        for name in (
            "index_card",
            "either_word_counts",
            "missed_match_callable",
            "penalty_from_face_up_when_empty",
        ):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name} must be a bool")
        t = self.turn_limit
        if t is not None and (type(t) is not int or t < 1):
            raise ValueError(f"turn_limit must be None or a positive int, not {t!r}")

    @property
    def effective_tie_window_ms(self) -> int:
        """The tie window actually used: 0 with the index card (R12)."""
        return 0 if self.index_card else self.tie_window_ms


#: The house defaults (an immutable value, safe as a default argument).
DEFAULT_OPTIONS = Options()
