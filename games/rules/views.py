"""The "Read the rules" pages: the rules, the glossary and "Play in two minutes"."""

from django.shortcuts import render
from django.utils.translation import get_language

from games.frames import walkthroughs
from games.models import GlossaryEntry, RulesSection, StartStep


def rules(request):
    sections = list(RulesSection.objects.all())
    by_section = walkthroughs.walkthroughs_by_section()
    for section in sections:
        section.walkthroughs = by_section.get(section.slug, [])
    return render(request, "rules/rules.html", {"sections": sections})


def glossary(request):
    entries = GlossaryEntry.objects.all()
    return render(request, "rules/glossary.html", {"entries": entries})


def start(request):
    """The "Play in two minutes" page. A language whose steps are not all translated
    yet gets a notice and links (its own rules, the English page), not English text."""
    steps = list(StartStep.objects.all())
    lang = get_language()
    translated = bool(steps) and all(step.is_translated(lang) for step in steps)
    context = {"steps": steps if translated else [], "untranslated": bool(steps) and not translated}
    return render(request, "rules/start.html", context)
