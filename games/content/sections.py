"""The rules sections' titles in the page's language, for the pages that link a rule."""

from games.models import RulesSection


def section_titles() -> dict[str, str]:
    """Each rules section's anchor -> its title in the page's language."""
    return {section.slug: section.title for section in RulesSection.objects.all()}


def with_section_titles(frames: list[dict]) -> list[dict]:
    """Name each rule link's section in the page's language ("Ties and the Snap Pot")."""
    titles = section_titles()
    for frame in frames:
        for links in (frame["clauses"], *(b["clauses"] for b in frame["branches"].values())):
            for link in links:
                link["section"] = titles.get(link["anchor"], "")
    return frames
