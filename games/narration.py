"""The words of the walkthroughs: titles, summaries and step captions.

Captions may use ``%(p0)s``…``%(p3)s`` (the players' names, by seat),
``%(you)s`` (the name of the player the learner plays) and ``%(card)s``
(the last card turned in the step). Each is a whole sentence or more,
never glued to another piece.
"""

from django.utils.translation import gettext_lazy as _

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
    "first-turns": _("The dealer deals every card, then everyone turns one card in turn."),
    "snap-by-anyone": _("Two other players’ piles match: call “Snap!” first and win them."),
    "wrong-call": _("Calling when nothing matches costs a card to the player who just played."),
    "wrong-call-own-turn": _(
        "A mistake on your own turn: the card goes to the player on your right."
    ),
    "tie": _("Two players call at the same moment: the piles go to the middle."),
    "snap-pot": _("A card matches the Snap Pot: call “Snap Pot!” to win it."),
    "snap-pot-tie": _("Two players call “Snap Pot!” together: the pile joins the pot."),
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
        "Now it is your turn. You turned over the %(card)s, away from you, so everyone saw it "
        "at the same moment."
    ),
    "first_turns.clockwise": _(
        "Play moves clockwise: now %(p2)s turns over the %(card)s. No cards match yet."
    ),
    "first_turns.again": _(
        "Back to %(p0)s, who turns the %(card)s onto the face-up pile. Keep watching for a match!"
    ),
    # 2. A Snap anyone can win
    "snap_anyone.start": _(
        "You play as %(you)s. Look at the top cards of the face-up piles. It is %(p1)s’s turn."
    ),
    "snap_anyone.match": _(
        "%(p1)s turns over the %(card)s. It matches the top card of %(p0)s’s pile! "
        "Those piles are not yours, but you may call. Press “Snap!”."
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
        "%(p2)s calls “Snap!” anyway. That is a mistake: %(p2)s gives the top card of the "
        "face-down pile to %(p0)s, the player who has just played."
    ),
    "wrong_call.your_turn": _(
        "Your turn: you turn over the %(card)s. No match, so nobody should call."
    ),
    "wrong_call.done": _(
        "%(p2)s plays on with one card less. Only call when you really see a match!"
    ),
    # 4. A wrong call on your own turn
    "own_turn.start": _("You play as %(you)s. It is %(p2)s’s turn."),
    "own_turn.mistake": _(
        "%(p2)s turns over the %(card)s and calls “Snap!” straight away, but nothing matches. "
        "It was %(p2)s’s own turn, so the penalty card goes to the player on the right: "
        "that is you."
    ),
    "own_turn.next": _("%(p0)s turns over the %(card)s."),
    "own_turn.your_turn": _(
        "Your turn: you turn over the %(card)s. The penalty card is now at the bottom of "
        "your face-down pile."
    ),
    # 5. A tie
    "tie.start": _("You play as %(you)s. It is %(p1)s’s turn."),
    "tie.match": _("%(p1)s turns over the %(card)s. It matches %(p0)s’s top card. Press “Snap!”."),
    "tie.tied": _(
        "You and %(p0)s called at the same moment: a tie! Nobody wins. The two matching piles "
        "go to the middle as the Snap Pot, with a matching card on top."
    ),
    "tie.goes_on": _(
        "Play goes on where it stopped: it is your turn, and you turn over the %(card)s."
    ),
    # 6. Winning the Snap Pot
    "snap_pot.start": _(
        "You play as %(you)s. An earlier tie left a Snap Pot in the middle of the table. "
        "Look at its top card."
    ),
    "snap_pot.match": _(
        "%(p1)s turns over the %(card)s. It matches the top card of the Snap Pot! "
        "Press “Snap Pot!”."
    ),
    "snap_pot.won": _("You called “Snap Pot!” first: you win the Snap Pot and the matching pile."),
    "snap_pot.next": _("%(p2)s plays next and turns over the %(card)s."),
    # 7. A tie on the Snap Pot
    "pot_tie.start": _("You play as %(you)s. There is a Snap Pot in the middle."),
    "pot_tie.match": _(
        "%(p1)s turns over the %(card)s. It matches the Snap Pot. Press “Snap Pot!”."
    ),
    "pot_tie.tied": _(
        "You and %(p2)s called “Snap Pot!” at the same moment: a tie. The matching pile joins "
        "the Snap Pot, with its matching card on top, so the pot still shows that rank."
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
        "%(p2)s turns over the %(card)s, the last face-down card. It matches your pile! "
        "Press “Snap!”."
    ),
    "running_out.out": _(
        "You win both piles. %(p2)s has no cards left at all, so %(p2)s is out for now."
    ),
    "running_out.after_out": _("%(p0)s turns over the %(card)s."),
    "running_out.your_turn_again": _("Your turn: you turn over the %(card)s."),
    "running_out.skipped": _(
        "%(p2)s has no cards, so %(p2)s is skipped. It is %(p0)s’s turn again, with an empty "
        "face-down pile once more, so the face-up pile is turned over again."
    ),
    # 9. The index card
    "index_card.start": _(
        "You play as %(you)s. This table uses the index card: the first call to arrive wins, "
        "so there are no ties."
    ),
    "index_card.match": _(
        "%(p1)s turns over the %(card)s. It matches %(p0)s’s pile. Press “Snap!”."
    ),
    "index_card.first_wins": _(
        "Your hand was first on the index card, so you win the piles. %(p0)s was a moment "
        "later: too late, but that is not a mistake, so there is no penalty."
    ),
    "index_card.goes_on": _("Your turn: you turn over the %(card)s."),
    # 10. Three piles
    "three_piles.start": _(
        "You play as %(you)s. Look: %(p0)s and %(p2)s already show the same rank, and nobody "
        "has called. A missed match can still be called until one of the piles is covered."
    ),
    "three_piles.match": _(
        "%(p1)s turns over the %(card)s. Now three piles show the same rank! Press “Snap!”."
    ),
    "three_piles.won": _("You win all three matching piles at once."),
    # 11. Cards stuck in the Snap Pot
    "stuck_pot.start": _(
        "You play as %(you)s. Earlier you won two of the 10s. Later the other two 10s were "
        "in a tie, so they went to the Snap Pot. %(p1)s has only two cards left."
    ),
    "stuck_pot.your_turn": _("Your turn: you turn over the %(card)s."),
    "stuck_pot.ben_turns": _("%(p1)s turns over the %(card)s."),
    "stuck_pot.your_turn_again": _("Your turn again: you turn over the %(card)s."),
    "stuck_pot.match": _(
        "%(p1)s turns over the %(card)s, the last card. It matches your pile! Press “Snap!”."
    ),
    "stuck_pot.won": _(
        "You win the last cards. Now only you have cards: you win the game! The two 10s stay "
        "in the Snap Pot, because the game ends as soon as only one player has cards."
    ),
}

# What the page adds when the learner's press is not the example's next move.
MISTAKE_NOTE = {
    "R13": _(
        "That was the wrong moment. Your penalty card went to the player who has just played. "
        "Try again!"
    ),
    "R14": _(
        "That was the wrong moment. Your penalty card went to the player on your right. Try again!"
    ),
}
OTHER_NOTE = _("The game went another way than in this example. Try again!")
