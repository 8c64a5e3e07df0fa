"""Well-behaved tables: two people each, turning in turn at a calm pace; every move's
round trip (sent → the event it made received: its own ``card_turned``, or
``game_over`` when the move ended the game) is kept, and every event must reach both
players once, in order ("nothing lost")."""

from __future__ import annotations

import asyncio
import random
import time

from .wire import Closed, Socket, cookie_header, http, open_table

#: The pause between a table's moves: two children turning in turn, about one card a
#: second at the table ...
MOVE_PAUSE_S = 1.0
#: ... give or take this much, at random: children are not metronomes. (Without it the
#: 20 tables, started together, kept moving in the same few milliseconds each second,
#: and every p99 measured mostly how their moves queued behind each other.)
MOVE_PAUSE_SPREAD_S = 0.25


class Player:
    """One person's connection: reads every frame, checks the numbering."""

    def __init__(self, sock: Socket) -> None:
        self.sock = sock
        self.seat: int | None = None
        self.started = False
        self.view: dict = {}
        self.last_seq = 0
        self.gaps = 0  # events missing or repeated
        self.closed = 0  # the server closed a good player's connection
        self.close_code: int | None = None
        self.closed_at = 0.0
        self.turned = asyncio.Event()  # the move sent was answered
        self.answer = ""  # by what: the event's code, or the error's
        self.seen: list[str] = []  # the last frames' kinds (for a move left unanswered)
        self.over = asyncio.Event()
        self.reading = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        try:
            while True:
                frame = await self.sock.receive()
                self.seen = [*self.seen[-5:], f"{frame['type']}:{frame.get('code', '')}"]
                if frame["type"] == "welcome":
                    self.seat, self.view, self.last_seq = frame["seat"], frame["view"], frame["seq"]
                    self.started = frame["started"]
                elif frame["type"] == "seats":
                    self.started = frame["started"]
                elif frame["type"] == "event":
                    if frame["seq"] != self.last_seq + 1:
                        self.gaps += 1
                    self.last_seq = max(self.last_seq, frame["seq"])
                    self.view = frame["view"]
                    if frame["code"] == "card_turned" and frame["params"]["seat"] == self.seat:
                        self.answered("card_turned")
                    if frame["code"] == "game_over":
                        # R19: when the last card allowed left a snap open, the next turn
                        # ends the game without turning a card
                        self.answered("game_over")
                    if self.view["over"]:
                        self.over.set()
                elif frame["type"] == "error":
                    self.answered(frame["code"])  # refused: look at the table again
        except Closed as closed:
            self.closed += 1  # a good player is never closed
            self.close_code = closed.code
            self.closed_at = time.monotonic()
            self.over.set()
            self.answered("closed")

    def answered(self, by: str) -> None:
        if not self.turned.is_set():  # the first answer counts
            self.answer = by
            self.turned.set()


class GoodTable:
    """A pair of players at a table opened from the lobby; new table after each game."""

    def __init__(
        self,
        port: int,
        number: int,
        turn_limit: int = 100,
        pause_s: float = MOVE_PAUSE_S,
        began: float | None = None,
    ) -> None:
        self.began = time.monotonic() if began is None else began  # for the times told
        self.port = port
        self.number = number
        self.turn_limit = turn_limit
        self.pause_s = pause_s
        self.round_trips: list[tuple[float, float]] = []  # (when, ms)
        self.lost = {"gaps": 0, "closed": 0, "unanswered": 0}
        self.unanswered: list[dict] = []  # what each unanswered move's players had seen
        self.closed_codes: list[dict] = []  # how and when good players were closed
        self.answers: dict[str, int] = {}  # what answered the moves: event or error code
        self.games = 0
        self.finished: list[str] = []
        self.stopping = False
        self.pauses = random.Random(number)  # the same pauses run after run

    async def seat_pair(self) -> tuple[Player, Player, str]:
        opener_cookies: dict = {}
        code = await open_table(self.port, opener_cookies, f"A{self.number}", self.turn_limit)
        joiner_cookies: dict = {}
        await http(self.port, "GET", f"/en/play/{code}/", joiner_cookies)
        path = f"/ws/play/{code}/"
        a = Player(await Socket.open(self.port, path, cookie_header(opener_cookies)))
        b = Player(await Socket.open(self.port, path, cookie_header(joiner_cookies)))
        await a.sock.send({"type": "hello"})
        await b.sock.send({"type": "hello"})
        await b.sock.send({"type": "join", "name": f"B{self.number}"})
        while a.seat is None or b.seat is None or not (a.started and b.started):
            closed = [p.close_code for p in (a, b) if p.closed]
            if closed:
                raise RuntimeError(f"table {code}: a player was closed ({closed}) before play")
            await asyncio.sleep(0.02)
        return a, b, code

    async def run(self, games: int | None = None) -> None:
        """Play game after game (``games`` of them, or until ``stopping``)."""
        while not self.stopping and (games is None or self.games < games):
            a, b, code = await self.seat_pair()
            players = {a.seat: a, b.seat: b}
            while not self.stopping and not a.over.is_set():
                mover = players.get(a.view.get("to_play"))
                if mover is None:
                    await asyncio.sleep(0.05)
                    continue
                mover.turned.clear()
                mover.answer = ""
                seq = mover.last_seq
                sent = time.monotonic()
                await mover.sock.send({"type": "turn"})
                try:
                    async with asyncio.timeout(10):
                        await mover.turned.wait()
                except TimeoutError:
                    self.lost["unanswered"] += 1  # no event for the move in 10 s
                    self.unanswered.append(
                        {"code": code, "seat": mover.seat, "seq": seq, "seen": mover.seen,
                         "at_s": round(sent - self.began, 1)}
                    )  # fmt: skip
                self.answers[mover.answer] = self.answers.get(mover.answer, 0) + 1
                self.round_trips.append((sent, (time.monotonic() - sent) * 1000))
                spread = min(MOVE_PAUSE_SPREAD_S, self.pause_s / 2)
                await asyncio.sleep(self.pause_s + self.pauses.uniform(-spread, spread))
            await asyncio.sleep(0.3)  # the last events
            self.lost["gaps"] += a.gaps + b.gaps
            self.lost["closed"] += a.closed + b.closed
            for p in (a, b):
                if p.closed:
                    self.closed_codes.append(
                        {"code": p.close_code, "at_s": round(p.closed_at - self.began, 1)}
                    )
            if a.over.is_set() and a.view.get("over"):
                self.games += 1
                self.finished.append(code)
            for p in (a, b):
                p.reading.cancel()
                p.sock.close()
