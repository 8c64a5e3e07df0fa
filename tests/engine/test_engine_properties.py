"""Property tests (Hypothesis): no action sequence, random or garbage, breaks the engine."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine import (
    BotLevel,
    CallSnap,
    CallSnapPot,
    CloseRace,
    Game,
    Options,
    TurnCard,
    final_state,
    from_piles,
    full_deck,
    new_game,
    play_bot_game,
    replay,
    start_state,
    view,
)

FULL = Counter(full_deck())

options_strategy = st.builds(
    Options,
    tie_window_ms=st.sampled_from([0, 1, 150, 500]),
    index_card=st.booleans(),
    either_word_counts=st.booleans(),
    missed_match_callable=st.booleans(),
    turn_limit=st.one_of(st.none(), st.integers(1, 400)),
    penalty_from_face_up_when_empty=st.booleans(),
)
seats = st.integers(-1, 12)
gaps = st.integers(0, 400)
garbage = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.builds(TurnCard, st.one_of(st.text(max_size=2), st.floats(), st.none()), st.integers()),
    st.builds(CallSnap, st.integers(), st.one_of(st.floats(), st.text(max_size=2))),
    st.builds(CallSnapPot, st.integers(0, 3), st.integers(0, 10**6), st.integers()),
    st.builds(CloseRace, st.one_of(st.integers(), st.none(), st.floats())),
)


class SnapMachine(RuleBasedStateMachine):
    """Random games: the current player turns often, anyone calls, time moves on."""

    @initialize(players=st.integers(2, 12), seed=st.integers(0, 2**32), options=options_strategy)
    def start(self, players, seed, options):
        self.game = Game(new_game(players, random.Random(seed), options))
        self.steps = []
        self.now = 0
        self.last_seq = 0

    def _play(self, action):
        step = self.game.play(action)
        self.steps.append(step)
        return step

    @rule(gap=gaps)
    def turn_by_the_player_to_play(self, gap):
        self.now += gap
        self._play(TurnCard(self.game.state.to_play, self.now))

    @rule(seat=seats, gap=gaps)
    def turn_by_anyone(self, seat, gap):
        self.now += gap
        self._play(TurnCard(seat, self.now))

    @rule(seat=seats, gap=gaps, pot=st.booleans(), lag=st.one_of(st.none(), st.integers(0, 6)))
    def call(self, seat, gap, pot, lag):
        self.now += gap
        seq = self.game.state.seq
        seen = None if lag is None else max(0, seq - lag)
        cls = CallSnapPot if pot else CallSnap
        self._play(cls(seat, self.now, seen))

    @precondition(lambda self: self.game.state.race is not None)
    @rule(extra=st.integers(0, 50))
    def close_the_race(self, extra):
        self.now = max(self.now, self.game.state.race.closes_at_ms + extra)
        self._play(CloseRace(self.now))

    @rule(gap=st.integers(-50, 600))
    def close_at_any_time(self, gap):
        self.now = max(0, self.now + gap)
        self._play(CloseRace(self.now))

    @rule(action=garbage)
    def garbage_action(self, action):
        before = self.game.state
        step = self._play(action)
        if step.rejected:
            assert step.state is before

    @invariant()
    def all_52_cards_present_exactly_once(self):
        assert Counter(self.game.state.all_cards()) == FULL

    @invariant()
    def no_view_contains_a_face_down_card(self):
        state = self.game.state
        face_down = {c for p in state.face_down for c in p}
        for seat in (None, *range(state.players)):
            v = view(state, seat)
            assert not face_down & set(v.cards())
            assert sum(v.face_down_counts) + sum(v.face_up_counts) + v.pot_count == 52

    @invariant()
    def seq_never_goes_back_and_rejections_do_not_count(self):
        state = self.game.state
        assert state.seq >= self.last_seq
        self.last_seq = state.seq
        if state.over:
            assert state.race is None
            assert len([s for s in range(state.players) if not state.is_out(s)]) <= 1 or (
                state.end_reason == "turn_limit"
            )

    def teardown(self):
        if not hasattr(self, "game"):
            return
        record = self.game.record()
        assert list(replay(record)) == self.steps
        assert final_state(record) == self.game.state
        assert start_state(record) == deal_again(record)


def deal_again(record):
    from games.engine import deal

    return deal(record.players, record.deck, record.dealer, record.options)


TestSnapMachine = SnapMachine.TestCase
TestSnapMachine.settings = settings(
    max_examples=80,
    stateful_step_count=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 12),
    seed=st.integers(0, 2**32),
    levels=st.lists(st.sampled_from(list(BotLevel)), min_size=12, max_size=12),
    options=options_strategy,
)
def test_bot_only_games_with_a_turn_limit_end(players, seed, levels, options):
    if options.turn_limit is None:
        options = Options(tie_window_ms=options.tie_window_ms, turn_limit=150)
    state, record = play_bot_game(players, seed, levels[:players], options)
    assert state.over
    assert Counter(state.all_cards()) == FULL
    assert final_state(record) == state


action_strategy = st.one_of(
    st.builds(TurnCard, st.integers(-1, 4), st.integers(0, 5000)),
    st.builds(CallSnap, st.integers(-1, 4), st.integers(0, 5000), st.none()),
    st.builds(CallSnapPot, st.integers(-1, 4), st.integers(0, 5000), st.integers(0, 3)),
    st.builds(CloseRace, st.integers(0, 5000)),
    garbage,
)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 4),
    options=options_strategy,
    actions=st.lists(action_strategy, max_size=40),
)
def test_walkthrough_positions_keep_their_cards_under_any_actions(data, players, options, actions):
    deck = list(full_deck())
    chosen = data.draw(st.permutations(deck))[: data.draw(st.integers(players, 30))]
    cut = sorted(data.draw(st.lists(st.integers(0, len(chosen)), min_size=2 * players + 1,
                                    max_size=2 * players + 1)))  # fmt: skip
    bounds = [0, *cut, len(chosen)]
    parts = [tuple(chosen[bounds[i] : bounds[i + 1]]) for i in range(len(bounds) - 1)]
    face_down, face_up, pot = parts[:players], parts[players : 2 * players], parts[-1]
    pot = pot + parts[2 * players] if len(parts) > 2 * players + 1 else pot
    to_play = data.draw(st.integers(0, players - 1))
    start = from_piles(face_down, face_up, pot, to_play, options)
    game = Game(start)
    cards = Counter(start.all_cards())

    def when(action):
        at = getattr(action, "at_ms", 0)
        return at if type(at) is int else 0

    for action in sorted(actions, key=when):
        step = game.play(action)
        assert Counter(step.state.all_cards()) == cards
        state = step.state
        shown = {c for p in state.face_down for c in p}
        assert not shown & set(view(state, None).cards())
    assert final_state(game.record()) == game.state
