"""The earlier games of a class: a teacher's "New game with the same students" opens a
new table and closes the old one, which names the new one (``next_code``). Walking
those names back from a table gives every game the class played before it, so the
teacher's page keeps each one's replay, lesson and sheet."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.urls import reverse

from games.models import Table, TableEvent

__all__ = ["earlier_games"]

#: A class plays a few games a lesson; the walk back stops here whatever the data says.
MOST_GAMES = 200


def earlier_games(table: Table) -> list[dict]:
    """The games the class of ``table`` played before it, first game first: each its
    ``number`` (1 for the first), ``code``, whether it is ``over``, and the addresses of
    its replay, lesson and sheet. Only the same teacher's tables count."""
    over = TableEvent.objects.filter(table=OuterRef("pk"), data__code="game_over")
    chain: list[Table] = []
    code = table.code
    seen = {code}
    while len(chain) < MOST_GAMES:
        before = (
            Table.objects.filter(next_code=code, teacher_key=table.teacher_key)
            .exclude(teacher_key="")
            .annotate(over=Exists(over))
            .first()
        )
        if before is None or before.code in seen:
            break
        chain.append(before)
        seen.add(before.code)
        code = before.code
    chain.reverse()
    return [
        {
            "number": number,
            "code": game.code,
            "over": game.over,
            "replay_url": reverse("replay", args=[game.code]),
            "lesson_url": reverse("replay_lesson", args=[game.code]),
            "sheet_url": f"{reverse('sheet')}?parts=game:{game.code}",
        }
        for number, game in enumerate(chain, start=1)
    ]
