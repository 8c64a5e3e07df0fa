"""The house's layers (README, "Layout"): every import in ``games/`` runs downward
through this stack, and no module imports itself back through a circle.

    engine < words < scenarios < content < tables < learn < rules pages < play
           < replay < teach < the site (urls, admin, template tags, commands)

A face may use the faces below it (a replay is shown in the walkthrough player, a
lesson sheet prints a walkthrough and a game), never one above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"

#: Module prefix -> rank; the longest prefix that matches a module decides.
RANKS = {
    "games.engine": 0,
    "games.words": 1,
    "games.scenarios": 2,
    "games.content": 3,
    "games.models": 3,
    "games.translation": 3,
    "games.context_processors": 3,
    "games.templatetags.snap_text": 3,  # the content files' small markup
    "games.tables": 4,
    "games.frames": 5,
    "games.live": 5,
    "games.learn": 5,
    "games.rules": 6,
    "games.play": 7,
    "games.replay": 8,
    "games.teach": 9,
    "games": 10,
}


def rank(module: str) -> int:
    best = max((p for p in RANKS if module == p or module.startswith(p + ".")), key=len)
    return RANKS[best]


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


def test_the_layer_check_sees_an_upward_import():
    """The check itself: the engine importing a face would be caught."""
    assert rank("games.teach.quiz.views") > rank("games.engine.rules")
    assert rank("games.rules.views") > rank("games.content.files")
    assert "games.words.texts" in imported_modules(GAMES / "frames" / "narration.py")
