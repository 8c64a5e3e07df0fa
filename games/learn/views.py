"""The "Learn by doing" pages: the list of walkthroughs and one walkthrough."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.content.sections import with_section_titles
from games.frames import walkthroughs


def learn(request):
    return render(request, "learn/index.html", {"walkthroughs": walkthroughs.summaries()})


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
    return render(request, "learn/walkthrough.html", context)
