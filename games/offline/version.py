"""The site's version, as the service worker knows it: ``SITE_VERSION`` when set (a
deploy may name its release), else a hash of what makes the pages (static files,
templates, code, compiled translations), read once per process.

The service worker's script carries this version, so a new version makes a byte-
different script: the browser installs it, and on activation it fetches again what the
old one kept and deletes the old kept copy (docs/offline.md). The hash is of file
contents, not dates, so a checkout or a copy of the same release gives the same one.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

#: What a version is made of (below the project's root), by the files' endings.
MADE_OF = (
    ("games", (".py", ".html", ".js", ".css", ".woff2", ".ttf", ".png", ".svg", ".toml")),
    ("templates", (".html",)),
    ("locale", (".mo",)),
)


@cache
def site_version() -> str:
    named = getattr(settings, "SITE_VERSION", "")
    if named:
        return named
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder, endings in MADE_OF:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in endings and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


@receiver(setting_changed)
def _forget_version(setting: str, **kwargs) -> None:
    if setting == "SITE_VERSION":
        site_version.cache_clear()
