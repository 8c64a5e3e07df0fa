// People need time to react, and a race is won by the first hand.
//
// A move is sent when the finger or the mouse goes down, not when it comes up: in a
// race, the click's delay would cost the child the piles. Each finger is a pointer of
// its own, so two children pressing at once (one tablet, two edges) are two presses.
// The keyboard (Enter or Space on a button) still works, through its click.
//
// RULES R9 (D): a call pressed less than REACTION_MS after the screen changed is
// judged against the screen before the change. So the page keeps when the screen last
// changed and what it showed before, and a call sends that as `seen`. Events arriving
// within BURST_MS of each other are one change (one action's events come together).

const REACTION_MS = 250;
const BURST_MS = 30;

/** Call `act()` when `button` is pressed (pointer down, or a click from the keyboard). */
export function onPress(button, act) {
  let pressedAt = -Infinity; // not 0: a press in the page's first second counts too
  button.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    pressedAt = performance.now();
    act();
  });
  button.addEventListener("click", () => {
    if (performance.now() - pressedAt < 1000) return; // already sent on pointerdown
    act();
  });
}

/** What the screen showed when a call was pressed: `shown(seq)` when an event is drawn,
 * `reset(seq)` when the page draws a whole new state, `seen(lastSeq)` at a press. */
export function reactionClock() {
  let change = { at: -Infinity, before: null };
  return {
    shown(seq) {
      const now = performance.now();
      if (now - change.at > BURST_MS) change = { at: now, before: seq - 1 };
    },
    reset(seq) {
      change = { at: -Infinity, before: seq };
    },
    seen(lastSeq) {
      return performance.now() - change.at < REACTION_MS ? change.before : lastSeq;
    },
  };
}
