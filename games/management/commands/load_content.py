"""Load the rules sections and glossary from ``games/content`` into the database.

Idempotent: running it again updates the rows in place (matched by slug)
and removes none that staff added. Everything is checked before anything
is written, so a broken file changes nothing.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.content_files import LANGUAGE_CODES, ContentError, load_language, load_shape
from games.models import GlossaryEntry, RulesSection


class Command(BaseCommand):
    help = "Load the rules text and glossary (all six languages) from games/content."

    def handle(self, *args, **options):
        try:
            shape = load_shape()
            texts = {lang: load_language(lang, shape) for lang in LANGUAGE_CODES}
        except ContentError as exc:
            raise CommandError(f"Content not loaded: {exc}") from exc

        with transaction.atomic():
            for section in shape.sections:
                values = {"order": section.order, "clauses": ",".join(section.clauses)}
                for lang in LANGUAGE_CODES:
                    entry = texts[lang]["sections"][section.slug]
                    values[f"title_{lang}"] = entry["title"]
                    values[f"body_{lang}"] = entry["body"]
                RulesSection.objects.update_or_create(slug=section.slug, defaults=values)
            for order, slug in enumerate(shape.glossary, start=1):
                values = {"order": order}
                for lang in LANGUAGE_CODES:
                    entry = texts[lang]["glossary"][slug]
                    values[f"term_{lang}"] = entry["term"]
                    values[f"definition_{lang}"] = entry["definition"]
                GlossaryEntry.objects.update_or_create(slug=slug, defaults=values)
        self.stdout.write(
            f"Loaded {len(shape.sections)} rules sections and {len(shape.glossary)} glossary "
            f"entries in {len(LANGUAGE_CODES)} languages."
        )
