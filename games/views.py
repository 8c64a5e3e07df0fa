from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import walkthroughs
from .models import GlossaryEntry, RulesSection, StartStep


def home(request):
    return render(request, "games/home.html")


def rules(request):
    sections = list(RulesSection.objects.all())
    by_section = walkthroughs.walkthroughs_by_section()
    for section in sections:
        section.walkthroughs = by_section.get(section.slug, [])
    return render(request, "games/rules.html", {"sections": sections})


def glossary(request):
    entries = GlossaryEntry.objects.all()
    return render(request, "games/glossary.html", {"entries": entries})


def start(request):
    """The "Play in two minutes" page. A language whose steps are not all translated
    yet gets a notice and links (its own rules, the English page), not English text."""
    steps = list(StartStep.objects.all())
    lang = get_language()
    translated = bool(steps) and all(step.is_translated(lang) for step in steps)
    context = {"steps": steps if translated else [], "untranslated": bool(steps) and not translated}
    return render(request, "games/start.html", context)


def teach(request):
    return render(request, "games/teach.html")


def learn(request):
    return render(request, "games/learn.html", {"walkthroughs": walkthroughs.summaries()})


def section_titles() -> dict[str, str]:
    """Each rules section's anchor -> its title in the page's language."""
    return {section.slug: section.title for section in RulesSection.objects.all()}


def named_clause_links(clauses) -> list[dict]:
    """Rule links that also name their section in the page's language, so that a child
    reads "Mistakes (R13)", not only "R13"."""
    titles = section_titles()
    return [
        {**link, "section": titles.get(link["anchor"], "")}
        for link in walkthroughs.clause_links(clauses)
    ]


def with_section_titles(frames: list[dict]) -> list[dict]:
    """Name each rule link's section in the page's language ("Ties and the Snap Pot")."""
    titles = section_titles()
    for frame in frames:
        for links in (frame["clauses"], *(b["clauses"] for b in frame["branches"].values())):
            for link in links:
                link["section"] = titles.get(link["anchor"], "")
    return frames


def walkthrough(request, slug: str):
    items = walkthroughs.summaries()
    current = next((w for w in items if w.slug == slug), None)
    if current is None:
        raise Http404(_("There is no walkthrough with that name."))
    following = next((w for w in items if w.number == current.number + 1), None)
    context = {
        "walkthrough": current,
        "following": following,
        "frames": with_section_titles(walkthroughs.frames(slug)),
        "total": len(items),
    }
    return render(request, "games/walkthrough.html", context)
