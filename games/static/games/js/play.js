// A live table's page: a client of the table protocol (docs/protocol.md).
// Everything it shows comes from the server: the view after each event (counts
// and face-up cards only), and each event told in this page's language (`text`).
// It never decides an outcome: a move is sent, and the server's events answer.
// At a class table it also follows the teacher's controls (a pause, a new game at a
// new table), sends the walkthroughs finished on this device, and, as the class's
// projector view (config.projector), only watches, big.
import { drawTable } from "./table.js";
import { connectProjector } from "./projector.js";
import { openTableSocket, takeWelcome } from "./table-socket.js";
import { addToLog } from "./told-log.js";
import { gameStateText, isolate, standInText } from "./table-status.js";
import { onPress, reactionClock } from "./press.js";

const { gettext, ngettext, interpolate } = window;
const config = JSON.parse(document.getElementById("table-config").textContent);
const root = document.getElementById("live-table");
const picture = document.getElementById("table-picture");
const statusLine = document.getElementById("table-status");
const refusedLine = document.getElementById("move-refused");
const log = document.getElementById("told-log");
const announcer = document.getElementById("announcer");
const joinForm = document.getElementById("join-seat");
const nameInput = document.getElementById("join-name");
const finished = document.getElementById("finished");
const finishedText = document.getElementById("finished-text");
const moves = Object.fromEntries([...root.querySelectorAll("[data-move]")].map((b) => [b.dataset.move, b]));
const moveGroup = root.querySelector(".live-buttons");
const soundButton = root.querySelector('[data-action="sound"]');
const outBox = document.getElementById("out-box");
const LOG_LENGTH = 8; // events kept on screen
const HISTORY = 6; // events told again when the page opens on a game under way
// Told to screen readers as they happen: each turned card and each result, not
// every step of a race.
const ANNOUNCED = new Set([
  "card_turned", "pile_turned_over", "piles_won", "tie_to_pot", "wrong_call",
  "too_late", "player_out", "player_back", "game_over",
]);
const SOUNDS = { card_turned: 440, piles_won: 660, tie_to_pot: 520, wrong_call: 220, game_over: 880 };

const table = {
  seat: null, // this browser's seat, or null while watching
  seats: [],
  started: false,
  klass: null, // a class table's state (docs/protocol.md, "A class table"), else null
  pace: {},
  view: null,
  lastSeq: null, // the last event shown (null before the first welcome)
  previous: null, // the view before the last one drawn, to mark what changed
  out: false, // this browser's person has no cards left (RULES R16), the game goes on
  watching: false, // ... and chose to watch it to the end
};
let link = null; // the table's connection (table-socket.js), opened at the end

// ---- Connection -----------------------------------------------------------

const send = (message) => link && link.send(message);
const connected = () => Boolean(link) && link.connected();

function connectionClosed({ gone, retrying }) {
  root.classList.add("welcomed"); // show what there is: the status says why it is empty
  if (gone) showStatus(gettext("This table does not exist any more."));
  updateButtons();
  if (retrying) showStatus(gettext("The connection was lost. Connecting again…"));
}

// ---- Server frames ----------------------------------------------------------

const handlers = {
  welcome(frame) {
    const first = table.lastSeq === null;
    const before = first ? null : { seat: table.seat, started: table.started };
    table.seat = frame.seat;
    table.seats = frame.seats;
    table.started = frame.started;
    table.pace = frame.pace;
    table.klass = frame.class;
    if (table.klass && table.klass.next_code) {
      follow(table.klass.next_code);
      return;
    }
    takeWelcome(table, frame, { first, history: HISTORY, clock, send });
    showSeats();
    draw(); // the seat may be new (just sat down, or back after a reconnection)
    // Until the first welcome the page under the table's name is kept unseen (play.css):
    // the status, the join form and the table then appear in their places, nothing moves.
    root.classList.add("welcomed");
    bringMovesIntoView(before);
    if (frame.stood_in) table.standIn = { did: frame.stood_in, at: frame.seq };
    tellStandInWhenCaughtUp();
    sendDone();
  },
  control(frame) {
    table.klass = frame.class;
    tell(frame, { announce: true });
    if (frame.code === "restarted") {
      follow(frame.params.code);
      return;
    }
    showSeats();
    updateButtons();
  },
  class(frame) {
    table.klass = frame.class;
    showSeats();
    updateButtons();
  },
  seats(frame) {
    const before = { seat: table.seat, started: table.started };
    table.seats = frame.seats;
    table.started = frame.started;
    showSeats();
    draw();
    bringMovesIntoView(before);
  },
  event(frame) {
    if (frame.seq <= table.lastSeq) return;
    if (frame.seq > table.lastSeq + 1) {
      send({ type: "resync", since: table.lastSeq });
      return;
    }
    table.lastSeq = frame.seq;
    table.previous = table.view;
    table.view = frame.view;
    const old = table.history && frame.seq <= table.history;
    if (!old) clock.shown(frame.seq); // history is told, but the view drawn is the welcome's
    tell(frame, { announce: !old });
    if (!old) sound(frame.code);
    draw({ live: !old });
    if (frame.code === "game_over") finish(frame.text, { focus: !old });
    refusedLine.textContent = "";
    tellStandInWhenCaughtUp();
  },
  error(frame) {
    const text = frame.message || gettext("That move is not allowed now.");
    refusedLine.textContent = text; // role="alert": read out at once
    if (!joinForm.hidden) nameInput.setAttribute("aria-invalid", "true"); // a name refused
  },
  ping(frame) {
    send({ type: "pong", t: frame.t });
  },
  pong() {},
};

// ---- Drawing ----------------------------------------------------------------


function labelOf(seat) {
  const s = table.seats[seat];
  return s ? s.label : "";
}

function pictureData() {
  const v = table.view;
  const before = table.previous;
  const card = (code) => (code ? config.cards[code] : null);
  const changed = (list, i) => before !== null && before[list][i] !== v[list][i];
  return {
    players: v.face_down_counts.map((down, i) => ({
      seat: i,
      name: labelOf(i),
      face_down: down,
      face_up: v.face_up_counts[i],
      top: card(v.face_up_tops[i]),
      out: v.out[i],
      to_play: i === v.to_play && !v.over && table.started,
      lost: Boolean(table.seats[i] && table.seats[i].lost && !table.seats[i].away),
      learner: i === table.seat,
      changed: changed("face_down_counts", i) || changed("face_up_tops", i),
    })),
    pot: {
      count: v.pot_count,
      top: card(v.pot_top),
      blocked: v.pot_blocked,
      changed: before !== null && (before.pot_count !== v.pot_count || before.pot_top !== v.pot_top),
    },
    over: v.over,
  };
}

function draw({ live = false } = {}) {
  root.classList.toggle("seated", table.seat !== null && !config.projector);
  if (!table.view) return;
  drawTable(picture, pictureData());
  root.classList.toggle("race-open", table.view.race_open);
  root.classList.toggle("my-turn", isMyTurn());
  root.classList.toggle("started", Boolean(table.started));
  updateButtons();
  showOut({ live });
}

// A person with no cards left (RULES R16) has no move while the others play on: told at
// once, where the moves were, with the moves away; at a practice table with "Play again"
// (the same game, one press) or "Watch to the end".
function isOut() {
  const v = table.view;
  return v !== null && table.seat !== null && table.started && !v.over && Boolean(v.out[table.seat]);
}

function showOut({ live }) {
  const out = isOut();
  if (out === table.out) return;
  table.out = out;
  root.classList.toggle("out-of-game", out);
  if (outBox) outBox.hidden = !out || table.watching;
  showSeats();
  if (out && live && outBox) {
    document.getElementById("out-text").focus(); // the moves went: keyboard and reader come here
    announcer.textContent = document.getElementById("out-text").textContent;
    if (outBox.getBoundingClientRect().bottom > window.innerHeight) outBox.scrollIntoView({ block: "nearest" });
  }
}

if (outBox) {
  const watch = outBox.querySelector('[data-action="watch"]');
  if (watch) {
    watch.addEventListener("click", () => {
      table.watching = true;
      outBox.hidden = true;
      document.getElementById("told").focus(); // where the game goes on
    });
  }
}

function isMyTurn() {
  const v = table.view;
  return v !== null && table.seat !== null && table.started && !v.over && v.to_play === table.seat;
}

function updateButtons() {
  const focused = document.activeElement;
  const v = table.view;
  const paused = Boolean(table.klass && table.klass.paused);
  const playing = connected() && v && table.seat !== null && table.started && !v.over && !paused;
  const hasCards = playing && !v.out[table.seat];
  moves.turn.disabled = !(hasCards && isMyTurn() && !v.race_open && !table.pace.beat_ms);
  moves.turn.hidden = Boolean(table.pace.beat_ms);
  moves.snap.disabled = !hasCards;
  moves.snap_pot.disabled = !hasCards;
  keepMoveFocus(focused);
}

// A focused button that becomes disabled drops the focus to <body>, and a screen reader
// loses its place (2.4.3). The focus waits on the moves' group instead (not on another
// move: a second Enter would call "Snap!" by mistake), and goes back to "Turn over a
// card" when the turn comes back.
function keepMoveFocus(focused) {
  const possible = (b) => !b.disabled && !b.hidden;
  if (Object.values(moves).includes(focused) && !possible(focused)) {
    moveGroup.tabIndex = -1;
    moveGroup.focus();
  } else if (focused === moveGroup && possible(moves.turn)) moves.turn.focus();
}

// A child who sits down (by the code, at a class's start, at the class's next game)
// finds the table and the moves on screen, without scrolling: the page's top bar
// scrolls away, and the moves come up too when the screen is short.
function bringMovesIntoView(before) {
  if (config.projector || table.seat === null) return;
  const satDown = before === null || before.seat !== table.seat;
  const began = before !== null && !before.started && table.started;
  if (!satDown && !began) return;
  root.scrollIntoView({ block: "start" });
  if (moveGroup.getBoundingClientRect().bottom > window.innerHeight) moveGroup.scrollIntoView({ block: "end" });
}

// The opener of a lobby table may start it with the players there (docs/protocol.md).
const startNow = document.getElementById("start-now");
startNow.querySelector("button").addEventListener("click", () => send({ type: "start" }));

function showStartNow(taken) {
  const opener = !table.klass && table.seat === 0 && !table.started && !config.projector;
  startNow.hidden = !(opener && taken >= 2 && connected());
}

function showStatus(text) {
  if (statusLine.textContent === text) return; // role="status": told again on every change
  statusLine.textContent = text;
}

/** Waiting for players, watching, or whom this browser plays as. */
function playerText(taken, total) {
  if (!table.started) {
    return interpolate(
      ngettext(
        "Waiting for players: %(taken)s of %(total)s seats taken. Share the code or the link.",
        "Waiting for players: %(taken)s of %(total)s seats taken. Share the code or the link.",
        taken,
      ),
      { taken, total },
      true,
    );
  }
  if (table.seat === null && config.projector) return ""; // the wall shows the table, not a student's words
  if (table.seat === null) return gettext("You are watching this game.");
  if (table.out && outBox) return document.getElementById("out-text").textContent;
  return interpolate(gettext("You play as %(name)s."), { name: isolate(labelOf(table.seat)) }, true);
}

function showSeats() {
  const taken = table.seats.filter((s) => s.taken).length;
  const total = table.seats.length;
  const free = total - taken;
  const k = table.klass;
  const mayJoin = table.seat === null && free > 0 && !(table.view && table.view.over);
  // the teacher of a class never takes a seat (the server would refuse: is_teacher)
  joinForm.hidden = !mayJoin || config.projector || Boolean(k && k.teacher);
  showStartNow(taken);
  let text = gameStateText(table) ?? playerText(taken, total);
  // A lost connection is told at once; the stand-in, when it comes, is named after the
  // absent person ("Computer for Luka"), never as that person.
  for (const s of table.seats.filter((seat) => seat.lost && !seat.away && seat.seat !== table.seat)) {
    text += " " + interpolate(
      gettext("%(name)s’s connection was lost. If they do not come back soon, a computer player will play for them."),
      { name: isolate(s.name) },
      true,
    );
  }
  text += standInText(table.seats);
  if (table.view && table.view.over) text = gameStateText(table); // nobody comes back to a game over
  showStatus(text.trim());
}

// ---- Telling what happened ----------------------------------------------------

function ruleLinks(ids) {
  const links = ids.map((id) => config.rules[id]).filter(Boolean);
  if (!links.length) return null;
  const p = document.createElement("span");
  p.className = "told-rules";
  p.append(" ");
  links.forEach((link, i) => {
    if (i) p.append(", ");
    const a = document.createElement("a");
    a.href = link.url;
    a.target = "_blank";
    const id = document.createElement("bdi");
    id.textContent = link.id;
    a.append(link.section ? `${link.section} (` : "", id, link.section ? ")" : "");
    p.append(a);
  });
  return p;
}

function tell(frame, { announce }) {
  if (!frame.text) return;
  const item = document.createElement("li");
  item.className = frame.type === "control" ? "told-control" : `told-${frame.code}`;
  item.append(frame.text);
  const rules = ruleLinks(frame.rules || []);
  if (rules) item.append(rules);
  addToLog(log, item, frame.code, LOG_LENGTH);
  showNewest();
  if (announce && (ANNOUNCED.has(frame.code) || frame.type === "control")) announcer.textContent = frame.text;
}

// The newest line is never cut off: the log's box grows to hold all of it (a long
// sentence on a phone), and shows the top.
const toldBox = document.getElementById("told");
function showNewest() {
  toldBox.style.maxBlockSize = "";
  const first = log.firstElementChild;
  const box = getComputedStyle(toldBox);
  const padding = parseFloat(box.paddingTop) + parseFloat(box.paddingBottom);
  const borders = parseFloat(box.borderTopWidth) + parseFloat(box.borderBottomWidth);
  const room = toldBox.clientHeight - padding; // what the lines have (border-box sizing)
  if (first && first.offsetHeight > room) {
    toldBox.style.maxBlockSize = `${Math.ceil(first.offsetHeight + padding + borders) + 1}px`;
  }
  toldBox.scrollTop = 0;
}
window.addEventListener("resize", showNewest);

// Back at a seat a computer player was playing for: what it did meanwhile (counted by
// the server from the table's events), told on top once the events missed are told.
function tellStandInWhenCaughtUp() {
  if (!table.standIn || table.lastSeq < table.standIn.at) return;
  tellStandIn(table.standIn.did);
  table.standIn = null;
}

function tellStandIn(did) {
  const n = (text, count) => interpolate(text, { count }, true);
  const parts = [gettext("While you were away, a computer player played for you.")];
  parts.push(n(ngettext("It turned over %(count)s card.", "It turned over %(count)s cards.", did.turned), did.turned));
  if (did.won) parts.push(n(ngettext("It won %(count)s card.", "It won %(count)s cards.", did.won), did.won));
  if (did.ties) parts.push(n(ngettext("It tied %(count)s time.", "It tied %(count)s times.", did.ties), did.ties));
  if (did.wrong_calls) {
    const text = ngettext("It made %(count)s wrong call.", "It made %(count)s wrong calls.", did.wrong_calls);
    parts.push(n(text, did.wrong_calls));
  }
  tell({ type: "control", code: "stood_in", text: parts.join(" ") }, { announce: true });
}

// ---- A class table -------------------------------------------------------------

function follow(code) {
  // The class goes on at a new table (the teacher's "new game"): go there too.
  if (link) link.stop();
  location.assign(config.follow.replace("__CODE__", encodeURIComponent(code)));
}

const DONE_PREFIX = "snap-walkthrough-done:"; // as walkthrough.js marks them
let doneSent = "";

function sendDone() {
  // A class's student tells the teacher which walkthroughs this device has finished.
  if (!table.klass || table.seat === null || !connected()) return;
  const done = config.walkthroughs.filter((slug) => {
    try {
      return localStorage.getItem(DONE_PREFIX + slug) === "1";
    } catch {
      return false;
    }
  });
  const key = `${table.seat}:${done.join(",")}`;
  if (!done.length || key === doneSent) return;
  doneSent = key;
  send({ type: "done", walkthroughs: done });
}

// A walkthrough finished in another tab while at the table counts too.
window.addEventListener("storage", (e) => {
  if (e.key && e.key.startsWith(DONE_PREFIX)) sendDone();
});

function finish(text, { focus }) {
  finished.hidden = false;
  finishedText.textContent = text;
  if (focus) finishedText.focus(); // the buttons go away: keyboard and reader move here
  root.classList.add("over");
  showSeats();
  // A game already over when the page opened (a spectator, a shared link on a phone):
  // its outcome and "Watch the replay" come up on the first screen.
  if (!focus && !config.projector && finished.getBoundingClientRect().bottom > window.innerHeight) {
    finished.scrollIntoView({ block: "end" });
  }
}

// ---- Sound (optional, off until asked for) ----------------------------------

const SOUND_KEY = "snap-sound";
let audio = null;

function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

function sound(code) {
  if (!soundOn() || !(code in SOUNDS)) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = SOUNDS[code];
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.15);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.16);
  } catch {
    /* no audio here: sounds are optional */
  }
}

function showSound() {
  soundButton.setAttribute("aria-pressed", String(soundOn()));
}

soundButton.addEventListener("click", () => {
  try {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
  } catch {
    /* private mode: stays off */
  }
  showSound();
});
showSound();

// ---- Moves: buttons, keys, touch ------------------------------------------------

// A call says what the screen showed when it was pressed (RULES R9 (D), press.js).
const clock = reactionClock();

function move(kind) {
  const button = moves[kind];
  if (!button || button.disabled || button.hidden) return;
  const message = { type: kind };
  if (kind !== "turn") message.seen = clock.seen(table.lastSeq);
  send(message);
}

for (const [kind, button] of Object.entries(moves)) onPress(button, () => move(kind));

// Keys by their place on the keyboard (event.code), not the letter they type: on a
// Hebrew, Tamil or Marathi layout the T key types another letter, and still turns.
const KEYS = { KeyT: "turn", KeyS: "snap", KeyO: "snap_pot" };
const projector = connectProjector(root);
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  if (e.code in KEYS) {
    e.preventDefault();
    move(KEYS[e.code]);
  } else if (e.code === "KeyP") {
    e.preventDefault();
    projector.toggle();
  } else if (e.key === "Escape") projector.leave();
});

nameInput.addEventListener("input", () => nameInput.removeAttribute("aria-invalid"));
joinForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const name = joinForm.elements.name.value.trim();
  if (!name) {
    refusedLine.textContent = gettext("Type your name first.");
    nameInput.setAttribute("aria-invalid", "true"); // the message is its aria-describedby
    nameInput.focus();
    return;
  }
  send({ type: "join", name });
});

// The link to share has no language (/play/CODE/): each friend's device opens it in
// its own. A phone's own share sheet sends it where there is one (the Web Share API).
const shareBox = root.querySelector(".share-link");
const shareButton = shareBox.querySelector('[data-action="share"]');
if (typeof navigator.share === "function") {
  shareButton.hidden = false;
  shareBox.classList.add("can-share");
}
shareButton.addEventListener("click", async () => {
  const url = document.getElementById("share-url").value;
  try {
    await navigator.share({ title: document.title, url });
  } catch (error) {
    if (error && error.name === "AbortError") return; // the person closed the share sheet
    copyLink();
  }
});

async function copyLink() {
  const input = document.getElementById("share-url");
  try {
    await navigator.clipboard.writeText(input.value);
    announcer.textContent = gettext("The link is copied.");
  } catch {
    shareBox.classList.add("show-link"); // no clipboard here: the link, to copy by hand
    input.select();
  }
}
root.querySelector('[data-action="copy"]').addEventListener("click", copyLink);

if (config.projector) projector.enter();
link = openTableSocket({
  path: config.socket,
  lang: config.lang,
  lastSeq: () => table.lastSeq,
  handlers,
  onClose: connectionClosed,
});
