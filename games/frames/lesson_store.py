"""Teachers' lessons in the database: made, found, changed by their edit key, visited,
and deleted after a year without a visit.

Ownership without accounts: a lesson's maker gets a secret edit key once, at making
(the builder's address holds it); only its SHA-256 is stored, so the database alone
can never edit a lesson. The plain code (``/lesson/CODE/``) only shows it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.frames.lesson_draft import Draft
from games.models import Lesson
from games.tables.codes import new_code, normalise_code

__all__ = [
    "KEEP_UNVISITED",
    "lesson_create",
    "lesson_draft",
    "lesson_find",
    "lesson_may_edit",
    "lesson_save",
    "lesson_visited",
    "lessons_purge",
]

#: A lesson nobody has opened for this long is deleted (``purge_lessons``).
KEEP_UNVISITED = timedelta(days=365)
#: A visit is written at most this often per lesson.
VISIT_EVERY = timedelta(hours=1)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def lesson_create(*, draft: Draft, lang: str) -> tuple[Lesson, str]:
    """A new lesson holding ``draft``; returns it and its edit key (shown once)."""
    key = secrets.token_urlsafe(18)
    data = draft.to_json()
    for _attempt in range(20):
        try:
            with transaction.atomic():
                lesson = Lesson.objects.create(
                    code=new_code(),
                    edit_hash=_hash(key),
                    title=data["title"],
                    lang=lang,
                    setup=data["setup"],
                    deck=data["deck"],
                    steps=data["steps"],
                    notes=data["notes"],
                    marks=data["marks"],
                    last_visit=timezone.now(),
                )
            return lesson, key
        except IntegrityError:  # the code was taken: draw another
            continue
    raise RuntimeError("no free lesson code")


def lesson_find(code: str) -> Lesson | None:
    return Lesson.objects.filter(code=normalise_code(code)).first()


def lesson_may_edit(lesson: Lesson, key: str) -> bool:
    """Whether ``key`` is the lesson's edit key (compared in constant time)."""
    return bool(key) and hmac.compare_digest(lesson.edit_hash, _hash(key))


def lesson_draft(lesson: Lesson) -> Draft:
    return Draft.from_json(
        {
            "title": lesson.title,
            "setup": lesson.setup,
            "deck": lesson.deck,
            "steps": lesson.steps,
            "notes": lesson.notes,
            "marks": lesson.marks,
        }
    )


def lesson_save(lesson: Lesson, draft: Draft) -> None:
    data = draft.to_json()
    lesson.title = data["title"]
    lesson.setup = data["setup"]
    lesson.deck = data["deck"]
    lesson.steps = data["steps"]
    lesson.notes = data["notes"]
    lesson.marks = data["marks"]
    lesson.last_visit = timezone.now()
    lesson.save()


def lesson_visited(lesson: Lesson, now: datetime | None = None) -> None:
    """Keep the lesson another year from ``now`` (written at most hourly)."""
    now = now or timezone.now()
    if now - lesson.last_visit >= VISIT_EVERY:
        Lesson.objects.filter(pk=lesson.pk).update(last_visit=now)
        lesson.last_visit = now


def lessons_purge(*, now: datetime | None = None) -> int:
    """Delete the lessons not visited for :data:`KEEP_UNVISITED`; return how many."""
    cutoff = (now or timezone.now()) - KEEP_UNVISITED
    deleted, _by_model = Lesson.objects.filter(last_visit__lt=cutoff).delete()
    return deleted
