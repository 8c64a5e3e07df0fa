"""Delete the teachers' lessons nobody has opened for a year (docs/teachers.md).

Run it daily (cron, a systemd timer): ``python manage.py purge_lessons``. A visit is
opening the lesson (``/lesson/CODE/``) or its builder.
"""

from django.core.management.base import BaseCommand

from games.frames.lesson_store import lessons_purge


class Command(BaseCommand):
    help = "Delete the lessons not visited for a year."

    def handle(self, *args, **options):
        count = lessons_purge()
        self.stdout.write(f"Deleted {count} lesson(s) not visited for a year.")
