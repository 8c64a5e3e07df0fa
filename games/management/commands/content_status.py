"""List, per language, what is missing or stale; or record units as translated.

    python manage.py content_status               # files (the repository): exit 1 if anything is
    python manage.py content_status --database    # the content the site serves (admin edits)
    python manage.py content_status --mark ta sections.play glossary.turn
    python manage.py content_status --mark ta     # every unit of ta that is not an English copy

Interface catalogs (``locale/<lang>/LC_MESSAGES/django.po``, ``djangojs.po``)
are always read from the files: a fuzzy, empty or absent entry is missing.
"""

from collections import Counter
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.content.files import TRANSLATED_LANGUAGES, ContentError, content_dir
from games.content.status import (
    catalog_problems,
    content_problems_from_database,
    content_problems_from_files,
    mark_translated,
)


class Command(BaseCommand):
    help = (
        "List what is missing or stale in each language (content and interface catalogs); "
        "exit 1 when anything is. With --mark, record units as translated from today's English."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "units",
            nargs="*",
            help="With --mark: units to record, e.g. sections.play glossary.turn start.deal "
            "(default: every unit whose text is not a copy of the English).",
        )
        parser.add_argument(
            "--mark",
            action="append",
            metavar="LANG",
            default=[],
            help="Record that LANG's units were translated from the current English "
            "(writes games/content/sources/LANG.toml; repeat for several languages).",
        )
        parser.add_argument(
            "--database",
            action="store_true",
            help="Check the content in the database (what the site serves) instead of the files.",
        )
        parser.add_argument(
            "--language",
            action="append",
            metavar="LANG",
            default=[],
            help="Only this language (repeatable).",
        )
        parser.add_argument("--content-dir", type=Path, help="Content directory to read.")
        parser.add_argument("--locale-dir", type=Path, help="Locale directory to read.")

    def handle(self, *args, **options):
        directory = options["content_dir"] or content_dir()
        if options["mark"]:
            return self.mark(options["mark"], options["units"], directory, options["database"])
        if options["units"]:
            raise CommandError("Units are only given with --mark LANG.")
        languages = options["language"] or list(TRANSLATED_LANGUAGES)
        unknown = [lang for lang in languages if lang not in TRANSLATED_LANGUAGES]
        if unknown:
            raise CommandError(
                f"Unknown language {unknown}: use {', '.join(TRANSLATED_LANGUAGES)}."
            )
        locale_dir = options["locale_dir"] or Path(settings.LOCALE_PATHS[0])
        try:
            if options["database"]:
                problems = content_problems_from_database(languages)
            else:
                problems = content_problems_from_files(directory, languages)
        except ContentError as exc:
            raise CommandError(f"Content unreadable: {exc}") from exc
        problems += catalog_problems(locale_dir, languages)
        self.report(problems, languages, "database" if options["database"] else directory)
        if problems:
            raise CommandError(
                f"{len(problems)} missing or stale translation(s); see the list above.",
                returncode=1,
            )

    def report(self, problems, languages, source) -> None:
        self.stdout.write(f"Content read from: {source}")
        for lang in languages:
            mine = [p for p in problems if p.lang == lang]
            if not mine:
                self.stdout.write(self.style.SUCCESS(f"{lang}: everything translated and current"))
                continue
            counts = Counter(p.state for p in mine)
            summary = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
            self.stdout.write(self.style.WARNING(f"{lang}: {summary}"))
            for p in mine:
                self.stdout.write(f"  {p.state:<8} {p.where:<28} {p.detail}")

    def mark(self, languages, units, directory, database) -> None:
        if database:
            raise CommandError(
                "--mark records translations in the repository files; in the admin, saving "
                "a translation (or ticking “still matches”) records it."
            )
        try:
            changed = mark_translated(languages, units, directory)
        except ContentError as exc:
            raise CommandError(f"Nothing marked: {exc}") from exc
        for lang, unit_ids in changed.items():
            if unit_ids:
                self.stdout.write(f"{lang}: recorded as translated from today's English:")
                for unit_id in unit_ids:
                    self.stdout.write(f"  {unit_id}")
            else:
                self.stdout.write(f"{lang}: nothing to record (already current).")
        self.stdout.write("Run `python manage.py load_content` to load the records into the site.")
