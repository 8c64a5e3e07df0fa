// A table on one device (docs/protocol.md, "A table on one device"): one tablet lying
// flat, 2 to 4 people round it, each at an edge of their own (play/device.html). Like
// the table page (play.js) it is a client of the table protocol: everything it shows
// comes from the server (the view after each event, counts and face-up cards only, and
// each event told in the language of each edge: `texts`); it never decides an outcome.
// Each edge's buttons send their move with that edge's `seat`; each finger is a press of
// its own (press.js), so two children pressing at once are two calls, and the server
// judges them as it judges any two calls (the tie window).
//
// The words of an edge are in that edge's language: its labels are in the page
// (rendered under {% language %}), its counts' and cards' names in its `edge_words`,
// its narration and its refusals from the server. The middle speaks the page's
// language (gettext), or the edges' language when they all share one.
import { faceDownPile, faceUpPile, potBox } from "./table.js";
import { openTableSocket, takeWelcome } from "./table-socket.js";
import { gameStateText, standInText } from "./table-status.js";
import { addToLog } from "./told-log.js";
import { onPress, reactionClock } from "./press.js";

const { gettext, ngettext, interpolate } = window;
const config = JSON.parse(document.getElementById("table-config").textContent);
const root = document.getElementById("device-table");
const statusLine = document.getElementById("table-status");
const refusedLine = document.getElementById("move-refused");
const EDGE_LOG = 2; // lines kept at each edge: the newest, and the one before (a race and its "too late")
const CENTRE_LOG = 4;
const HISTORY = 4; // events told again when the page opens on a game under way
const ANNOUNCED = new Set([
  "card_turned", "pile_turned_over", "piles_won", "tie_to_pot", "wrong_call",
  "too_late", "player_out", "player_back", "game_over",
]);
// The group's beats (config.beats): slower (the default on one device) and faster.
const BEATS = config.beats || { slower: 3000, faster: 1800 };

const table = {
  mySeats: [], // the seats this browser holds (one per edge)
  seats: [],
  started: false,
  klass: null,
  pace: {},
  view: null,
  lastSeq: null, // the last event shown (null before the first welcome)
  history: null,
};
let link = null;
const clock = reactionClock();
const send = (message) => link && link.send(message);
const connected = () => Boolean(link) && link.connected();

// ---- The board: edges, computer players, the pot -------------------------------

function readEdge(node) {
  const words = JSON.parse(node.querySelector('script[type="application/json"]').textContent);
  return {
    node,
    seat: Number(node.dataset.seat),
    lang: node.lang,
    words,
    moves: Object.fromEntries([...node.querySelectorAll("[data-move]")].map((b) => [b.dataset.move, b])),
    log: node.querySelector(".edge-told"),
    refused: node.querySelector(".edge-refused"),
    piles: node.querySelector(".piles"),
    pressed: {}, // when each move was last sent from this edge
  };
}

const edges = root ? [...root.querySelectorAll(".edge")].map(readEdge) : [];
const bySeat = new Map(edges.map((edge) => [edge.seat, edge]));
// The other seats of the game (computer players, whenever they came: at the start of a
// class's tablet, or added by its teacher) are drawn in the middle from the table's
// seats as the server tells them, not only from the page as it was first drawn.
const botList = document.getElementById("device-bots");
const botTemplate = document.getElementById("device-bot");
const readBot = (node) => ({
  node,
  seat: Number(node.dataset.seat),
  name: node.querySelector(".name"),
  piles: node.querySelector(".piles"),
});
let bots = root ? [...root.querySelectorAll(".bot")].map(readBot) : [];

/** Every seat of the game that is at no edge of this tablet: a computer player, or a
 * person at another device. */
function middleSeats() {
  return table.seats.filter((s) => !bySeat.has(s.seat) && (s.bot || s.taken));
}

function syncBots() {
  if (!botList) return;
  const wanted = middleSeats();
  const seats = wanted.map((s) => s.seat).join(",");
  if (bots.map((bot) => bot.seat).join(",") !== seats) {
    const old = new Map(bots.map((bot) => [bot.seat, bot]));
    bots = wanted.map((s) => {
      if (old.has(s.seat)) return old.get(s.seat);
      const node = botTemplate.content.firstElementChild.cloneNode(true);
      node.dataset.seat = String(s.seat);
      return readBot(node);
    });
    botList.replaceChildren(...bots.map((bot) => bot.node));
  }
  botList.hidden = bots.length === 0;
}
const languages = new Set(edges.map((edge) => edge.lang));
/** The one language every edge reads, or null: then each edge has its own words. */
const sharedLang = languages.size === 1 ? [...languages][0] : null;
if (root) root.classList.toggle("shared-words", sharedLang !== null);
const centreLog = document.getElementById("centre-told");
// The shared words read in the edges' language (and its direction), which need not be
// the page's; the middle's own words (a teacher's control) stay in the page's.
const sharedIn = sharedLang === null ? null : { lang: sharedLang, dir: edges[0].node.dir };
const potHolder = document.getElementById("device-pot");
const announcer = document.getElementById("announcer");
const paceSwitch = root && root.querySelector('[data-action="pace"]');

const card = (code) => (code ? config.cards[code] : null);

function drawSeat(node, piles, seat, words) {
  const v = table.view;
  const down = v.face_down_counts[seat];
  const up = v.face_up_counts[seat];
  const top = v.face_up_tops[seat];
  const upLabel = words && [top && words.cards[top], words.up[up]].filter(Boolean).join(", ");
  piles.replaceChildren(faceDownPile(down, words && words.down[down]), faceUpPile(card(top), up, upLabel || null));
  const toPlay = table.started && !v.over && v.to_play === seat;
  node.classList.toggle("to-play", toPlay);
  node.classList.toggle("out", Boolean(v.out[seat]));
  node.querySelector(".badge.turn").hidden = !toPlay;
  node.querySelector(".badge.out-badge").hidden = !v.out[seat];
}

function draw() {
  const v = table.view;
  if (!root || !v) return;
  for (const edge of edges) drawSeat(edge.node, edge.piles, edge.seat, edge.words);
  syncBots();
  for (const bot of bots) {
    if (bot.seat >= v.face_down_counts.length) continue; // the game's seats are not drawn yet
    const seat = table.seats[bot.seat];
    if (seat && seat.label) bot.name.textContent = seat.label; // "Computer 1", in the page's language
    drawSeat(bot.node, bot.piles, bot.seat, null);
  }
  potHolder.replaceChildren(
    potBox({ count: v.pot_count, top: card(v.pot_top), blocked: v.pot_blocked, changed: false }),
  );
  root.classList.toggle("race-open", Boolean(v.race_open));
  root.classList.toggle("over", Boolean(v.over));
  updateButtons();
}

/** People turn their own cards unless the table turns them at a steady beat. */
const peopleTurn = () => !table.pace.beat_ms;

function updateButtons() {
  if (!root) return;
  const v = table.view;
  const paused = Boolean(table.klass && table.klass.paused);
  const playing = connected() && v && table.started && !v.over && !paused;
  root.classList.toggle("people-turn", peopleTurn());
  for (const edge of edges) {
    const hasCards = playing && table.mySeats.includes(edge.seat) && !v.out[edge.seat];
    const toPlay = hasCards && v.to_play === edge.seat;
    edge.moves.turn.hidden = !(peopleTurn() && toPlay);
    edge.moves.turn.disabled = !(peopleTurn() && toPlay && !v.race_open);
    edge.moves.snap.disabled = !hasCards;
    edge.moves.snap_pot.disabled = !hasCards;
  }
  showPace();
}

// ---- Moves -------------------------------------------------------------------

// A child who drums on a button sends one move per REPEAT_MS. The table's connection is
// shared by the whole tablet, and its frame budget (docs/protocol.md, "Limits": 20 at
// once, 10 a second) with it: the tablet spends its own smaller budget first, so that
// four children drumming at once lose only their extra presses here, never the
// connection (the server closes a connection that floods on past its warning).
const REPEAT_MS = 250;
const TABLET_BURST = 12;
const TABLET_PER_SECOND = 6;
const tabletBudget = { tokens: TABLET_BURST, at: performance.now() };

function tabletMayPress(now) {
  const refill = ((now - tabletBudget.at) * TABLET_PER_SECOND) / 1000;
  tabletBudget.tokens = Math.min(TABLET_BURST, tabletBudget.tokens + refill);
  tabletBudget.at = now;
  if (tabletBudget.tokens < 1) return false;
  tabletBudget.tokens -= 1;
  return true;
}

function move(edge, kind) {
  const button = edge.moves[kind];
  if (!button || button.disabled || button.hidden) return;
  const now = performance.now();
  if (now - (edge.pressed[kind] || -Infinity) < REPEAT_MS) return;
  if (!tabletMayPress(now)) return;
  edge.pressed[kind] = now;
  edge.refused.textContent = "";
  const message = { type: kind, seat: edge.seat };
  if (kind !== "turn") message.seen = clock.seen(table.lastSeq);
  send(message);
}

for (const edge of edges) {
  for (const [kind, button] of Object.entries(edge.moves)) onPress(button, () => move(edge, kind));
}
// A long press on a tablet opens no menu over the board.
if (root) root.addEventListener("contextmenu", (e) => e.preventDefault());

// The group's pace: the table turns the cards slowly; "faster" is the steady beat. At a
// class's tablet the teacher sets it (config.players_pace is false there).
const slow = () => table.pace.beat_ms > BEATS.faster;

// The middle is read from every edge, in every edge's language: the pace is two
// symbols (one arrow: the slow beat, two arrows: the faster one), the one in use
// pressed; their names, for a screen reader, are in the page's language.
const paceChoices = paceSwitch ? [...paceSwitch.querySelectorAll("[data-beat]")] : [];
const PACE_NAMES = { slower: gettext("Turn the cards slower"), faster: gettext("Turn the cards faster") };
for (const choice of paceChoices) {
  choice.setAttribute("aria-label", PACE_NAMES[choice.dataset.beat]);
  choice.title = PACE_NAMES[choice.dataset.beat];
}

function showPace() {
  if (!paceSwitch) return;
  const over = Boolean(table.view && table.view.over);
  paceSwitch.hidden = !(config.players_pace && table.mySeats.length && table.pace.beat_ms && !over);
  const now = slow() ? "slower" : "faster";
  for (const choice of paceChoices) choice.setAttribute("aria-pressed", String(choice.dataset.beat === now));
}

for (const choice of paceChoices) {
  choice.addEventListener("click", () => {
    const wanted = choice.dataset.beat;
    if (wanted === (slow() ? "slower" : "faster")) return; // already so
    send({ type: "pace", beat_ms: BEATS[wanted] });
  });
}

// ---- Telling what happened -------------------------------------------------------

/** The event told in `lang`: the server's `texts`, else its `text` (the page's). */
function textIn(frame, lang) {
  return (frame.texts && frame.texts[lang]) || frame.text || "";
}

function line(text, code, words = null) {
  const item = document.createElement("li");
  item.className = `told-${code}`;
  item.textContent = text;
  if (words) Object.assign(item, words); // lang, dir
  return item;
}

function tell(frame, { announce }) {
  if (!root) return;
  if (frame.type === "control") {
    if (frame.text) addToLog(centreLog, line(frame.text, "control"), "control", CENTRE_LOG);
  } else if (sharedLang !== null) {
    const text = textIn(frame, sharedLang);
    if (text && frame.code !== "game_over") {
      addToLog(centreLog, line(text, frame.code, sharedIn), frame.code, CENTRE_LOG);
    }
  } else {
    for (const edge of edges) {
      const text = textIn(frame, edge.lang);
      if (!text) continue;
      addToLog(edge.log, line(text, frame.code), frame.code, EDGE_LOG);
      fitLog(edge.log);
    }
  }
  if (announce && frame.text && (ANNOUNCED.has(frame.code) || frame.type === "control")) {
    announcer.textContent = frame.text;
  }
}

// An edge's words keep their box (the buttons do not move while a race is on): an older
// line that no longer fits wholly (the newest one took two lines) goes; only a newest line
// longer than the whole box makes it grow. Boxes are compared on screen, so this holds
// at every edge, whichever way it is turned.
function inside(inner, outer) {
  const r = inner.getBoundingClientRect();
  const box = outer.getBoundingClientRect();
  return r.top >= box.top - 0.5 && r.left >= box.left - 0.5 && r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5;
}

function fitLog(log) {
  log.style.blockSize = "";
  while (log.children.length > 1 && !inside(log.lastElementChild, log)) log.lastElementChild.remove();
  const first = log.firstElementChild;
  if (!first || inside(first, log)) return;
  first.classList.add("long"); // smaller first, so that the board does not move
  if (!inside(first, log)) log.style.blockSize = "auto";
}

window.addEventListener("resize", () => {
  for (const edge of edges) fitLog(edge.log);
});

// A refused move is told at its edge, in its language: as the newest line of the edge's
// words (where they have their room; a line of its own when the middle speaks for all),
// until that edge presses again or for REFUSED_MS.
const REFUSED_MS = 5000;

function refuse(edge, text) {
  clearTimeout(edge.refusedTimer);
  edge.refused.textContent = text; // role="alert": read out at once
  if (sharedLang === null) {
    addToLog(edge.log, line(text, "refused"), "refused", EDGE_LOG);
    fitLog(edge.log);
  }
  edge.refusedTimer = setTimeout(() => {
    edge.refused.textContent = "";
  }, REFUSED_MS);
}

function finish(frame) {
  const finished = document.getElementById("finished");
  finished.hidden = false;
  const text = document.getElementById("finished-text");
  text.textContent = textIn(frame, sharedLang || config.lang);
  if (sharedIn) Object.assign(text, sharedIn);
  showStatus();
}

function showStatus(text = null) {
  if (text === null) text = ((gameStateText(table) || "") + standInText(table.seats)).trim();
  if (statusLine.textContent !== text) statusLine.textContent = text;
}

// ---- Server frames ---------------------------------------------------------------

const edgeSeats = edges.map((edge) => edge.seat).sort((a, b) => a - b).join(",");
const RELOADED = "snap-device-reloaded";

/** The seats this browser holds changed (the tablet's players sat down, or a teacher
 * took one away): the page is drawn again by the server, edges and languages and all
 * (at most once in ten seconds, so that a disagreement cannot reload it for ever). */
function seatsChanged(mySeats) {
  const held = [...mySeats].sort((a, b) => a - b).join(",");
  if (held === edgeSeats) return false;
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(RELOADED)) || 0;
    if (Date.now() - last < 10000) return false;
    sessionStorage.setItem(RELOADED, String(Date.now()));
  } catch {
    return false;
  }
  if (link) link.stop();
  location.reload();
  return true;
}

function follow(code) {
  if (link) link.stop();
  location.assign(config.follow.replace("__CODE__", encodeURIComponent(code)));
}

const handlers = {
  welcome(frame) {
    const first = table.lastSeq === null;
    table.mySeats = frame.my_seats || (frame.seat === null || frame.seat === undefined ? [] : [frame.seat]);
    table.seats = frame.seats;
    table.started = frame.started;
    table.pace = frame.pace || {};
    table.klass = frame.class;
    if (table.klass && table.klass.next_code) {
      follow(table.klass.next_code);
      return;
    }
    if (seatsChanged(table.mySeats) || !root) return;
    takeWelcome(table, frame, { first, history: HISTORY, clock, send });
    showStatus();
    draw();
  },
  seats(frame) {
    table.seats = frame.seats;
    table.started = frame.started;
    showStatus();
    draw();
  },
  control(frame) {
    table.klass = frame.class === undefined ? table.klass : frame.class;
    if (frame.code === "restarted") {
      follow(frame.params.code);
      return;
    }
    if (frame.code === "pace_changed" || frame.code === "players_pace") {
      table.pace = { turn_timer_ms: frame.params.turn_timer_ms, beat_ms: frame.params.beat_ms };
    }
    tell(frame, { announce: true });
    showStatus();
    updateButtons();
  },
  class(frame) {
    table.klass = frame.class;
    showStatus();
    updateButtons();
  },
  event(frame) {
    if (table.lastSeq === null || frame.seq <= table.lastSeq) return;
    if (frame.seq > table.lastSeq + 1) {
      send({ type: "resync", since: table.lastSeq });
      return;
    }
    table.lastSeq = frame.seq;
    table.view = frame.view;
    const old = table.history && frame.seq <= table.history;
    if (!old) clock.shown(frame.seq); // history is told, but the view drawn is the welcome's
    tell(frame, { announce: !old });
    draw();
    if (frame.code === "game_over") finish(frame);
    refusedLine.textContent = "";
  },
  error(frame) {
    // A refused move names its seat, told in that seat's language at that edge.
    const edge = bySeat.get(frame.seat);
    const text = frame.message || gettext("That move is not allowed now.");
    if (edge) refuse(edge, text);
    else refusedLine.textContent = text;
  },
  ping(frame) {
    send({ type: "pong", t: frame.t });
  },
  pong() {},
};

function connectionClosed({ gone, retrying }) {
  if (gone) showStatus(gettext("This table does not exist any more."));
  else if (retrying) showStatus(gettext("The connection was lost. Connecting again…"));
  updateButtons();
}

// ---- "Who is at this tablet?" (a class's tablet before anyone sat down) -------------

const joinForm = document.getElementById("device-join");
if (joinForm) {
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const names = [...joinForm.querySelectorAll('[name="name"]')];
    const players = names
      .map((input) => ({
        name: input.value.trim(),
        lang: input.closest("fieldset").querySelector('[name="lang"]').value,
      }))
      .filter((player) => player.name);
    if (players.length < Math.min(2, names.length)) {
      refusedLine.textContent = gettext("Write the names of at least two players.");
      names[players.length].setAttribute("aria-invalid", "true");
      names[players.length].focus();
      return;
    }
    refusedLine.textContent = "";
    send({ type: "join", players });
  });
  joinForm.addEventListener("input", (e) => e.target.removeAttribute("aria-invalid"));
}

link = openTableSocket({
  path: config.socket,
  lang: config.lang,
  lastSeq: () => table.lastSeq,
  handlers,
  onClose: connectionClosed,
});
