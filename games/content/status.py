"""What is missing or stale in each language: content units and interface catalogs.

A content unit (rules section, glossary entry, start step) is *stale* when
the English changed after its translation was made (the fingerprint its
language recorded differs from the English's today) and *missing* when it
has no text or no record of what it was translated from. An interface
catalog entry is missing when it is fuzzy, empty, or absent from the
language's catalog while the English catalog has it.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from games.content.files import (
    CURRENT,
    MISSING,
    STALE,
    TRANSLATED_LANGUAGES,
    ContentError,
    ContentShape,
    fingerprint,
    load_language,
    load_shape,
    load_sources,
    translation_state,
    unit_texts,
    write_sources,
)

CATALOGS = ("django.po", "djangojs.po")


@dataclass(frozen=True)
class Problem:
    lang: str
    where: str  # a unit id (``sections.play``) or a catalog (``django.po``)
    state: str  # ``missing`` or ``stale``
    detail: str


def _unit_detail(state: str, texts: tuple[str, ...]) -> str:
    if state == STALE:
        return "the English changed after it was translated"
    if not all(t.strip() for t in texts):
        return "no text"
    return "not translated yet"


def content_problems_from_files(
    directory: Path | None = None, languages: Iterable[str] = TRANSLATED_LANGUAGES
) -> list[Problem]:
    """Compare each language's files with the English files and the sources records."""
    shape = load_shape(directory)
    english = load_language("en", shape, directory)
    problems = []
    for lang in languages:
        texts = load_language(lang, shape, directory)
        sources = load_sources(lang, shape, directory)
        for unit_id in shape.unit_ids():
            translated = unit_texts(texts, unit_id)
            state = translation_state(unit_texts(english, unit_id), translated, sources[unit_id])
            if state != CURRENT:
                problems.append(Problem(lang, unit_id, state, _unit_detail(state, translated)))
    return problems


def content_problems_from_database(
    languages: Iterable[str] = TRANSLATED_LANGUAGES,
) -> list[Problem]:
    """The same comparison on what the site serves (staff may have edited it in the admin)."""
    from games.models import GlossaryEntry, RulesSection, StartStep

    units = [u for model in (RulesSection, GlossaryEntry, StartStep) for u in model.objects.all()]
    problems = []
    for lang in languages:
        for unit in units:
            state = unit.translation_state(lang)
            if state != CURRENT:
                detail = _unit_detail(state, unit.texts(lang))
                problems.append(Problem(lang, unit.unit_id, state, detail))
    return problems


def catalog_problems(
    locale_dir: Path, languages: Iterable[str] = TRANSLATED_LANGUAGES
) -> list[Problem]:
    import polib

    problems = []
    for name in CATALOGS:
        english_path = locale_dir / "en" / "LC_MESSAGES" / name
        expected = {}
        if english_path.exists():
            expected = {
                (e.msgctxt, e.msgid): e.msgid
                for e in polib.pofile(str(english_path))
                if not e.obsolete
            }
        for lang in languages:
            path = locale_dir / lang / "LC_MESSAGES" / name
            if not path.exists():
                problems.append(Problem(lang, name, MISSING, "the catalog file is missing"))
                continue
            present = set()
            for entry in polib.pofile(str(path)):
                if entry.obsolete:
                    continue
                present.add((entry.msgctxt, entry.msgid))
                if "fuzzy" in entry.flags:
                    problems.append(Problem(lang, name, MISSING, f"fuzzy: {entry.msgid!r}"))
                elif not entry.translated():
                    problems.append(Problem(lang, name, MISSING, f"empty: {entry.msgid!r}"))
            for key in sorted(set(expected) - present, key=lambda k: (k[0] or "", k[1])):
                detail = f"not in the catalog: {expected[key]!r}"
                problems.append(Problem(lang, name, MISSING, detail))
    return problems


def resolve_unit_ids(shape: ContentShape, names: Iterable[str]) -> list[str]:
    """Turn ``sections.play`` or a bare unambiguous ``play`` into unit ids.

    Raises ContentError naming every unknown or ambiguous name.
    """
    known = shape.unit_ids()
    resolved, errors = [], []
    for name in names:
        if name in known:
            resolved.append(name)
            continue
        matches = [u for u in known if u.split(".", 1)[1] == name]
        if len(matches) == 1:
            resolved.append(matches[0])
        elif matches:
            errors.append(f"{name!r} is ambiguous: say {' or '.join(matches)}")
        else:
            errors.append(f"{name!r} is not a unit (units look like sections.play, start.deal)")
    if errors:
        raise ContentError("; ".join(errors))
    return list(dict.fromkeys(resolved))


def mark_translated(
    languages: Iterable[str], names: Iterable[str], directory: Path | None = None
) -> dict[str, list[str]]:
    """Record that these units of these languages were translated from today's English.

    With no names, every unit whose text is not a copy of the English is
    marked. A named unit whose text is still the English is refused. All is
    checked before any file is written. Returns the units whose record
    changed, per language.
    """
    shape = load_shape(directory)
    names = list(names)
    wanted = resolve_unit_ids(shape, names) if names else shape.unit_ids()
    english = load_language("en", shape, directory)
    plans, errors = {}, []
    for lang in languages:
        if lang not in TRANSLATED_LANGUAGES:
            errors.append(
                f"{lang!r} is not a translated language ({', '.join(TRANSLATED_LANGUAGES)})"
            )
            continue
        texts = load_language(lang, shape, directory)
        sources = load_sources(lang, shape, directory)
        changed = []
        for unit_id in wanted:
            source_text = unit_texts(english, unit_id)
            if unit_texts(texts, unit_id) == source_text:
                if names:
                    errors.append(
                        f"{lang}: {unit_id} is still the English text; translate it first"
                    )
                continue
            new = fingerprint(*source_text)
            if sources[unit_id] != new:
                sources[unit_id] = new
                changed.append(unit_id)
        plans[lang] = (sources, changed)
    if errors:
        raise ContentError("; ".join(errors))
    for lang, (sources, _changed) in plans.items():
        write_sources(lang, sources, shape, directory)
    return {lang: changed for lang, (_sources, changed) in plans.items()}
