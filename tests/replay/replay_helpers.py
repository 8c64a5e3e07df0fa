"""Finished games stored as live tables, for the replay tests (pages and browser): the
storing is the benchmarks' own (``games.replay.sample.store_game``); the page's frames
are opened out here as the page's script does."""

from __future__ import annotations

import json
import re

from games.replay.sample import store_game

__all__ = ["page_frames", "store_game"]


def page_frames(html: str) -> list[dict]:
    """The player's frames of a replay or lesson page, opened out as
    ``games/js/frames.js`` does (the same rules, in Python)."""
    match = re.search(
        r'<script id="walkthrough-frames" type="application/json">(.*?)</script>', html, re.S
    )
    data = json.loads(match.group(1))
    if isinstance(data, list):
        return data

    def card(code):
        return data["cards"][code] if code else None

    def links(ids):
        return [data["rules"][i] for i in ids or []]

    standing_in = data.get("standing_in", data["names"])

    def names_at(stood_in, keep):
        return [
            standing_in[seat] if seat in stood_in and seat != keep else name
            for seat, name in enumerate(data["names"])
        ]

    def table(t, names):
        if t is None:
            return None
        players = [
            {
                "seat": seat,
                "name": names[seat],
                "face_down": face_down,
                "face_up": face_up,
                "top": card(top),
                "out": bool(flags & 1),
                "to_play": bool(flags & 2),
                "learner": seat == data["learner"],
                "changed": bool(flags & 4),
            }
            for seat, (face_down, face_up, top, flags) in enumerate(t["p"])
        ]
        count, top, flags = t["pot"]
        pot = {"count": count, "top": card(top), "blocked": bool(flags & 1)}
        return {"players": players, "pot": {**pot, "changed": bool(flags & 2)}, "over": t["o"]}

    def answer(b, names):
        return {
            "outcome": b["o"],
            "note": data["texts"][b["n"]],
            "events": [data["texts"][i] for i in b.get("e", [])],
            "clauses": links(b.get("r")),
            "table": table(b["t"], names),
        }

    return [
        {
            "number": i + 1,
            "caption": data["texts"][f["c"]],
            "events": [],
            "clauses": links(f.get("r")),
            "expects": f.get("x"),
            "table": table(f["t"], names_at(f.get("a", []), None)),
            "branches": {
                press: answer(b, names_at(f.get("a", []), data["learner"]))
                for press, b in f.get("b", {}).items()
            },
            "stood_in": f.get("a", []),
        }
        for i, f in enumerate(data["frames"])
    ]
