"""The site's pages the benchmarks visit, by name, one address each: ``{lang}`` is the
language, ``{game}`` a finished game's code (:data:`STORE_GAME` stores one) and
``{table}`` an open table's."""

PAGES = {
    "home": "/{lang}/",
    "rules": "/{lang}/rules/",
    "glossary": "/{lang}/glossary/",
    "start": "/{lang}/start/",
    "learn": "/{lang}/learn/",
    "walkthrough": "/{lang}/learn/first-turns/",
    "lobby": "/{lang}/play/",
    "table": "/{lang}/play/{table}/",
    "replay": "/{lang}/replay/{game}/",
    "lesson": "/{lang}/replay/{game}/lesson/?seat=0",
    "teach": "/{lang}/teach/",
    "quiz": "/{lang}/teach/quiz/?seed=1",
    "sheet": "/{lang}/teach/sheet/?parts=start,glossary",
}

#: ``manage.py shell -c`` code that stores a finished game and prints its code.
STORE_GAME = "from games.replay.sample import store_sample_game; print(store_sample_game())"
