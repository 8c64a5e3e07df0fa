"""The house's layers (docs/architecture.md): every import in ``games/`` runs downward
through this stack, no face imports another, and no module imports itself back through
a circle.

    engine < words < scenarios < content < tables < frames < live
           < the faces (rules, learn, play, replay, teach) < the site

What two faces share lives in a layer below them: the walkthrough player's frames
(``frames``: a walkthrough, a recorded game, a lesson) and a live table's page and the
choices that open one (``live``); each face uses them and never another face.
"""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"

#: The faces of the site: one folder per address, side by side, never importing each other.
FACES = ("games.rules", "games.learn", "games.play", "games.replay", "games.teach")

#: The stack, from the bottom up: a module imports its own layer or the layers below.
LAYERS = (
    ("games.engine",),
    ("games.words",),
    ("games.scenarios",),
    (
        "games.content",
        "games.models",
        "games.translation",
        "games.context_processors",
        "games.web_fonts",
    ),
    ("games.tables",),
    ("games.frames",),
    ("games.live",),
    FACES,
    ("games",),  # the site: URLs, admin, app config, template tags, commands, home page
)


def place(module: str) -> str:
    """The entry of the stack that ``module`` belongs to (the longest that names it)."""
    entries = [e for layer in LAYERS for e in layer]
    return max((e for e in entries if module == e or module.startswith(e + ".")), key=len)


def rank(module: str) -> int:
    entry = place(module)
    return next(n for n, layer in enumerate(LAYERS) if entry in layer)


def module_name(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every ``games`` module that ``path`` imports, at the top or inside a function."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:  # ``from games import tables`` imports games.tables
                candidate = f"{base}.{alias.name}"
                found.add(candidate if is_module(candidate) else base)
    return {m for m in found if m == "games" or m.startswith("games.")}


def is_module(name: str) -> bool:
    path = GAMES.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def graph() -> dict[str, set[str]]:
    return {
        module_name(p): imported_modules(p)
        for p in GAMES.rglob("*.py")
        if "migrations" not in p.parts
    }


def test_every_import_in_games_runs_down_the_stack_of_layers():
    upward = [
        f"{source} (rank {rank(source)}) imports {target} (rank {rank(target)})"
        for source, targets in graph().items()
        for target in targets
        if target != "games" and rank(target) > rank(source)
    ]
    assert upward == []


def test_no_face_imports_another_face():
    across = [
        f"{source} imports {target}"
        for source, targets in graph().items()
        for target in targets
        if place(source) in FACES and place(target) in FACES and place(source) != place(target)
    ]
    assert across == []


def test_every_folder_of_games_has_its_place_on_the_stack():
    """A new folder is placed on purpose, not left to count as the site's top."""
    # games.offline: the service worker and manifest, for the whole site (its top)
    site = {"games.templatetags", "games.management", "games.migrations", "games.offline"}
    folders = {f"games.{p.parent.name}" for p in GAMES.glob("*/__init__.py")}
    assert sorted(f for f in folders - site if place(f) == "games") == []


def test_no_module_of_games_imports_itself_back_through_a_circle():
    edges = graph()
    circles = []

    def visit(node: str, trail: list[str]) -> None:
        for target in sorted(edges.get(node, ())):
            if target in trail:
                circles.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target in edges and target not in done:
                visit(target, [*trail, target])
        done.add(node)

    done: set[str] = set()
    for start in sorted(edges):
        if start not in done:
            visit(start, [start])
    assert circles == []


def test_the_layer_check_sees_an_upward_import_and_a_face_using_another():
    """The check itself: the engine importing a face would be caught, and so would a
    face importing another one."""
    assert rank("games.teach.quiz.views") > rank("games.engine.rules")
    assert rank("games.rules.views") > rank("games.content.files")
    assert place("games.teach.sheets.game") != place("games.replay.views")
    assert place("games.teach.sheets.game") in FACES and place("games.replay.views") in FACES
    assert "games.words.texts" in imported_modules(GAMES / "frames" / "narration.py")
