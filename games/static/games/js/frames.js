// The player's frames, read from the page. A walkthrough sends them as they are
// (games/frames/walkthroughs.py `frames`); a replay or game lesson, hundreds of steps
// long, sends them compact (games/frames/recorded.py `compact`): each card, rule
// link and sentence once, the tables as small arrays. Both open out here into
// the same shape, so the player and the table picture never see the difference.
// A teacher's lesson adds a note of the teacher's own to some frames (`m`).

const OUT = 1;
const TO_PLAY = 2;
const CHANGED = 4;
const BLOCKED = 1;
const POT_CHANGED = 2;

/** The frames in the JSON `script` element. */
export function readFrames(script) {
  const data = JSON.parse(script.textContent);
  return Array.isArray(data) ? data : expand(data);
}

export function expand(data) {
  const card = (code) => (code ? data.cards[code] : null);
  const text = (index) => data.texts[index];
  const links = (ids) => (ids || []).map((id) => data.rules[id]);
  // A seat a computer player stood in for at that step is called as the live table
  // called it ("Computer for Luka"); the learner's own presses (answers) stay theirs.
  const standingIn = data.standing_in || data.names;
  const namesAt = (stoodIn, keep) =>
    data.names.map((name, seat) => (stoodIn.includes(seat) && seat !== keep ? standingIn[seat] : name));
  const table = (t, names) =>
    t && {
      players: t.p.map(([faceDown, faceUp, top, flags], seat) => ({
        seat,
        name: names[seat],
        face_down: faceDown,
        face_up: faceUp,
        top: card(top),
        out: Boolean(flags & OUT),
        to_play: Boolean(flags & TO_PLAY),
        learner: seat === data.learner,
        changed: Boolean(flags & CHANGED),
      })),
      pot: {
        count: t.pot[0],
        top: card(t.pot[1]),
        blocked: Boolean(t.pot[2] & BLOCKED),
        changed: Boolean(t.pot[2] & POT_CHANGED),
      },
      over: Boolean(t.o),
    };
  const answer = (b, names) => ({
    outcome: b.o,
    note: text(b.n),
    events: (b.e || []).map(text),
    clauses: links(b.r),
    table: table(b.t, names),
  });
  return data.frames.map((f, i) => {
    const pressing = namesAt(f.a || [], data.learner);
    return {
      number: i + 1,
      caption: text(f.c),
      events: [],
      clauses: links(f.r),
      expects: f.x || null,
      table: table(f.t, namesAt(f.a || [], null)),
      branches: Object.fromEntries(Object.entries(f.b || {}).map(([press, b]) => [press, answer(b, pressing)])),
      stood_in: f.a || [],
      note: f.m || "",
    };
  });
}
