"""Delete the class tables opened more than 30 days ago, with their seats (the
students' first names), moves, events, controls and done marks.

Run it daily (cron, a systemd timer): ``python manage.py purge_classes``. Other tables
are kept.
"""

from django.core.management.base import BaseCommand

from games import tables


class Command(BaseCommand):
    help = "Delete class tables (and their students' names) opened more than 30 days ago."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=30,
            help="Delete class tables older than this many days (default 30).",
        )

    def handle(self, *args, days: int, **options):
        count = tables.classes_purge(days=days)
        self.stdout.write(f"Deleted {count} class table(s) older than {days} days.")
