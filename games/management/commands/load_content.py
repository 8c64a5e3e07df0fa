"""Load the rules sections, glossary and start steps from ``games/content`` into the database.

Idempotent: running it again updates the rows in place (matched by slug)
and removes none that staff added. Everything is checked before anything
is written, so a broken file changes nothing. With the texts come the
translations' sources (``sources/<lang>.toml``): the fingerprint of the
English each translation was made from.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.content.files import (
    LANGUAGE_CODES,
    TRANSLATED_LANGUAGES,
    ContentError,
    content_dir,
    load_language,
    load_shape,
    load_sources,
)
from games.content.version import bump
from games.models import GlossaryEntry, RulesSection, StartStep

MODELS = {"sections": RulesSection, "glossary": GlossaryEntry, "start": StartStep}


class Command(BaseCommand):
    help = "Load the rules text, glossary and start page (all six languages) from games/content."

    def add_arguments(self, parser):
        parser.add_argument(
            "--content-dir",
            type=Path,
            help="Read the content from this directory (default: settings.SNAP_CONTENT_DIR "
            "or games/content).",
        )

    def handle(self, *args, **options):
        directory = options.get("content_dir") or content_dir()
        try:
            shape = load_shape(directory)
            texts = {lang: load_language(lang, shape, directory) for lang in LANGUAGE_CODES}
            sources = {lang: load_sources(lang, shape, directory) for lang in TRANSLATED_LANGUAGES}
        except ContentError as exc:
            raise CommandError(f"Content not loaded: {exc}") from exc

        orders = {
            "sections": {s.slug: s.order for s in shape.sections},
            "glossary": {slug: i for i, slug in enumerate(shape.glossary, start=1)},
            "start": {slug: i for i, slug in enumerate(shape.start, start=1)},
        }
        clauses = {s.slug: ",".join(s.clauses) for s in shape.sections}
        with transaction.atomic():
            for kind, model in MODELS.items():
                for slug, order in orders[kind].items():
                    values = {"order": order}
                    if kind == "sections":
                        values["clauses"] = clauses[slug]
                    for lang in LANGUAGE_CODES:
                        for field, text in texts[lang][kind][slug].items():
                            values[f"{field}_{lang}"] = text
                    for lang in TRANSLATED_LANGUAGES:
                        values[f"source_{lang}"] = sources[lang][f"{kind}.{slug}"]
                    model.objects.update_or_create(slug=slug, defaults=values)
        bump()  # every process's cached pages are made again (also after bulk updates)
        self.stdout.write(
            f"Loaded {len(shape.sections)} rules sections, {len(shape.glossary)} glossary "
            f"entries and {len(shape.start)} start steps in {len(LANGUAGE_CODES)} languages."
        )
