"""Every walkthrough caption agrees with the table its frame shows.

Each scenario step lists claims about its caption (``check = [...]`` in the scenario
file). Two things are tested:

1. every claim holds on the frame: on the table the page draws (counts, top cards,
   whose turn, who is out, the pot), on the engine's state (who turned last, valid
   calls, hidden cards) and on the step's events (who won how many piles, ties,
   penalties);
2. every fact the English caption mentions (whose turn, who turned, numbers, matches,
   the Snap Pot, being out, empty piles, penalties, wins, ties, lateness, the dealer)
   is backed by a claim of that kind, with the same seat or number.

So a caption that names the wrong player, miscounts, or says a match is showing when
it is not, fails (1) once its claim is written, and fails (2) while it is not.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from django.utils import translation

from games.engine.events import PilesWon, PileTurnedOver, TieToPot, TooLate, WrongCall
from games.frames import narration
from games.frames.walkthroughs import frames, played_scenarios
from games.scenarios.store import DATA_DIR

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "both": 2}
IDIOMS = ("one at a time", "one after another", "one of the")


def step_claims() -> dict[str, list[list[str]]]:
    """slug -> each step's claims, read from the scenario files themselves."""
    claims = {}
    for path in sorted(Path(DATA_DIR).glob("*.toml")):
        raw = tomllib.loads(path.read_text())
        claims[raw["slug"]] = [step.get("check", []) for step in raw["step"]]
    return claims


CLAIMS = step_claims()
SLUGS = list(CLAIMS)


def _seats(text: str) -> set[int]:
    return set() if text == "none" else {int(x) for x in text.split(",")}


def _codes(text: str) -> set[str]:
    return set() if text == "none" else set(text.split(","))


def holds(claim: str, frame: dict, step, start) -> bool:
    """Whether ``claim`` is true of ``frame`` (the page's data) and ``step`` (the engine's)."""
    players = frame["table"]["players"]
    pot = frame["table"]["pot"]
    state, events = step.state, step.events
    word, _, rest = claim.partition(" ")
    key, _, value = (rest or word).partition("=")
    if word.startswith("to_play="):
        return [p["seat"] for p in players if p["to_play"]] == [int(word[8:])]
    if word.startswith("last_turned="):
        return state.last_turned == int(word[12:])
    if word.startswith("dealer="):
        return state.dealer == int(word[7:])
    if word.startswith("snap="):
        return set(state.valid_now.snap) == _seats(word[5:])
    if word.startswith("snap_pot="):
        return set(state.valid_now.snap_pot) == _seats(word[9:])
    if word.startswith("pot_top="):
        top = pot["top"]["code"] if pot["top"] else "none"
        return top == word[8:]
    if word.startswith("pot_cards="):
        return sorted(c.code for c in state.pot) == sorted(_codes(word[10:]))
    if word.startswith("winner="):
        return state.over and state.winner == int(word[7:])
    if word.startswith("having="):
        return sum(not p["out"] for p in players) == int(word[7:])
    if word.startswith("tied="):
        return any(isinstance(e, TieToPot) and len(e.piles) == int(word[5:]) for e in events)
    if word == "over":
        return frame["table"]["over"]
    if word == "index_card":
        return state.options.index_card
    if word == "pot":
        return pot["count"] == int(rest)
    seat = int(key)
    player = players[seat]
    if word == "top":
        return (player["top"]["code"] if player["top"] else "none") == value
    if word in ("face_down", "face_up"):
        return player[word] == int(value)
    if word == "cards":
        return player["face_down"] + player["face_up"] == int(value)
    if word == "out":
        return player["out"]
    if word == "bottom":
        return state.face_down[seat][0].code == value
    if word == "has":
        mine = {c.code for c in state.face_down[seat] + state.face_up[seat]}
        return _codes(value) <= mine
    if word == "since_start":
        return state.total(seat) - start.total(seat) == int(value)
    if word == "won":
        return any(
            isinstance(e, PilesWon) and e.winner == seat and len(e.piles) == int(value)
            for e in events
        )
    if word == "won_pot":
        return any(isinstance(e, PilesWon) and e.winner == seat and e.with_pot for e in events)
    if word == "turned_over":
        return any(
            isinstance(e, PileTurnedOver) and e.seat == seat and e.cards == int(value)
            for e in events
        )
    if word == "wrong":
        return any(
            isinstance(e, WrongCall) and e.seat == seat and e.penalty_to == int(value)
            for e in events
        )
    if word == "too_late":
        return any(isinstance(e, TooLate) and e.seat == seat for e in events)
    raise AssertionError(f"unknown claim {claim!r}")


COUNTS = {"face_down", "face_up", "cards", "pot", "won", "tied", "turned_over", "having"}
LISTS = {"snap", "snap_pot", "pot_cards", "has"}


def numbers_in(claim: str) -> set[int]:
    """The numbers a claim vouches for: a count (never a seat number), or how many
    seats or cards it lists."""
    value = claim.split("=", 1)[1] if "=" in claim else claim.split(" ")[-1]
    if kind(claim) in COUNTS | {"since_start"}:
        return {abs(int(value))}
    if kind(claim) in LISTS and value != "none":
        return {len(value.split(","))}
    return set()


def kind(claim: str) -> str:
    return re.split(r"[ =]", claim, maxsplit=1)[0]


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+", text)


def mentions(caption: str, learner: int) -> list[tuple[str, set[str]]]:
    """What the English caption says, each as (what, the claims any one of which backs it)."""
    said: list[tuple[str, set[str]]] = []
    text = caption
    for idiom in IDIOMS:
        text = text.replace(idiom, "")
    for word, number in NUMBER_WORDS.items():
        if re.search(rf"\b{word}\b", text, re.I):
            said.append((f"the number {word}", {f"number:{number}"}))
    for m in re.finditer(r"It is %\(p(\d)\)s’s turn", text):
        said.append((m[0], {f"to_play={m[1]}", f"last_turned={m[1]}"}))
    for m in re.finditer(r"It was %\(p(\d)\)s’s own turn", text):
        said.append((m[0], {f"last_turned={m[1]}"}))
    for sentence in _sentences(text):
        if not re.search(r"turns? over (?:the|its top card)|turns the whole", sentence):
            continue
        if re.search(r"\byou turn over\b", sentence, re.I):
            said.append((sentence, {f"last_turned={learner}"}))
        elif first := re.search(r"%\(p(\d)\)s", sentence):
            said.append((sentence, {f"last_turned={first[1]}"}))
    checks = [
        (r"\bmatch", {"snap", "snap_pot", "won", "tied"}),
        (r"Snap Pot", {"pot", "pot_top", "pot_cards", "won_pot", "tied"}),
        (r"\bout\b|skipped|only you have cards", {"out"}),
        (r"empty|no face-down cards|last card of", {"face_down", "turned_over"}),
        (r"dealer", {"dealer"}),
        (r"\bgives\b|penalty card goes", {"wrong"}),
        (r"\bbottom\b", {"bottom"}),
        (r"too late", {"too_late"}),
        (r"index card", {"index_card"}),
        (r"has just played", {"last_turned"}),
        (r"\byou win\b", {"won", "winner"}),
        (r"a tie[!.]", {"tied"}),
        (r"%\(card\)s", {"top"}),
    ]
    for pattern, kinds in checks:
        if re.search(pattern, text):
            said.append((pattern, {f"kind:{k}" for k in kinds}))
    return said


def backed(need: set[str], claims: list[str]) -> bool:
    for claim in claims:
        for want in need:
            if want.startswith("kind:") and kind(claim) == want[5:]:
                return True
            if want.startswith("number:") and int(want[7:]) in numbers_in(claim):
                return True
            if claim == want:
                return True
    return False


@pytest.mark.parametrize("slug", SLUGS)
def test_every_caption_claim_holds_on_the_frames_table(slug):
    played = played_scenarios()[slug]
    with translation.override("en"):
        pages = frames(slug)
    assert len(CLAIMS[slug]) == len(played.steps) == len(pages)
    for step, frame, claims in zip(played.steps, pages, CLAIMS[slug], strict=True):
        assert claims, f"{slug} step {step.index} ({step.step.say}) lists no claims"
        false = [c for c in claims if not holds(c, frame, step, played.start)]
        assert not false, f"{slug} step {step.index} ({step.step.say}): false claims {false}"


@pytest.mark.parametrize("slug", SLUGS)
def test_everything_a_caption_says_is_backed_by_a_claim(slug):
    played = played_scenarios()[slug]
    learner = played.scenario.learner
    for step, claims in zip(played.steps, CLAIMS[slug], strict=True):
        with translation.override(None):  # the msgid: the English source
            caption = str(narration.CAPTIONS[step.step.say])
        unbacked = [what for what, need in mentions(caption, learner) if not backed(need, claims)]
        assert not unbacked, f"{slug} step {step.index} ({step.step.say}): {unbacked}"


def test_a_false_caption_claim_is_caught():
    """The checker is not a rubber stamp: wrong seats, counts and cards fail."""
    played = played_scenarios()["running-out"]
    with translation.override("en"):
        pages = frames("running-out")
    step, frame = played.steps[0], pages[0]
    assert holds("cards 2=2", frame, step, played.start)
    for false in ("cards 2=3", "to_play=1", "face_down 0=1", "top 0=3C", "out 2", "snap=0,2"):
        assert not holds(false, frame, step, played.start), false


def test_a_caption_that_mentions_an_unclaimed_fact_is_caught():
    caption = "It is %(p1)s’s turn. %(p2)s has only three cards, and it matches the Snap Pot."
    claims = ["to_play=1", "cards 2=2"]
    unbacked = [what for what, need in mentions(caption, 0) if not backed(need, claims)]
    assert unbacked == ["the number three", r"\bmatch", "Snap Pot"]
