"""The repository itself: every translation present and made from today's English.

This runs ``content_status`` on the real content and catalogs. It fails while
a language has a missing or stale unit or catalog entry, and the listing in
the failure says which (run ``python manage.py content_status`` to see it).
"""

from io import StringIO

from django.core.management import CommandError, call_command


def test_every_translation_in_the_repository_is_present_and_current():
    out = StringIO()
    try:
        call_command("content_status", stdout=out)
    except CommandError as exc:
        raise AssertionError(f"{exc}\n{out.getvalue()}") from None
