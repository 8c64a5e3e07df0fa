"""One test (or more) per clause R1..R23 of RULES.md, named for it, plus every (D)."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    Bot,
    CallJoined,
    CallSnap,
    CallSnapPot,
    Card,
    CardTurned,
    CloseRace,
    GameOver,
    Options,
    PilesWon,
    PileTurnedOver,
    PlayerBack,
    PlayerOut,
    RaceOpened,
    Rejected,
    TieToPot,
    TooLate,
    TurnCard,
    WrongCall,
    apply,
    deal,
    full_deck,
    new_game,
    view,
)
from games.engine.pot import AFTER_TIE, MATCH, NEVER, NO_POT, pot_outlook

from .helpers import cards, codes, kinds, play, table

# -- R1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 7, 12])
def test_r1_two_to_twelve_players_can_play(players):
    state = new_game(players, random.Random(players))
    assert state.players == players
    assert len(state.face_down) == players
    assert state.card_total() == 52


@pytest.mark.parametrize("players", [0, 1, 13, "4", 2.0])
def test_r1_fewer_than_two_or_more_than_twelve_players_is_refused(players):
    with pytest.raises(ValueError):
        new_game(players, random.Random(0))
    with pytest.raises(ValueError):
        deal(players, full_deck(), 0)


def test_r1_from_piles_checks_the_number_of_seats():
    with pytest.raises(ValueError):
        table(["2S"])


# -- R2 ---------------------------------------------------------------------------------


def test_r2_one_deck_of_52_cards_13_ranks_in_4_suits():
    deck = full_deck()
    assert len(set(deck)) == 52
    assert {c.rank for c in deck} == set(range(1, 14))
    assert {c.suit for c in deck} == {"S", "H", "D", "C"}
    assert [c.code for c in deck[:13]] == "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS".split()


def test_r2_cards_match_on_rank_and_suits_do_not_matter():
    assert Card.parse("5H").matches(Card.parse("5D"))
    assert not Card.parse("5H").matches(Card.parse("6H"))
    assert set(table(["2S", "3S"], ["5H", "5D"]).valid_calls().snap) == {0, 1}
    assert table(["2S", "3S"], ["5H", "6H"]).valid_calls().snap == ()


def test_r2_deal_refuses_a_deck_that_is_not_one_full_deck():
    deck = list(full_deck())
    with pytest.raises(ValueError):
        deal(2, deck[:-1], 0)
    with pytest.raises(ValueError):
        deal(2, deck[:-1] + deck[:1], 0)


def test_r2_card_codes_round_trip():
    for card in full_deck():
        assert Card.parse(card.code) == card
    assert Card.parse("10H") == Card(10, "H")
    assert Card.parse("AS").rank == 1 and Card.parse("QD").rank == 12
    with pytest.raises(ValueError):
        Card.parse("1H")


# -- R3 / R17 ---------------------------------------------------------------------------


def _last_snap_wins_everything():
    # Seat 1 has only a face-up 7; seat 0 turns a 7 and calls "Snap!".
    state = table(["4S 7D", ""], ["", "7C"])
    return play(state, TurnCard(0, 0), CallSnap(0, 10), CloseRace(160))


def test_r3_goal_is_to_win_all_the_cards():
    state, events = _last_snap_wins_everything()
    assert state.total(0) == 3 and state.card_total() == 3
    assert state.winner == 0


def test_r17_game_ends_when_one_player_has_won_all_the_cards():
    state, events = _last_snap_wins_everything()
    assert events[-2:] == [PlayerOut(1), GameOver(0, False, "all_cards", (0,))]
    assert state.over and state.winner == 0 and not state.draw
    assert apply(state, TurnCard(0, 200)).events == (Rejected(0, "game_over"),)


# -- R4 / R20 ---------------------------------------------------------------------------


def test_r4_dealer_is_chosen_at_random_and_recorded():
    dealers = {new_game(5, random.Random(seed)).dealer for seed in range(40)}
    assert dealers == set(range(5))
    state = new_game(5, random.Random(3))
    assert deal(5, state.deck, state.dealer) == state


def test_r4_whole_deck_dealt_as_evenly_as_possible_starting_left_of_dealer():
    state = deal(5, full_deck(), dealer=2)
    assert [len(p) for p in state.face_down] == [10, 10, 10, 11, 11]
    assert state.face_down[3][0] == Card.parse("AS")  # first card to the dealer's left


def test_r20_deal_order_is_exact_one_card_at_a_time_laid_on_top():
    deck = full_deck()
    state = deal(4, deck, dealer=3)
    for seat in range(4):
        assert state.face_down[seat] == deck[seat::4]  # bottom to top = order dealt
    assert state.face_down[0][-1] == deck[48]  # the last card dealt to seat 0 is his top


def test_r20_seats_are_clockwise_left_is_next_right_is_previous():
    # Left: the first player is on the dealer's left (next seat).
    assert deal(4, full_deck(), dealer=3).to_play == 0
    # Right: a wrong call on one's own turn goes to the previous seat.
    state = table(["2S 3S", "4S 5S", "6S 7S"], to_play=0)
    state, events = play(state, TurnCard(0, 0), CallSnap(0, 10))
    assert events[-1] == WrongCall(0, "snap", 2, True)


def test_r20_only_a_freshly_dealt_game_has_no_player_who_turned_last():
    assert deal(3, full_deck(), dealer=0).last_turned is None
    assert new_game(4, random.Random(2)).last_turned is None
    assert apply(deal(3, full_deck(), dealer=0), TurnCard(1, 0)).state.last_turned == 1
    assert table(["2S", "3S", "4S"], to_play=1).last_turned is not None


def test_r20_position_without_last_turned_names_the_player_on_the_right_of_the_player_to_play():
    assert table(["2S", "3S", "4S"], to_play=1).last_turned == 0
    assert table(["2S", "3S", "4S"], to_play=0).last_turned == 2
    assert table(["2S", "3S", "4S", "5S"], to_play=3).last_turned == 2


def test_r20_position_without_last_turned_skips_players_who_are_out():
    assert table(["2S", "", "", "5S"], to_play=3).last_turned == 0
    # The player to play is out: play passes to seat 3, whose right (skipping 2) is 0.
    assert table(["2S", "", "", "5S"], to_play=1).last_turned == 0


def test_r20_wrong_call_mid_game_pays_the_player_who_turned_last():
    state = table(["2S 3S", "4S 5D", "6S 7S"], ["KC", "QD", "JH"], to_play=1)
    assert state.last_turned == 0
    step = apply(state, CallSnap(2, 0))  # R13: seat 0 has just played, not seat 2's right
    assert step.events == (WrongCall(2, "snap", 0, True),)
    assert codes(step.state.face_down[0]) == "7S 2S 3S"


def test_r20_wrong_call_by_the_player_who_turned_last_pays_his_right():
    state = table(["2S 3S", "4S 5D", "6S 7S"], to_play=1, last_turned=0)
    assert apply(state, CallSnap(0, 0)).events == (WrongCall(0, "snap", 2, True),)  # R14


def test_r20_named_last_turned_is_kept_and_orders_won_piles():
    state = table(["2S", "3S", "4S", "5S"], ["9C", "", "9D", "KH"], to_play=0, last_turned=3)
    assert state.last_turned == 3
    assert state.valid_calls().snap == (0, 2)  # R22: clockwise from seat 3
    state, events = play(state, CallSnap(1, 0), CloseRace(150))
    assert events[-1] == PilesWon(1, (0, 2), 2, False, 0)
    assert codes(state.face_down[1]) == "9D 9C 3S"
    state = table(["2S", "3S", "4S", "5S"], ["9C", "", "9D", "KH"], to_play=3, last_turned=2)
    assert state.valid_calls().snap == (2, 0)


def test_r20_an_out_player_may_be_named_as_the_one_who_turned_last():
    state = table(["2S", "", "3S 4S"], to_play=2, last_turned=1)
    assert state.last_turned == 1 and state.is_out(1) and state.to_play == 2


@pytest.mark.parametrize("bad", [-1, 3, "1", 1.0, True])
def test_r20_last_turned_must_be_a_seat(bad):
    with pytest.raises(ValueError, match="last_turned must be"):
        table(["2S", "3S", "4S"], to_play=0, last_turned=bad)


@pytest.mark.parametrize("to_play, last_turned", [(0, 0), (0, 1), (2, 0)])
def test_r20_last_turned_must_agree_with_the_player_to_play(to_play, last_turned):
    with pytest.raises(ValueError, match="disagrees with to_play"):
        table(["2S", "3S", "4S"], to_play=to_play, last_turned=last_turned)


def test_r20_record_of_a_position_keeps_who_turned_last():
    from games.engine import record_start, start_state

    start = table(["2S", "", "3S 4S"], to_play=2, last_turned=1)
    record = record_start(start).with_actions((CallSnap(2, 0),))
    assert record.last_turned == 1 and start_state(record) == start
    assert replayed_events(record)[0] == WrongCall(2, "snap", 1, True)


def replayed_events(record):
    from games.engine import replay

    return [e for step in replay(record) for e in step.events]


# -- R5 ---------------------------------------------------------------------------------


def test_r5_face_down_piles_are_secret_even_to_their_owner():
    state = new_game(3, random.Random(1))
    for seat in (0, 1, 2, None):
        v = view(state, seat)
        assert v.face_down_counts == tuple(len(p) for p in state.face_down)
        assert v.cards() == ()
        assert all(c is None for c in v.face_up_tops)


# -- R6 ---------------------------------------------------------------------------------


def test_r6_player_on_dealers_left_goes_first_then_clockwise():
    state = deal(3, full_deck(), dealer=1)
    assert state.to_play == 2
    order = []
    for t in range(6):
        order.append(state.to_play)
        state = apply(state, TurnCard(state.to_play, t)).state
    assert order == [2, 0, 1, 2, 0, 1]


# -- R7 / R21 ---------------------------------------------------------------------------


def test_r7_turning_shows_the_card_to_everyone_at_the_same_moment():
    state = deal(3, full_deck(), dealer=2)
    top = state.face_down[0][-1]
    step = apply(state, TurnCard(0, 5))
    assert step.events == (CardTurned(0, top),)
    assert {view(step.state, s).face_up_tops[0] for s in (0, 1, 2, None)} == {top}
    # Before the turn nobody, not even seat 0, could see it.
    assert top not in view(state, 0).cards()


def test_r21_turning_moves_the_top_of_face_down_onto_the_top_of_face_up():
    state = table(["2S 3S", "4S"], ["9C", ""])
    state = apply(state, TurnCard(0, 0)).state
    assert codes(state.face_down[0]) == "2S"
    assert codes(state.face_up[0]) == "9C 3S"


# -- R8 ---------------------------------------------------------------------------------


def _match_for_seat_2_to_call():
    # Seat 1 turns 9D onto seat 0's 9C; seat 2 is not involved.
    return table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1)


def test_r8_first_caller_wins_both_piles_under_his_face_down_pile():
    state, events = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(2, 100))
    assert events[-1] == RaceOpened("snap", 2, 100, 250)
    state, events = play(state, CloseRace(250))
    assert events == [PilesWon(2, (1, 0), 2, False, 0)]
    assert codes(state.face_down[2]) == "9C 9D 6S 7S"
    assert state.face_up[0] == () and state.face_up[1] == ()


def test_r8_any_player_may_call_including_one_not_involved():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0))
    assert state.valid_calls().snap == (1, 0)
    for seat in (0, 1, 2):
        assert kinds(apply(state, CallSnap(seat, 10)).events) == ["race_opened"]


def test_r8_default_missed_match_stays_callable_until_covered():
    state = table(["2S", "3S", "5S 6S"], ["9C", "9D", ""], to_play=2)
    assert state.valid_calls().snap == (1, 0)  # R22 order from seat 1, who turned last
    state = apply(state, TurnCard(2, 0)).state  # seat 2 turns: the match is still there
    assert state.valid_calls().snap == (0, 1)
    state = apply(state, TurnCard(0, 10)).state  # seat 0 covers his 9C
    assert state.valid_calls().snap == ()


def test_r8_default_three_piles_of_one_rank_all_go_to_the_winner():
    state = table(["2S", "4S 9H", "3S"], ["9C", "", "9S"], to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(0, 10), CloseRace(160))
    assert events[-1] == PilesWon(0, (1, 2, 0), 3, False, 0)
    assert codes(state.face_down[0]) == "9C 9S 9H 2S"


def test_r8_default_two_ranks_matched_at_once_winner_takes_every_matching_pile():
    state = table(["2S", "3S", "4S 5H", "6S"], ["5C", "KC", "", "KD"], to_play=2)
    state, events = play(state, TurnCard(2, 0), CallSnap(3, 10), CloseRace(160))
    assert events[-1] == PilesWon(3, (2, 3, 0, 1), 4, False, 0)
    assert state.face_up == ((), (), (), ())


def test_r8_default_winning_does_not_change_the_turn_order():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(0, 10))
    assert state.to_play == 2
    state, _ = play(state, CloseRace(160))
    assert state.to_play == 2  # the player after the one who turned the last card


def test_r8_default_nobody_may_turn_while_a_race_is_open():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(0, 10))
    step = apply(state, TurnCard(2, 160))
    assert step.events == (Rejected(2, "race_open"),) and step.state is state


def test_r8_a_turn_after_the_window_first_resolves_the_race():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(0, 10))
    step = apply(state, TurnCard(2, 161))
    assert kinds(step.events) == ["piles_won", "card_turned"]


# -- R9 ---------------------------------------------------------------------------------


def test_r9_tie_puts_both_piles_in_the_snap_pot_matching_card_on_top():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(2, 100))
    state, events = play(state, CallSnap(0, 250), CloseRace(250))
    assert events == [
        CallJoined("snap", 0, 250),
        TieToPot("snap", (2, 0), (1, 0), cards("9C")[0], 2),
    ]
    assert codes(state.pot) == "9D 9C"
    assert state.to_play == 2  # play continues where it stopped


def test_r9_default_tie_window_is_150_ms_from_the_first_valid_call():
    assert Options().tie_window_ms == 150
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(2, 100))
    assert state.race.closes_at_ms == 250
    # 151 ms later: the race resolves first (seat 2 alone), then seat 0's call is judged.
    step = apply(state, CallSnap(0, 251, seen=1))
    assert kinds(step.events) == ["piles_won", "too_late"]


def test_r9_tie_window_is_an_option_from_0_to_500():
    for window in (0, 1, 150, 500):
        assert Options(tie_window_ms=window).effective_tie_window_ms == window
    for bad in (-1, 501, 1.5, None, True):
        with pytest.raises(ValueError):
            Options(tie_window_ms=bad)
    state = table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1, tie_window_ms=500)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 100), CallSnap(0, 600))
    assert kinds(events)[-1] == "call_joined"


def test_r9_window_zero_means_the_first_call_always_wins():
    state = table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1, tie_window_ms=0)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 100), CallSnap(0, 100, seen=1))
    assert kinds(events) == ["card_turned", "race_opened", "piles_won", "too_late"]
    assert state.race is None


def test_r9_default_tied_piles_are_added_to_an_existing_pot():
    state = table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], pot="KS", to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 100), CallSnap(0, 110), CloseRace(250))
    assert events[-1] == TieToPot("snap", (2, 0), (1, 0), Card.parse("9C"), 3)
    assert codes(state.pot) == "KS 9D 9C"


def test_r9_default_call_after_its_race_closed_is_too_late_not_wrong():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(2, 100))
    state, _ = play(state, CloseRace(250))
    before = state.total(0)
    step = apply(state, CallSnap(0, 300, seen=1))  # he had seen the 9D turned (event 1)
    assert step.events == (TooLate(0, "snap"),)
    assert step.state.total(0) == before


def test_r9_default_call_on_a_covered_missed_match_is_too_late_not_wrong():
    state = table(["2S", "3S", "5S 6S"], ["9C", "9D", ""], to_play=2)
    state, _ = play(state, TurnCard(2, 0), TurnCard(0, 10))  # seat 0 covers the 9C
    assert apply(state, CallSnap(1, 20, seen=1)).events == (TooLate(1, "snap"),)
    assert kinds(apply(state, CallSnap(1, 20, seen=2)).events) == ["wrong_call"]


def test_r9_default_call_that_had_seen_the_race_close_is_wrong():
    state, _ = play(_match_for_seat_2_to_call(), TurnCard(1, 0), CallSnap(2, 100))
    state, _ = play(state, CloseRace(250))
    step = apply(state, CallSnap(0, 300, seen=state.seq))
    assert step.events == (WrongCall(0, "snap", 1, True),)


def _race_closed_by(how: str):
    """Seat 1 turns 9D onto seat 0's 9C; seat 2 calls and wins; the race is closed by
    ``CloseRace``, by the engine itself (a later action), or at once (tie window 0)."""
    window = 0 if how == "window_0" else 150
    state = table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1, tie_window_ms=window)
    state, _ = play(state, TurnCard(1, 0), CallSnap(2, 100))
    if how == "close_race":
        state, _ = play(state, CloseRace(250))
    return state


@pytest.mark.parametrize("how", ["close_race", "window_0"])
def test_r9_call_without_seen_after_close_race_with_no_card_turned_since_is_too_late(how):
    state = _race_closed_by(how)
    assert state.race is None and state.face_up[0] == ()
    step = apply(state, CallSnap(0, 400))
    assert step.events == (TooLate(0, "snap"),)
    assert step.state.face_down == state.face_down and step.state.face_up == state.face_up
    # ... and so is the next one: still no card turned since that race.
    assert apply(step.state, CallSnap(1, 410)).events == (TooLate(1, "snap"),)


def test_r9_call_without_seen_that_makes_the_engine_close_the_race_is_too_late():
    state = _race_closed_by("engine")
    assert state.race is not None
    step = apply(state, CallSnapPot(0, 400))  # no pot: a wrong word, judged after the close
    assert kinds(step.events) == ["piles_won", "wrong_call"]
    step = apply(state, CallSnap(0, 400))  # after the window: the engine closes it first
    assert step.events[1:] == (TooLate(0, "snap"),) and step.state.total(0) == 2


def test_r9_call_without_seen_of_a_word_that_was_not_valid_before_the_close_is_wrong():
    state = _race_closed_by("close_race")
    assert kinds(apply(state, CallSnapPot(0, 400)).events) == ["wrong_call"]


def test_r9_call_without_seen_after_a_card_is_turned_since_the_race_is_wrong():
    state = _race_closed_by("close_race")
    state = apply(state, TurnCard(2, 400)).state  # nothing matches the 7S
    assert not state.valid_calls()
    step = apply(state, CallSnap(0, 500))
    assert step.events == (WrongCall(0, "snap", 2, True),)
    # A player who says he saw the 9D (event 1) is still honoured: too late.
    assert apply(state, CallSnap(0, 500, seen=1)).events == (TooLate(0, "snap"),)


def test_r9_call_without_seen_after_a_cancelled_race_is_wrong():
    # A penalty takes the last card of a matching pile while the race is open.
    state = table(["", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 10), CallSnapPot(0, 20))
    state, events = play(state, CloseRace(160), CallSnap(2, 200))
    assert kinds(events) == ["race_cancelled", "wrong_call"]


def test_r9_seen_is_honoured_after_many_match_windows():
    # Seat 0 turns spades then clubs, seat 1 hearts then diamonds, rank by rank: every
    # card seat 1 turns makes a match that nobody calls, and seat 0's next card covers
    # it (R8 D). 26 match windows open and close.
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    zero = [f"{r}{suit}" for suit in "SC" for r in ranks]
    one = [f"{r}{suit}" for suit in "HD" for r in ranks]
    state = table([" ".join(reversed(zero)), " ".join(reversed(one))], to_play=0)
    match_seen = []  # the seq a player has seen while each match was showing
    t = 0
    while state.turns < 53:  # the 53rd card: seat 0 turns his pile over, AS covers KC
        state = apply(state, TurnCard(state.to_play, t)).state
        t += 10
        if state.valid_calls():
            match_seen.append(state.seq)
    assert len(match_seen) == 26 and not state.valid_calls()
    first = match_seen[0]  # he had seen the AH turned onto the AS
    assert apply(state, CallSnap(0, t, seen=first)).events == (TooLate(0, "snap"),)
    for seen in match_seen:
        assert apply(state, CallSnap(1, t, seen=seen)).events == (TooLate(1, "snap"),)
    # Between the matches (a card covered the last one) nothing matched: wrong.
    assert apply(state, CallSnap(0, t, seen=first - 1)).events == (WrongCall(0, "snap", 1, True),)
    assert kinds(apply(state, CallSnap(0, t, seen=first + 1)).events) == ["wrong_call"]
    assert kinds(apply(state, CallSnap(0, t, seen=state.seq)).events) == ["wrong_call"]
    # A match of the other word was never showing: "Snap Pot!" is wrong whatever he saw.
    assert kinds(apply(state, CallSnapPot(0, t, seen=first)).events) == ["wrong_call"]


# -- R10 / R11 --------------------------------------------------------------------------


def test_r10_snap_pot_winner_takes_the_pot_and_the_matching_pile():
    state = table(["2S 3S", "4S 9D", "6S"], pot="KH 9H", to_play=1)
    state, _ = play(state, TurnCard(1, 0))
    assert state.valid_calls().snap_pot == (1,) and state.valid_calls().snap == ()
    state, events = play(state, CallSnapPot(2, 50), CloseRace(200))
    assert events[-1] == PilesWon(2, (1,), 3, True, 2)
    assert codes(state.face_down[2]) == "9D 9H KH 6S" and state.pot == ()


def test_r10_default_several_piles_of_the_pot_rank_all_go_with_the_pot():
    state = table(["2S", "4S 9D", "6S"], ["9C", "", "9S"], pot="KH 9H", to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnapPot(0, 50), CloseRace(200))
    assert events[-1] == PilesWon(0, (1, 2, 0), 5, True, 2)


def test_r11_tie_on_the_snap_pot_adds_the_pile_to_the_pot():
    state = table(["2S 3S", "4S 9D", "6S 7S"], pot="2H 9H", to_play=1)
    state, events = play(
        state, TurnCard(1, 0), CallSnapPot(0, 10), CallSnapPot(2, 50), CloseRace(160)
    )
    assert events[-1] == TieToPot("snap_pot", (0, 2), (1,), Card.parse("9D"), 3)
    assert codes(state.pot) == "2H 9H 9D" and state.pot_top.rank == 9


def test_r11_default_card_matching_a_pile_and_the_pot_both_calls_valid_first_wins():
    state = table(["2S", "4S 9D", "6S"], ["9C", "", ""], pot="9H", to_play=1)
    state, _ = play(state, TurnCard(1, 0))
    assert state.valid_calls().snap == (1, 0) and state.valid_calls().snap_pot == (1, 0)
    state, events = play(state, CallSnapPot(2, 50), CallSnap(0, 60), CloseRace(200))
    assert kinds(events) == ["race_opened", "too_late", "piles_won"]
    assert events[-1] == PilesWon(2, (1, 0), 3, True, 1)
    state2 = table(["2S", "4S 9D", "6S"], ["9C", "", ""], pot="9H", to_play=1)
    state2, events = play(state2, TurnCard(1, 0), CallSnap(2, 50), CloseRace(200))
    assert events[-1] == PilesWon(2, (1, 0), 2, False, 0)
    assert codes(state2.pot) == "9H"


# -- R12 --------------------------------------------------------------------------------


def test_r12_index_card_first_hand_wins_with_no_ties():
    opts = {"index_card": True, "tie_window_ms": 300}
    assert Options(**opts).effective_tie_window_ms == 0
    state = table(["2S 3S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1, **opts)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 100), CallSnap(0, 100, seen=1))
    assert events[1:] == [RaceOpened("snap", 2, 100, 100), PilesWon(2, (1, 0), 2, False, 0),
                          TooLate(0, "snap")]  # fmt: skip
    assert state.race is None


# -- R13 / R14 --------------------------------------------------------------------------


def _nothing_matches():
    state = table(["2S 3S", "4S 5D", "6S 7S"], to_play=1)
    return apply(state, TurnCard(1, 0)).state


def test_r13_wrong_call_gives_top_card_to_the_player_who_has_just_played():
    state = apply(_nothing_matches(), CallSnap(2, 10)).state
    assert codes(state.face_down[2]) == "6S"
    assert codes(state.face_down[1]) == "7S 4S"


def test_r13_wrong_snap_pot_call_is_a_mistake_too():
    step = apply(_nothing_matches(), CallSnapPot(0, 10))
    assert step.events == (WrongCall(0, "snap_pot", 1, True),)


def test_r14_wrong_call_on_own_turn_gives_top_card_to_the_right():
    step = apply(_nothing_matches(), CallSnap(1, 10))
    assert step.events == (WrongCall(1, "snap", 0, True),)
    assert codes(step.state.face_down[0]) == "4S 2S 3S"


def test_r14_default_own_turn_penalty_skips_the_right_hand_neighbour_who_is_out():
    # Seat 1 (on seat 2's right) has no cards: seat 2's penalty goes on to seat 0.
    state = table(["2S 3S", "", "4S 5D"], ["9C", "", ""], to_play=2)
    state = apply(state, TurnCard(2, 0)).state
    step = apply(state, CallSnap(2, 10))
    assert step.events == (WrongCall(2, "snap", 0, True),)
    assert codes(step.state.face_down[0]) == "4S 2S 3S" and step.state.is_out(1)


def test_r14_default_own_turn_penalty_skips_every_player_who_is_out():
    state = table(["2S", "", "", "4S 5D"], to_play=3)
    state = apply(state, TurnCard(3, 0)).state
    assert apply(state, CallSnapPot(3, 10)).events == (WrongCall(3, "snap_pot", 0, True),)


def test_r14_default_top_card_is_the_top_of_the_face_down_pile():
    state = apply(_nothing_matches(), CallSnap(0, 10)).state
    assert codes(state.face_down[0]) == "2S"
    assert state.face_down[1][0] == Card.parse("3S")


def test_r14_default_empty_face_down_pays_bottom_of_face_up():
    state = table(["2S", "4S 5D", ""], ["", "", "6S 7S"], to_play=1)
    state = apply(state, TurnCard(1, 0)).state
    step = apply(state, CallSnap(2, 10))
    assert step.events == (WrongCall(2, "snap", 1, True),)
    assert codes(step.state.face_up[2]) == "7S"
    assert codes(step.state.face_down[1]) == "6S 4S"


def test_r14_option_empty_face_down_pays_nothing():
    state = table(["2S", "4S 5D", ""], ["", "", "6S 7S"], to_play=1,
                  penalty_from_face_up_when_empty=False)  # fmt: skip
    state = apply(state, TurnCard(1, 0)).state
    step = apply(state, CallSnap(2, 10))
    assert step.events == (WrongCall(2, "snap", 1, False),)
    assert step.state.face_up == state.face_up and step.state.face_down == state.face_down


def test_r14_default_player_with_no_cards_cannot_call():
    state = table(["2S", "", "3S"])
    assert apply(state, CallSnap(1, 0)).events == (Rejected(1, "no_cards"),)


def test_r14_default_penalty_card_goes_under_the_receivers_face_down_pile():
    state = apply(_nothing_matches(), CallSnap(2, 10)).state
    assert state.face_down[1][0] == Card.parse("7S")


def test_r14_default_wrong_call_before_anyone_turned_goes_to_the_right():
    state = deal(3, full_deck(), dealer=2)  # just dealt: seat 0 plays first
    assert state.last_turned is None
    step = apply(state, CallSnap(2, 0))
    assert step.events == (WrongCall(2, "snap", 1, True),)
    assert step.state.face_down[1][0] == state.face_down[2][-1]


def test_r14_default_several_wrong_calls_each_pay_one_card():
    state, events = play(_nothing_matches(), CallSnap(0, 10), CallSnap(2, 10))
    assert events == [WrongCall(0, "snap", 1, True), WrongCall(2, "snap", 1, True)]
    assert codes(state.face_down[1]) == "7S 3S 4S"


def test_r14_default_wrong_word_is_a_mistake():
    state = table(["2S", "4S 9D", "6S"], pot="9H", to_play=1)
    state = apply(state, TurnCard(1, 0)).state
    assert kinds(apply(state, CallSnap(2, 10)).events) == ["wrong_call", "player_out"]
    state = table(["2S", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1)
    state = apply(state, TurnCard(1, 0)).state
    assert kinds(apply(state, CallSnapPot(2, 10)).events) == ["wrong_call"]


def test_r14_option_either_word_counts_when_a_real_match_shows():
    state = table(["2S", "4S 9D", "6S"], pot="9H", to_play=1, either_word_counts=True)
    state = apply(state, TurnCard(1, 0)).state
    state, events = play(state, CallSnap(2, 10), CallSnap(0, 20), CloseRace(160))
    assert events[0] == RaceOpened("snap_pot", 2, 10, 160)
    assert events[1] == CallJoined("snap_pot", 0, 20)
    assert kinds(events)[-1] == "tie_to_pot"
    # ... but not when nothing matches.
    state = table(["2S 3S", "4S 5D"], to_play=1, either_word_counts=True)
    state = apply(state, TurnCard(1, 0)).state
    assert kinds(apply(state, CallSnapPot(0, 10)).events) == ["wrong_call"]


# -- R15 / R21 --------------------------------------------------------------------------


def test_r15_empty_face_down_pile_turns_the_face_up_pile_over_then_turns():
    state = table(["", "4S"], ["2C 3C 5C", ""])
    step = apply(state, TurnCard(0, 0))
    assert step.events == (PileTurnedOver(0, 3), CardTurned(0, Card.parse("2C")))
    assert codes(step.state.face_down[0]) == "5C 3C"
    assert codes(step.state.face_up[0]) == "2C"


def test_r21_turning_a_pile_over_flips_it_as_a_whole_bottom_becomes_top():
    state = table(["", "4S"], ["2C 3C 5C", ""])
    state = apply(state, TurnCard(0, 0)).state
    state = apply(state, TurnCard(1, 1)).state
    state = apply(state, TurnCard(0, 2)).state
    assert codes(state.face_up[0]) == "2C 3C"


# -- R16 / R23 --------------------------------------------------------------------------


def test_r16_player_with_no_cards_is_skipped_and_may_not_call():
    state = table(["2S 3S", "", "6S 7S"])
    assert state.is_out(1)
    state = apply(state, TurnCard(0, 0)).state
    assert state.to_play == 2
    assert apply(state, TurnCard(1, 1)).events == (Rejected(1, "player_out"),)
    assert apply(state, CallSnap(1, 1)).events == (Rejected(1, "no_cards"),)


def test_r16_player_who_loses_his_last_cards_is_out():
    state = table(["2S", "4S 9D", "6S"], ["9C", "", ""], to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 10), CloseRace(160))
    assert PlayerOut(0) not in events  # seat 0 still has 2S face down
    state = table(["", "4S 9D", "6S"], ["9C", "", ""], to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(2, 10), CloseRace(160))
    assert events[-1] == PlayerOut(0) and state.is_out(0)


def test_r23_penalty_card_brings_an_out_player_back():
    # Seat 1 turned the last card and has lost his pile since (R20 D: he may be named).
    state = table(["2S", "", "3S 4S"], to_play=2, last_turned=1)
    step = apply(state, CallSnap(2, 0))  # on seat 2's turn: R13, to seat 1
    assert step.events == (WrongCall(2, "snap", 1, True), PlayerBack(1))
    assert not step.state.is_out(1)


def test_r23_nobody_has_cards_outside_the_pot_is_a_draw():
    state = table(["", ""], ["9C", "9D"])
    state, events = play(state, CallSnap(0, 0), CallSnap(1, 10), CloseRace(150))
    assert events[-1] == GameOver(None, True, "no_cards", ())
    assert state.over and state.draw and state.winner is None
    assert state.card_total() == 2 and len(state.pot) == 2


# -- R18 --------------------------------------------------------------------------------


def test_r18_stuck_pot_winner_has_all_cards_not_in_the_pot():
    state = table(["4S 9D", ""], ["", "9C"], pot="KH")
    state, events = play(state, TurnCard(0, 0), CallSnap(0, 10), CloseRace(160))
    assert events[-1] == GameOver(0, False, "stuck_pot", (0,))
    assert codes(state.pot) == "KH"  # the pot's cards stay where they are


def test_r18_pot_blocked_when_all_four_of_its_top_rank_are_inside():
    assert table(["2S", "3S"], pot="7S 7H 7D 7C").pot_blocked
    assert not table(["2S", "3S"], pot="7S 7H 7D").pot_blocked
    assert not table(["2S", "3S"], pot="7S 7H 7D 7C 2C").pot_blocked
    assert not table(["2S", "3S"]).pot_blocked
    assert view(table(["2S", "3S"], pot="7S 7H 7D 7C"), None).pot_blocked


def test_r18_default_a_blocked_pot_is_freed_by_a_tie_and_then_won_whole():
    # All four 7s are in the pot (blocked); a tie on two 9s lays them on top, and the
    # next 9 lets "Snap Pot!" win every card of the pot, the four 7s too.
    state = table(["2S 9S", "3S 9D", "4S 9C"], pot="7S 7H 7D 7C", to_play=1, last_turned=0)
    assert state.pot_blocked and pot_outlook(state) == AFTER_TIE
    state, _ = play(state, TurnCard(1, 0), TurnCard(2, 10))
    state, events = play(state, CallSnap(0, 20), CallSnap(1, 40), CloseRace(170))
    assert kinds(events)[-1] == "tie_to_pot" and codes(state.pot)[:11] == "7S 7H 7D 7C"
    assert not state.pot_blocked and pot_outlook(state) == MATCH
    state, events = play(state, TurnCard(0, 200), CallSnapPot(2, 300), CloseRace(450))
    won = next(e for e in events if e.code == "piles_won")
    assert won.with_pot and won.winner == 2 and won.cards == 7
    assert not state.pot and {"7S", "7H", "7D", "7C"} <= set(codes(state.face_down[2]).split())


def test_r18_default_a_blocked_pot_can_be_won_only_while_a_rank_has_three_cards_outside():
    # Two to tie and a third to match the new top: three 9s outside, the pot may be won.
    blocked = dict(face_down=["2S 9S 9H", "3S 9D"], pot="7S 7H 7D 7C")
    assert pot_outlook(table(**blocked)) == AFTER_TIE
    assert pot_outlook(table(**blocked, index_card=True)) == NEVER  # R12: no ties
    # Two 9s could still tie, but nothing would be left to match them: never again.
    assert pot_outlook(table(["2S 9S", "3S 9D"], pot="7S 7H 7D 7C")) == NEVER
    assert pot_outlook(table(["2S 9S", "3S 10D"], pot="7S 7H 7D 7C")) == NEVER  # no pair
    assert pot_outlook(table(["2S 7S", "3S"], pot="7H 7D 7C")) == MATCH
    assert pot_outlook(table(["2S", "3S"])) == NO_POT


def test_r18_default_game_ends_as_soon_as_only_one_player_has_cards():
    state = table(["2S", "3S 5D 5H"], pot="5S 5C", to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnapPot(0, 10))  # wrong word? no:
    # the 5H matches the pot: seat 0 opens a Snap Pot race and wins it.
    state, events = play(state, CloseRace(160))
    assert not state.over  # seat 1 still has 3S 5D
    state = table(["2S", "3S"], pot="5S 5C 5D 5H")
    state, events = play(state, CallSnap(0, 0))  # wrong: pays his only card to seat 1
    assert events[-2:] == [PlayerOut(0), GameOver(1, False, "stuck_pot", (1,))]


# -- R19 --------------------------------------------------------------------------------


def test_r19_turn_limit_is_off_by_default():
    assert Options().turn_limit is None
    with pytest.raises(ValueError):
        Options(turn_limit=0)


def test_r19_turn_limit_ends_at_once_when_the_nth_card_leaves_nothing_to_call():
    state = table(["2S 3S 4S", "5S 6S"], turn_limit=2)
    state, events = play(state, TurnCard(0, 0))
    assert not state.over
    state, events = play(state, TurnCard(1, 1))  # the 2nd card, 6S, matches nothing
    assert events == [CardTurned(1, Card.parse("6S")), GameOver(0, False, "turn_limit", (0,))]
    assert state.over and state.winner == 0 and state.turns == 2
    assert apply(state, TurnCard(0, 2)).events == (Rejected(0, "game_over"),)


def test_r19_ties_share_the_win():
    state = table(["2S 3S", "5S 6S"], turn_limit=1)
    state, events = play(state, TurnCard(0, 0))
    assert events[-1] == GameOver(None, True, "turn_limit", (0, 1))
    assert state.winners == (0, 1) and state.draw


def test_r19_only_those_tied_for_the_most_share_the_win():
    state = table(["2S 3S", "5S", "6S 7S"], turn_limit=1)
    state, events = play(state, TurnCard(0, 0))
    assert events[-1] == GameOver(None, True, "turn_limit", (0, 2))
    assert state.winners == (0, 2) and 1 not in state.winners


def _nth_card_matches(**options):
    # The 2nd card, seat 1's 9D, matches seat 0's 9C.
    state = table(["2S 9C", "4S 9D", "6S 7S"], to_play=0, turn_limit=2, **options)
    state, _ = play(state, TurnCard(0, 0), TurnCard(1, 10))
    assert state.turns == 2 and state.valid_calls().snap == (1, 0)
    return state


def test_r19_turn_limit_waits_for_the_race_of_the_nth_card():
    state = _nth_card_matches()
    assert not state.over
    state, events = play(state, CallSnap(2, 100))
    assert not state.over and kinds(events) == ["race_opened"]
    state, events = play(state, CallSnap(0, 200), CloseRace(250))  # a tie
    assert kinds(events) == ["call_joined", "tie_to_pot", "game_over"]
    state = _nth_card_matches()
    state, events = play(state, CallSnap(2, 100), CloseRace(250))
    assert events[1:] == [PilesWon(2, (1, 0), 2, False, 0), GameOver(2, False, "turn_limit", (2,))]
    assert state.over and state.total(2) == 4


def test_r19_turn_limit_with_tie_window_0_ends_in_the_step_of_the_call():
    state = _nth_card_matches(tie_window_ms=0)
    state, events = play(state, CallSnap(0, 100))
    assert kinds(events) == ["race_opened", "piles_won", "game_over"]
    assert state.winner == 0 and state.race is None


def test_r19_turn_limit_ends_at_the_latest_when_the_next_card_would_be_turned():
    state = _nth_card_matches()
    step = apply(state, TurnCard(2, 500))  # nobody called: the match is never resolved
    assert step.events == (GameOver(None, True, "turn_limit", (0, 1, 2)),)
    assert step.state.over and step.state.turns == 2
    assert step.state.face_up == state.face_up  # the next card was not turned
    assert apply(state, TurnCard(0, 500)).events == (Rejected(0, "not_your_turn"),)


def test_r19_wrong_call_while_the_nth_card_can_still_be_called_does_not_end_the_game():
    state = _nth_card_matches()
    state, events = play(state, CallSnapPot(2, 50))  # no pot: wrong; the 9s still match
    assert kinds(events) == ["wrong_call"] and not state.over
    state, events = play(state, CallSnap(0, 60), CloseRace(210))
    assert kinds(events) == ["race_opened", "piles_won", "game_over"]


def test_r19_a_penalty_that_removes_the_match_of_the_nth_card_ends_the_game():
    # Seat 0's only card is the 9C: his wrong word pays it, and the match is gone.
    state = table(["", "4S 9D", "6S 7S"], ["9C", "", ""], to_play=1, turn_limit=1)
    state, _ = play(state, TurnCard(1, 0))
    assert not state.over
    state, events = play(state, CallSnapPot(0, 10))
    assert kinds(events) == ["wrong_call", "player_out", "game_over"]
    assert events[-1] == GameOver(1, False, "turn_limit", (1,))  # 4S 9D + the 9C


def test_r19_bot_games_with_a_turn_limit_end():
    from games.engine import BotLevel, play_bot_game

    for seed in range(5):
        state, _ = play_bot_game(6, seed, BotLevel.BEGINNER, Options(turn_limit=100))
        assert state.over and state.turns <= 100


# -- R22 --------------------------------------------------------------------------------


def test_r22_pot_first_then_piles_clockwise_from_the_last_player_to_turn():
    state = table(["3S", "4S 8S", "5S"], ["2C 8D", "", "JC 8C"], pot="KS 8H", to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnapPot(0, 0), CloseRace(150))
    assert events[-1] == PilesWon(0, (1, 2, 0), 7, True, 2)
    assert codes(state.face_down[0]) == "8D 2C 8C JC 8S 8H KS 3S"


def test_r22_tied_piles_are_laid_face_up_on_the_pot_in_the_same_order():
    state = table(["3S", "4S 8S", "5S"], ["2C 8D", "", "JC 8C"], pot="KS", to_play=1)
    state, events = play(state, TurnCard(1, 0), CallSnap(0, 0), CallSnap(2, 1), CloseRace(150))
    assert codes(state.pot) == "KS 8S JC 8C 2C 8D"
    assert events[-1] == TieToPot("snap", (0, 2), (1, 2, 0), Card.parse("8D"), 6)


def test_r22_penalty_card_goes_under_the_receivers_face_down_pile():
    state = apply(_nothing_matches(), CallSnap(0, 10)).state
    assert codes(state.face_down[1]) == "3S 4S"


# -- options not tied to one clause ------------------------------------------------------


def test_option_missed_match_not_callable_only_the_card_just_turned_counts():
    # Seat 2 turned the 4H last; the 9s were matched earlier and missed.
    state = table(["2S", "3S", "7S", "5S 6S"], ["9C", "9D", "4H", ""], to_play=3,
                  missed_match_callable=False)  # fmt: skip
    assert state.last_turned == 2 and not state.valid_calls()
    state = apply(state, TurnCard(3, 0)).state
    assert not state.valid_calls()
    assert kinds(apply(state, CallSnap(0, 10)).events) == ["wrong_call"]
    state = table(["2S", "3S 9H", ""], ["9C", "", "9D"], to_play=1, missed_match_callable=False)
    state = apply(state, TurnCard(1, 0)).state
    assert state.valid_calls().snap == (1, 2, 0)


def test_option_defaults_are_the_house_defaults():
    o = Options()
    assert (o.tie_window_ms, o.index_card, o.either_word_counts) == (150, False, False)
    assert o.missed_match_callable and o.penalty_from_face_up_when_empty
    assert o.turn_limit is None and o.effective_tie_window_ms == 150


def test_bot_is_exported_for_tables():
    assert Bot is not None
