"""List catalog translations that a later change took back to their older text.

    python manage.py undone_translations                 # the whole history
    python manage.py undone_translations --since main    # only changes made since main

Run it after merging branches that both changed a catalog. Exit 1 when anything is
listed. A text a commit changed back on purpose is not listed (that commit is the last
change); a merge's choice between two branches' texts is not either.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.content.undone_translations import NotARepository, undone_translations


class Command(BaseCommand):
    help = (
        "List catalog entries whose text is not what the last commit to change it made it "
        "but an older one (a merge that took back a mended translation); exit 1 when any."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--since", help="only changes made after this revision (default: all history)"
        )
        parser.add_argument(
            "--repo",
            default=str(settings.BASE_DIR),
            help="the git work tree to read (default: the project)",
        )

    def handle(self, *args, since=None, repo=None, **options):
        try:
            found = undone_translations(Path(repo), since=since)
        except NotARepository as error:
            raise CommandError(f"Cannot read the history: {error}") from error
        for item in found:
            self.stdout.write(
                f"{item.catalog}: {item.msgid!r}\n"
                f"    {item.commit} {item.subject}\n"
                f"    made it: {item.mended}\n"
                f"    now:     {item.now}"
            )
        if found:
            self.stdout.write(f"{len(found)} translation(s) changed back to their older text.")
            raise SystemExit(1)
        self.stdout.write("No translation is back at a text a later commit had changed.")
