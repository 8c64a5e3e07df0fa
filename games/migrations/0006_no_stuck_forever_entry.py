"""The glossary entry "Stuck forever" said a blocked Snap Pot can never be won, which is
false (RULES R18 D): the content now has "Blocked pot" (``blocked-pot``) instead, and
``load_content`` never removes entries, so the old one is removed here."""

from django.db import migrations


def remove_stuck_forever(apps, schema_editor):
    apps.get_model("games", "GlossaryEntry").objects.filter(slug="stuck-forever").delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0005_seat_names_in_letters")]

    operations = [migrations.RunPython(remove_stuck_forever, migrations.RunPython.noop)]
