"""The opener's start at a table opened from the lobby (not a class table).

Whoever opened a table (the person on seat 0) may start it with the players already
there, instead of waiting for every seat to be taken: the table shrinks to the seats
taken (people and computer players, numbered again in order) and is dealt again for
that many, as a class table without computer players for free seats. Nobody else may
(``not_opener``); a table with fewer than two players cannot start
(``too_few_players``). Applied by the table's owner, under its lock, like a teacher's
control (a numbered control ``started_now``, stored with its effect).
"""

from __future__ import annotations

import dataclasses
import random

from games.engine import new_game

__all__ = ["OpenerStart"]


class OpenerStart:
    """The opener's side of :class:`~games.tables.owner.TableOwner` (a mixin)."""

    def is_opener(self, session_key: str | None) -> bool:
        """The person on seat 0 of a table that is not a class table."""
        if not session_key or self.stored.is_class or not self.seats:
            return False
        first = self.seats[0]
        return not first.is_bot and first.session_key == session_key

    async def start_now(self) -> str | None:
        """Start with the seats taken (the caller holds the lock and has checked that
        this is the opener). Returns None when started, else the refusal's code."""
        if self.started:
            return "not_now"
        taken = [s for s in self.seats if s.taken]
        if len(taken) < 2:
            return "too_few_players"
        seats = [dataclasses.replace(s, number=i, stand_in=False) for i, s in enumerate(taken)]
        dealt = new_game(len(seats), random.Random(self._rng.getrandbits(64)), self.stored.options)
        fields = {
            "players": len(seats),
            "deck": [c.code for c in dealt.deck],
            "dealer": dealt.dealer,
        }
        await self._commit("started_now", {"players": len(seats)}, fields, seats)
        self._watch_absent()
        return None
