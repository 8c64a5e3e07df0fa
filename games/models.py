"""Translated content: the rules sections, the glossary and the one-page start.

The text lives in ``games/content`` and is loaded by the ``load_content``
command; staff may edit it in the admin afterwards. Every unit records, per
language, the fingerprint of the English its translation was made from, so
that a change to the English shows which translations are stale
(``python manage.py content_status``).
"""

from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.content.files import MISSING, UNIT_FIELDS, fingerprint, translation_state


def _source_field():
    return models.CharField(
        _("English it was translated from"),
        max_length=16,
        blank=True,
        editable=False,
        help_text=_("Fingerprint of the English text this translation was made from."),
    )


class TranslatedUnit(models.Model):
    """A text written in English and translated into the other languages."""

    unit_kind: ClassVar[str]

    source_ms = _source_field()
    source_mr = _source_field()
    source_he = _source_field()
    source_ta = _source_field()
    source_hr = _source_field()

    class Meta:
        abstract = True

    @classmethod
    def text_fields(cls) -> tuple[str, ...]:
        return UNIT_FIELDS[cls.unit_kind]

    @property
    def unit_id(self) -> str:
        return f"{self.unit_kind}.{self.slug}"

    def texts(self, lang: str) -> tuple[str, ...]:
        return tuple(getattr(self, f"{field}_{lang}") or "" for field in self.text_fields())

    def english_fingerprint(self) -> str:
        return fingerprint(*self.texts("en"))

    def translation_state(self, lang: str) -> str:
        """``current``, ``stale`` or ``missing`` (see ``content_files``)."""
        if lang == "en":
            return "current"
        return translation_state(
            self.texts("en"), self.texts(lang), getattr(self, f"source_{lang}")
        )

    def is_translated(self, lang: str) -> bool:
        return self.translation_state(lang) != MISSING


class RulesSection(TranslatedUnit):
    unit_kind = "sections"

    slug = models.SlugField(_("anchor"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    clauses = models.CharField(
        _("rule clauses"),
        max_length=200,
        blank=True,
        help_text=_("Clause ids of RULES.md, separated by commas, for example R9,R10."),
    )
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"))

    class Meta:
        ordering = ["order"]
        verbose_name = _("rules section")
        verbose_name_plural = _("rules sections")

    def __str__(self) -> str:
        return self.title

    @property
    def clause_ids(self) -> list[str]:
        return [c.strip() for c in self.clauses.split(",") if c.strip()]


class GlossaryEntry(TranslatedUnit):
    unit_kind = "glossary"

    slug = models.SlugField(_("anchor"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    term = models.CharField(_("term"), max_length=120)
    definition = models.TextField(_("definition"))

    class Meta:
        ordering = ["order"]
        verbose_name = _("glossary entry")
        verbose_name_plural = _("glossary entries")

    def __str__(self) -> str:
        return self.term


class StartStep(TranslatedUnit):
    """One step of "Play in two minutes", the one-page start for children."""

    unit_kind = "start"

    slug = models.SlugField(_("anchor"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"))

    class Meta:
        ordering = ["order"]
        verbose_name = _("start step")
        verbose_name_plural = _("start steps (Play in two minutes)")

    def __str__(self) -> str:
        return self.title


# -- Live tables (games/tables): the stored form of a table, the source of truth --------


class Table(models.Model):
    """A live table: its options, its start position and its clock.

    The game is rebuilt from this row, its seats and its actions (the engine is
    deterministic); the numbered events are stored too, so that a client's catch-up is a
    plain read of the events after its number.
    """

    code = models.CharField(max_length=12, unique=True)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)  # engine Options, as JSON (games/tables/protocol.py)
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a position
    deck = models.JSONField()  # the dealt order, top first, as card codes ([]: a position)
    # a start from a position instead of a deal (lessons, tests): the piles, bottom to
    # top, as card codes: {"face_down", "face_up", "pot", "to_play", "last_turned"}
    position = models.JSONField(null=True, blank=True)
    bot_seed = models.BigIntegerField(default=0)
    bot_time_scale = models.FloatField(default=1.0)  # other than 1 only in tests
    away_after_ms = models.PositiveIntegerField(default=30_000)  # then a stand-in plays
    # pace: the table turns a person's card after turn_timer_ms idle (None: never), or,
    # with beat_ms, the table turns every card at that steady beat (players only call)
    turn_timer_ms = models.PositiveIntegerField(null=True, blank=True)
    beat_ms = models.PositiveIntegerField(null=True, blank=True)
    # lag compensation: a call counts as sent up to this many ms before it arrived (half
    # the connection's measured round trip); 0 = off
    lag_cap_ms = models.PositiveIntegerField(default=0)
    public = models.BooleanField(default=False)
    epoch_ms = models.BigIntegerField()  # wall clock (ms) at the table's time 0
    created = models.DateTimeField(auto_now_add=True)
    # A class table (opened by a teacher, games/teach/classes/views.py): the teacher's browser
    # session (not a player); empty for every other table. Class tables and their
    # students' names are deleted after 30 days (manage.py purge_classes).
    teacher_key = models.CharField(max_length=40, blank=True, db_index=True)
    class_name = models.CharField(max_length=60, blank=True)
    # the level of the computer players that take the free seats at the teacher's start
    # ("": the table shrinks to the seats taken instead)
    fill_level = models.CharField(max_length=16, blank=True)
    # the teacher's controls (each stored with a numbered TableControl): a class table
    # waits for the teacher's start; a paused table takes no move and runs no timer;
    # next_code: the class went on at this table (restart), this one is closed
    teacher_started = models.BooleanField(default=False)
    paused = models.BooleanField(default=False)
    next_code = models.CharField(max_length=12, blank=True)
    # who opened the table, for the limits of open tables (games/tables/limits.py): the
    # network address and the browser session (from the lobby: the person on seat 0; a
    # class table: its teacher); empty for tables made otherwise (tests, benches)
    opener_address = models.GenericIPAddressField(null=True, blank=True)
    opener_key = models.CharField(max_length=40, blank=True)
    # the wall clock (ms) until which the table counts as open (games/tables/closing.py):
    # limits, the lobby and connecting go by it; 0 once it is over or closed
    open_until = models.BigIntegerField(default=0)
    # closed because nobody was connected for TABLE_IDLE_CLOSE_S (its record is kept)
    idle_closed = models.DateTimeField(null=True, blank=True)
    # played around one device (a tablet lying flat): one browser session holds the
    # seats of the people at it, each on an edge of the screen (Seat.lang: its language)
    on_device = models.BooleanField(default=False)
    # class tables opened together, one per tablet: the code of the first of them
    device_group = models.CharField(max_length=12, blank=True, db_index=True)
    # a class table: the code of the teacher's lesson assigned to the class ("": none)
    lesson_code = models.CharField(max_length=12, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [  # the limits count only the open tables of one opener
            models.Index(fields=["opener_key", "open_until"], name="table_open_by_session"),
            models.Index(fields=["opener_address", "open_until"], name="table_open_by_address"),
        ]

    def __str__(self) -> str:
        return self.code


class Seat(models.Model):
    """One seat: a person bound to a browser session, or a computer player."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    display_name = models.CharField(max_length=240, blank=True)  # protocol.MAX_NAME_BYTES
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=16, blank=True)
    # a class table's student: the walkthroughs finished (slugs), sent by the student's page
    done = models.JSONField(default=list, blank=True)
    # at a table on one device: the language of this seat's edge of the screen ("": the page's)
    lang = models.CharField(max_length=8, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.table.code}#{self.number}"


class TableAction(models.Model):
    """The action log: every accepted action with its time, in the order applied."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="action_unique_index")
        ]


class TableEvent(models.Model):
    """One numbered engine event with the public view after its step."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    data = models.JSONField()  # {"code": ..., "params": {...}}
    view = models.JSONField()  # the public view (view(state, None)) after the step

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="event_unique_seq")]


class TableControl(models.Model):
    """A teacher's control at a class table (start, pause, pace…), numbered 1, 2, … in
    the order the table's owner applied it. Its effect on the table and seats is stored
    in the same transaction; ``data`` holds ``code``, ``params``, ``at_ms`` (table clock)
    and ``seq`` (the last game event before it)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="controls")
    number = models.PositiveIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="control_unique_number")
        ]


class TableLease(models.Model):
    """Which server process owns a live table (its one writer) until ``expires_ms``.

    ``fence`` goes up by one each time a process takes the table; every write of an
    owner checks, in its own transaction, that the lease still names it with the fence
    it took (``games.tables.lease``), so a process that lost the table (it stalled past
    the expiry and another took over) can never write to it again."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="lease"
    )
    holder = models.CharField(max_length=200, blank=True)  # the process's channel name
    fence = models.BigIntegerField(default=0)
    expires_ms = models.BigIntegerField(default=0)  # wall clock, ms


class Lesson(models.Model):
    """A teacher's step-by-step example on the engine (``games/frames/lesson_store.py``):
    its table and kept deal, the steps chosen, the moments the class decides and the
    teacher's notes. Whoever holds the secret edit link may change it; only a hash of
    that link's key is stored. Lessons no visit has opened for a year are deleted
    (``python manage.py purge_lessons``)."""

    code = models.CharField(max_length=12, unique=True)
    edit_hash = models.CharField(max_length=64)  # sha256 of the edit key, hex
    title = models.CharField(max_length=200, blank=True)
    lang = models.CharField(max_length=8)  # the language the teacher wrote in
    setup = models.JSONField()  # games.frames.lesson_setup.Setup.to_json()
    deck = models.JSONField()  # the dealt order, top first, as card codes
    steps = models.JSONField(default=list)  # games.frames.lesson_play steps
    notes = models.JSONField(default=dict)  # position ("0": the start) -> the note
    marks = models.JSONField(default=list)  # step numbers the class decides
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    last_visit = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.code
