"""After a close for flooding, the address's next WebSockets wait (games.play.ws_flood_penalty)."""

from __future__ import annotations

from games.play.ws_flood_penalty import ADDRESSES_KEPT, STRIKES_WINDOW_S, FloodPenalties


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_never_closed_for_flooding_waits_for_nothing():
    penalties = FloodPenalties(Clock())
    assert penalties.wait_before("10.0.0.1", 4.0) == 0.0


def test_the_wait_doubles_with_each_flood_close_up_to_the_most():
    clock = Clock()
    penalties = FloodPenalties(clock)
    waits = []
    for _ in range(5):
        penalties.flooded("10.0.0.66", 1.0, 4.0)
        waits.append(penalties.wait_before("10.0.0.66", 4.0))
        clock.now += waits[-1]  # served after its wait, floods, is closed again
    assert waits == [1.0, 2.0, 4.0, 4.0, 4.0]
    assert penalties.wait_before("10.0.0.7", 4.0) == 0.0  # nobody else waits


def test_handshakes_at_once_are_spaced_and_refused_beyond_the_most():
    penalties = FloodPenalties(Clock())
    penalties.flooded("10.0.0.66", 1.0, 4.0)
    waits = [penalties.wait_before("10.0.0.66", 4.0) for _ in range(5)]
    assert waits == [1.0, 2.0, 3.0, 4.0, None]  # one a second, then refused


def test_an_address_is_forgiven_a_window_after_its_last_flood_close():
    clock = Clock()
    penalties = FloodPenalties(clock)
    penalties.flooded("10.0.0.66", 1.0, 4.0)
    penalties.flooded("10.0.0.66", 1.0, 4.0)
    clock.now += STRIKES_WINDOW_S + 1
    assert penalties.wait_before("10.0.0.66", 4.0) == 0.0
    penalties.flooded("10.0.0.66", 1.0, 4.0)
    assert penalties.wait_before("10.0.0.66", 4.0) == 1.0  # counted from one again


def test_no_wait_is_set_when_the_penalty_is_off():
    penalties = FloodPenalties(Clock())
    penalties.flooded("10.0.0.66", 0.0, 4.0)
    assert penalties.wait_before("10.0.0.66", 4.0) == 0.0


def test_the_addresses_remembered_are_bounded():
    clock = Clock()
    penalties = FloodPenalties(clock)
    for n in range(ADDRESSES_KEPT + 50):
        penalties.flooded(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", 1.0, 4.0)
    assert len(penalties._addresses) == ADDRESSES_KEPT
    assert penalties.wait_before("10.0.0.0", 4.0) == 0.0  # the oldest was forgotten
