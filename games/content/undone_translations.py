"""Translations a later change quietly took back.

A merge that takes one side's whole catalog, or makes the catalogs again from an older
copy, puts back the text an entry had before someone mended it, and nothing fails: the
entry is still translated. On 2026-12-05, 114 texts the second language reviews had
mended were found back at their older wording this way. This reads the history of each
catalog in git: an entry whose text now is not the one the last commit to change it gave
it, but a text some commit had replaced, was taken back by a merge. (A commit that
changes a text back on purpose is itself the last change, so it is not reported.)
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

CATALOGS = ("django.po", "djangojs.po")


@dataclass(frozen=True)
class Undone:
    catalog: str  # e.g. "ms/django.po"
    msgid: str
    commit: str  # the last commit to change the entry, whose text is gone (short hash)
    subject: str  # its first line
    now: str  # the text the entry has again
    mended: str  # the text that commit gave it


class NotARepository(Exception):
    """The folder is not in a git work tree, or git is missing."""


def _git(repo: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            # safe.directory: only reads; a checkout owned by another user (CI's root) is fine
            ["git", "-c", "safe.directory=*", "-C", str(repo), *args],
            capture_output=True,
            text=True,
            errors="replace",
        )
    except FileNotFoundError as error:
        raise NotARepository("git is not installed") from error
    if done.returncode != 0:
        raise NotARepository(done.stderr.strip() or f"git {args[0]} failed")
    return done.stdout


def _texts(catalog_text: str | None) -> dict[tuple, str]:
    """Entry key -> its text (plural forms joined), for the translated, current entries."""
    import polib

    if not catalog_text:
        return {}
    texts = {}
    for entry in polib.pofile(catalog_text):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            text = "\x00".join(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
        else:
            text = entry.msgstr
        if text.strip("\x00"):
            texts[(entry.msgctxt, entry.msgid, entry.msgid_plural)] = text
    return texts


#: git's name for "no such file" on one side of a change (added or deleted there).
_NO_BLOB = "0" * 40


class _Blobs:
    """Catalog texts by blob id, each read and parsed once: the text a commit makes is
    the text the next commit to the catalog starts from."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.parsed: dict[str, dict[tuple, str]] = {}

    def texts(self, blob: str) -> dict[tuple, str]:
        if blob == _NO_BLOB:
            return {}
        if blob not in self.parsed:
            self.parsed[blob] = _texts(_git(self.repo, "cat-file", "blob", blob))
        return self.parsed[blob]


def _changes(top: Path, path: str, span: list[str]) -> list[tuple[str, str, str, str]]:
    """(commit, subject, blob before, blob after) for each commit that changed ``path``,
    oldest first."""
    # --full-history: a merge that took one side's whole file would otherwise hide
    # the other side's commits, the very ones whose texts it took back.
    log = _git(
        top, "log", "--full-history", "--no-merges", "--reverse", "--raw", "--no-abbrev",
        "--format=%x00%h %s", *span, "--", path,
    )  # fmt: skip
    changes = []
    for record in log.split("\x00")[1:]:
        head, *raw = record.strip("\n").split("\n")
        commit, _, subject = head.partition(" ")
        for line in raw:
            if line.startswith(":"):
                fields = line.split("\t")[0].split()
                changes.append((commit, subject, fields[2], fields[3]))
                break
    return changes


def undone_translations(repo: Path, since: str | None = None) -> list[Undone]:
    """Every catalog entry whose text on disk is not what the last commit to change it
    (since ``since``, a revision; default: all history) made it, but a text one of those
    commits had replaced."""
    repo = Path(repo)
    top = Path(_git(repo, "rev-parse", "--show-toplevel").strip())
    blobs = _Blobs(top)
    found = []
    for path in sorted(_git(top, "ls-files", "--", "locale").split()):
        if Path(path).name not in CATALOGS:
            continue
        on_disk = top / path  # what the site compiles, committed or not
        now = _texts(on_disk.read_text(encoding="utf-8") if on_disk.exists() else None)
        span = [f"{since}..HEAD"] if since else ["HEAD"]
        last = {}  # entry key -> (commit, subject, the text it made)
        replaced = {}  # entry key -> texts some commit replaced
        for commit, subject, blob_before, blob_after in _changes(top, path, span):
            before = blobs.texts(blob_before)
            for key, made in blobs.texts(blob_after).items():
                old = before.get(key)
                if old is not None and old != made:
                    last[key] = (commit, subject, made)
                    replaced.setdefault(key, set()).add(old)
        for key, (commit, subject, made) in last.items():
            text = now.get(key)
            if text is not None and text != made and text in replaced[key]:
                found.append(
                    Undone(
                        catalog="/".join(Path(path).parts[-3::2]),
                        msgid=key[1],
                        commit=commit,
                        subject=subject,
                        now=text.replace("\x00", " | "),
                        mended=made.replace("\x00", " | "),
                    )
                )
    return found
