"""The words of the walkthroughs: titles, summaries, step captions and the notes
that answer a learner's press.

Captions may use ``%(p0)s``…``%(p3)s`` (the players' names, by seat),
``%(you)s`` (the name of the player the learner plays) and ``%(card)s``
(the last card turned in the step). Each is a whole sentence or more,
never glued to another piece. Captions do not say which button to press:
the page's prompt does ("Your move: …").

Notes are made of the sentences :mod:`games.words.press_outcomes` picks from the
engine's events; :data:`NOTES` holds their words. Every name and card goes
in through :func:`games.words.texts.fill`, which isolates it for bidi.
"""

from collections.abc import Callable, Sequence

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.words.press_outcomes import Sentence
from games.words.texts import card_name, fill, reject_text

TITLES = {
    "first-turns": _("Dealing and the first turns"),
    "snap-by-anyone": _("A “Snap!” anyone can win"),
    "wrong-call": _("A wrong call"),
    "wrong-call-own-turn": _("A wrong call on your own turn"),
    "tie": _("A tie makes the Snap Pot"),
    "snap-pot": _("Winning the Snap Pot"),
    "snap-pot-tie": _("A tie on the Snap Pot"),
    "running-out": _("Running out of cards"),
    "index-card": _("The index card: no more ties"),
    "three-piles": _("Three piles match"),
    "stuck-pot": _("Cards stuck in the Snap Pot"),
}

SUMMARIES = {
    "first-turns": _(
        "The dealer deals out all the cards. Then the players turn over a card each, "
        "one after another."
    ),
    "snap-by-anyone": _("Two other players’ piles match: call “Snap!” first and win them."),
    "wrong-call": _(
        "Calling when nothing matches costs you a card: it goes to the player who has just played."
    ),
    "wrong-call-own-turn": _(
        "A wrong call on your own turn: your penalty card goes to the player on your right, "
        "the player before you."
    ),
    "tie": _("Two players call at the same time: the piles go to the middle."),
    "snap-pot": _("A card matches the top card of the Snap Pot: call “Snap Pot!” to win it."),
    "snap-pot-tie": _(
        "Two players call “Snap Pot!” at the same time: the pile joins the Snap Pot."
    ),
    "running-out": _("An empty face-down pile, and a player who runs out of cards."),
    "index-card": _("With the index card, the first call always wins."),
    "three-piles": _("When three piles show the same rank, the winner takes them all."),
    "stuck-pot": _("The game can be won while cards stay in the Snap Pot."),
}

CAPTIONS = {
    # 1. Dealing and the first turns
    "first_turns.dealt": _(
        "%(p2)s is the dealer. %(p2)s shuffled the cards and dealt them all, one at a time, "
        "clockwise, starting with %(p0)s. Everyone has a face-down pile. You play as %(you)s."
    ),
    "first_turns.first": _(
        "%(p0)s sits on the dealer’s left, so %(p0)s goes first and turns over the top card: "
        "the %(card)s."
    ),
    "first_turns.yours": _(
        "Your turn: you turn over the %(card)s. Online, everyone sees it at the same time, you too."
    ),
    "first_turns.clockwise": _(
        "Play moves clockwise: now %(p2)s turns over the %(card)s. No cards match yet."
    ),
    "first_turns.again": _(
        "Back to %(p0)s, who turns over the %(card)s. Keep watching for a match!"
    ),
    # 2. A Snap anyone can win
    "snap_anyone.start": _(
        "You play as %(you)s. Look at the top cards of the face-up piles. It is %(p1)s’s turn."
    ),
    "snap_anyone.match": _(
        "%(p1)s turns over the %(card)s. It matches the top card of %(p0)s’s pile! "
        "Those piles are not yours, but you may call."
    ),
    "snap_anyone.won": _(
        "You called first, so you win both matching piles. They go face down under your "
        "face-down pile."
    ),
    "snap_anyone.next": _(
        "Winning does not change the turn order: the player after %(p1)s plays next. That is "
        "you, and you turn over the %(card)s."
    ),
    # 3. A wrong call
    "wrong_call.start": _("You play as %(you)s. It is %(p0)s’s turn. Watch carefully."),
    "wrong_call.turned": _("%(p0)s turns over the %(card)s. Does it match any top card? No!"),
    "wrong_call.mistake": _(
        "%(p2)s calls “Snap!” anyway. That is a wrong call: %(p2)s gives the top card of "
        "%(p2)s’s face-down pile to %(p0)s, the player who has just played."
    ),
    "wrong_call.your_turn": _(
        "Your turn: you turn over the %(card)s. No match, so nobody should call."
    ),
    "wrong_call.done": _("%(p2)s now has one card fewer. Only call when you really see a match!"),
    # 4. A wrong call on your own turn
    "own_turn.start": _("You play as %(you)s. It is %(p2)s’s turn."),
    "own_turn.mistake": _(
        "%(p2)s turns over the %(card)s and calls “Snap!” straight away, but nothing matches. "
        "It was %(p2)s’s own turn, so the penalty card goes to the player on %(p2)s’s right: "
        "the player before %(p2)s. That is you!"
    ),
    "own_turn.next": _("%(p0)s turns over the %(card)s."),
    "own_turn.your_turn": _(
        "Your turn: you turn over the %(card)s. The penalty card is now at the bottom of "
        "your face-down pile."
    ),
    # 5. A tie
    "tie.start": _("You play as %(you)s. It is %(p1)s’s turn."),
    "tie.match": _("%(p1)s turns over the %(card)s. It matches the top card of %(p0)s’s pile."),
    "tie.tied": _(
        "You and %(p0)s called at the same time: a tie! Nobody wins the piles. The two "
        "matching piles go to the middle as the Snap Pot, with a matching card on top."
    ),
    "tie.goes_on": _(
        "Play goes on where it stopped: it is your turn, and you turn over the %(card)s."
    ),
    # 6. Winning the Snap Pot
    "snap_pot.start": _(
        "You play as %(you)s. An earlier tie left a Snap Pot in the middle of the table. "
        "Look at its top card."
    ),
    "snap_pot.match": _("%(p1)s turns over the %(card)s. It matches the top card of the Snap Pot!"),
    "snap_pot.won": _("You called “Snap Pot!” first: you win the Snap Pot and the matching pile."),
    "snap_pot.next": _("%(p2)s plays next and turns over the %(card)s."),
    # 7. A tie on the Snap Pot
    "pot_tie.start": _("You play as %(you)s. There is a Snap Pot in the middle."),
    "pot_tie.match": _("%(p1)s turns over the %(card)s. It matches the top card of the Snap Pot."),
    "pot_tie.tied": _(
        "You and %(p2)s called “Snap Pot!” at the same time: a tie. The matching pile joins "
        "the Snap Pot, with its matching card on top, so the Snap Pot still shows the same "
        "rank."
    ),
    "pot_tie.next": _("%(p2)s plays next and turns over the %(card)s."),
    # 8. Running out
    "running_out.start": _(
        "You play as %(you)s. %(p0)s’s face-down pile is empty, and %(p2)s has only two cards."
    ),
    "running_out.turn_over": _(
        "%(p0)s must play but has no face-down cards. %(p0)s turns the whole face-up pile "
        "over, without shuffling, and then turns over its top card: the %(card)s."
    ),
    "running_out.your_turn": _("Your turn: you turn over the %(card)s."),
    "running_out.last_card": _(
        "%(p2)s turns over the %(card)s, the last card of %(p2)s’s face-down pile. "
        "It matches the top card of your pile!"
    ),
    "running_out.out": _(
        "You win both piles. %(p2)s has no cards left at all, so %(p2)s is out for now."
    ),
    "running_out.after_out": _("%(p0)s turns over the %(card)s."),
    "running_out.your_turn_again": _("Your turn: you turn over the %(card)s."),
    "running_out.skipped": _(
        "%(p2)s has no cards, so %(p2)s is skipped. It is %(p0)s’s turn. %(p0)s’s face-down "
        "pile is empty once more, so %(p0)s turns the face-up pile over and then turns over "
        "its top card: the %(card)s."
    ),
    # 9. The index card
    "index_card.start": _(
        "You play as %(you)s. This table uses the index card: the first call to arrive wins, "
        "so there are no ties."
    ),
    "index_card.match": _(
        "%(p1)s turns over the %(card)s. It matches the top card of %(p0)s’s pile."
    ),
    "index_card.first_wins": _(
        "You called first, so you win the piles. (At a real table, your hand would be first "
        "on the index card.) %(p0)s called a moment later. That was too late, but it is not "
        "a mistake, so there is no penalty."
    ),
    "index_card.goes_on": _("Your turn: you turn over the %(card)s."),
    # 10. Three piles
    "three_piles.start": _(
        "You play as %(you)s. Look: the top cards of %(p0)s’s pile and %(p2)s’s pile already "
        "match, and nobody has called. A missed match can still be called until one of the "
        "piles is covered."
    ),
    "three_piles.match": _(
        "%(p1)s turns over the %(card)s. Now the top cards of three piles match!"
    ),
    "three_piles.won": _("You win all three matching piles at once."),
    # 11. Cards stuck in the Snap Pot
    "stuck_pot.start": _(
        "You play as %(you)s. Earlier, you won two of the 10s. Later, two players called "
        "“Snap!” at the same time on the other two 10s, so those went to the Snap Pot. "
        "%(p1)s has only two cards left."
    ),
    "stuck_pot.your_turn": _("Your turn: you turn over the %(card)s."),
    "stuck_pot.ben_turns": _("%(p1)s turns over the %(card)s."),
    "stuck_pot.your_turn_again": _("Your turn again: you turn over the %(card)s."),
    "stuck_pot.match": _(
        "%(p1)s turns over the %(card)s, the last card of %(p1)s’s face-down pile. "
        "It matches the top card of your pile!"
    ),
    "stuck_pot.won": _(
        "You win the last cards. Now only you have cards: you win the game! The two 10s stay "
        "in the Snap Pot, because the game ends as soon as only one player has cards."
    ),
}


# The words of the notes that answer a press (keys: games.words.press_outcomes). Each takes the
# sentence's ``count`` (for ngettext) and returns the sentence with its placeholders:
# %(player)s (the learner, spoken to by name), %(receiver)s (who got the penalty card),
# %(card)s (the card turned), %(count)d.
NOTES: dict[str, Callable[[int], str]] = {
    # Mistakes: why the call was wrong ...
    "mistake.no_match": lambda n: gettext(
        "That was a wrong call, %(player)s: there is no match to call."
    ),
    "mistake.nobody_turned": lambda n: gettext(
        "That was a wrong call, %(player)s: nobody has turned over a card yet, so there is "
        "nothing to match."
    ),
    "mistake.say_snap_pot": lambda n: gettext(
        "Wrong word, %(player)s! The top card of a face-up pile matches the top card of the "
        "Snap Pot, so the call is “Snap Pot!”, not “Snap!”"
    ),
    "mistake.say_snap_no_pot": lambda n: ngettext(
        "Wrong word, %(player)s! The top card of %(count)d face-up pile matches, and there is "
        "no Snap Pot yet, so the call is “Snap!”, not “Snap Pot!”",
        "Wrong word, %(player)s! The top cards of %(count)d face-up piles match, and there is "
        "no Snap Pot yet, so the call is “Snap!”, not “Snap Pot!”",
        n,
    ),
    "mistake.say_snap_pot_exists": lambda n: ngettext(
        "Wrong word, %(player)s! The top card of %(count)d face-up pile matches, but not the "
        "top card of the Snap Pot, so the call is “Snap!”, not “Snap Pot!”",
        "Wrong word, %(player)s! The top cards of %(count)d face-up piles match each other, "
        "but not the top card of the Snap Pot, so the call is “Snap!”, not “Snap Pot!”",
        n,
    ),
    # ... where the penalty card went (the receiver is read from the engine's event) ...
    "penalty.to_last_player": lambda n: gettext(
        "Your penalty card goes to %(receiver)s, the player who has just played."
    ),
    "penalty.own_turn": lambda n: gettext(
        "You have just played yourself, so your penalty card goes to %(receiver)s, the "
        "player on your right (the player before you)."
    ),
    "penalty.own_turn_skipping": lambda n: gettext(
        "You have just played yourself, so your penalty card goes to %(receiver)s: the "
        "nearest player on your right who still has cards. Players who are out are skipped."
    ),
    "penalty.to_right": lambda n: gettext(
        "Your penalty card goes to %(receiver)s, the player on your right (the player before you)."
    ),
    "penalty.to": lambda n: gettext("Your penalty card goes to %(receiver)s."),
    "penalty.none": lambda n: gettext(
        "Your face-down pile is empty, so this time you have no penalty card to give."
    ),
    # ... and only after a mistake:
    "try_again": lambda n: gettext("Try again!"),
    # A call on a race that is already over.
    "too_late": lambda n: gettext(
        "Too late, %(player)s: the race for that match is already over. Calling too late is "
        "not a mistake, so there is no penalty."
    ),
    # Right moves.
    "right.won_piles": lambda n: ngettext(
        "Well spotted, %(player)s! That call was right: you win the matching piles, "
        "%(count)d card in all.",
        "Well spotted, %(player)s! That call was right: you win the matching piles, "
        "%(count)d cards in all.",
        n,
    ),
    "right.won_pot": lambda n: ngettext(
        "Well spotted, %(player)s! That call was right: you win the Snap Pot and every pile "
        "that matches it, %(count)d card in all.",
        "Well spotted, %(player)s! That call was right: you win the Snap Pot and every pile "
        "that matches it, %(count)d cards in all.",
        n,
    ),
    "right.tie": lambda n: gettext(
        "That call was right, %(player)s, but someone else called at the same time: a tie! "
        "Nobody wins the piles."
    ),
    "right.cancelled": lambda n: gettext(
        "That call was right, %(player)s, but the match stopped showing before the race was "
        "over, so nobody wins the piles."
    ),
    "right.called": lambda n: gettext(
        "That call is right, %(player)s. Now everyone waits to see who called first."
    ),
    "right.turned": lambda n: gettext(
        "Right, %(player)s: it is your turn, so you turn over the %(card)s."
    ),
    "right.turned_pile_over": lambda n: gettext(
        "Right, %(player)s: it is your turn. Your face-down pile is empty, so you turn your "
        "face-up pile over and then turn over its top card: the %(card)s."
    ),
    "right.turn_limit": lambda n: gettext(
        "It is your turn, %(player)s, but the turn limit has been reached: no more cards "
        "are turned, and the game ends here."
    ),
    "match.yours": lambda n: gettext("Look: your new card makes a match, so anyone may call now!"),
    "match.still_showing": lambda n: gettext(
        "The match is still showing, so anyone may still call it."
    ),
    "match.covered": lambda n: gettext(
        "Your card covered one of the matching piles, so that match cannot be called any more."
    ),
    "match.gone": lambda n: gettext("The earlier match cannot be called any more."),
    # How a right move (or a late call) relates to the example.
    "example.same": lambda n: gettext("That is just what happens next in this example."),
    "example.differs": lambda n: gettext(
        "This example goes a different way. Go back to the example to watch it."
    ),
    "example.ends": lambda n: gettext("This example ends here. Well done!"),
    # A move that changed nothing: whose turn it is.
    "turn_of": lambda n: gettext("It is %(player)s’s turn."),
}


def sentence_text(sentence: Sentence, names: Sequence[str]) -> str:
    """One sentence of a note, in the active language, names and card isolated."""
    if sentence.key.startswith("refused."):
        return reject_text(sentence.key.removeprefix("refused."))
    words = NOTES[sentence.key](sentence.count if sentence.count is not None else 1)
    values: dict[str, str | int] = {}
    if sentence.player is not None:
        values["player"] = names[sentence.player]
    if sentence.receiver is not None:
        values["receiver"] = names[sentence.receiver]
    if sentence.card is not None:
        values["card"] = card_name(sentence.card)
    if sentence.count is not None:
        values["count"] = sentence.count
    return fill(words, **values)


def note_text(sentences: Sequence[Sentence], names: Sequence[str]) -> str:
    """A note: its sentences, each whole, one after another."""
    return " ".join(sentence_text(s, names) for s in sentences)
