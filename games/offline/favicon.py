"""Make the site's tab icon (committed): ``/favicon.ico``, the one file browsers ask the
root for (games/site_icons.py; base.html links its hashed copy).

    .venv/bin/python -m games.offline.favicon

The picture is the installed app's (games/offline/icons.py draws it, and the PNGs for
bookmarks and the manifest), here at 16, 32 and 48 px in one ICO file, written to
games/static/games/icons/favicon.ico.
"""

from __future__ import annotations

from games.offline.icons import OUT, draw


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "favicon.ico"
    draw(48).save(path, sizes=[(16, 16), (32, 32), (48, 48)])
    print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
