// The teacher's page of a class table: a client of the table protocol
// (docs/protocol.md, "A class table"). It shows the seats, the walkthroughs each
// student has finished and what happens, and sends the teacher's controls; the
// server checks every control again and answers with the class's new state.
import { openTableSocket } from "./table-socket.js";
import { standInText } from "./table-status.js";

const { gettext, ngettext, interpolate } = window;
const config = JSON.parse(document.getElementById("class-config").textContent);
const page = document.getElementById("class-page");
const statusLine = document.getElementById("class-status");
const alertBox = document.getElementById("class-alert");
const refusedLine = document.getElementById("control-refused");
const seatsBody = document.getElementById("class-seats");
const doneTitle = document.getElementById("seats-done-title");
const overBox = document.getElementById("class-over");
const joinBox = document.getElementById("class-join");
const overText = document.getElementById("class-over-text");
const log = document.getElementById("told-log");
const paceForm = document.getElementById("pace-form");
const paceNow = document.getElementById("pace-now");
const botLevel = document.getElementById("bot-level");
const buttons = Object.fromEntries([...page.querySelectorAll("[data-control]")].map((b) => [b.dataset.control, b]));
const LOG_LENGTH = 10;
const HISTORY = 6;

const state = {
  seats: [],
  klass: null,
  view: null,
  lastSeq: null,
  done: [],
  overText: "",
};
let link = null; // the table's connection (table-socket.js), opened at the end

const isolate = (text) => `\u2068${text}\u2069`;

const send = (message) => link && link.send(message);
const connected = () => Boolean(link) && link.connected();

function connectionClosed({ gone, retrying }) {
  render();
  if (gone) statusLine.textContent = gettext("This table does not exist any more.");
  else if (retrying) statusLine.textContent = gettext("The connection was lost. Connecting again…");
}

function follow(code) {
  location.assign(config.follow.replace("__CODE__", encodeURIComponent(code)));
}

function tell(text, className) {
  if (!text) return;
  const item = document.createElement("li");
  item.className = className;
  item.textContent = text;
  log.prepend(item);
  while (log.children.length > LOG_LENGTH) log.lastElementChild.remove();
}

const handlers = {
  welcome(frame) {
    const first = state.lastSeq === null;
    state.seats = frame.seats;
    state.klass = frame.class;
    state.done = (frame.class && frame.class.done) || state.done;
    if (first || frame.seq <= state.lastSeq) {
      state.view = frame.view;
      state.lastSeq = frame.seq;
      if (first && frame.seq > 0) {
        state.lastSeq = Math.max(0, frame.seq - HISTORY); // tell the last events again
        send({ type: "resync", since: state.lastSeq });
      }
    }
    if (state.klass && state.klass.next_code) follow(state.klass.next_code);
    render();
  },
  seats(frame) {
    for (const seat of newlyLost(state.seats, frame.seats)) tell(lostText(seat), "told-lost");
    state.seats = frame.seats;
    render();
  },
  event(frame) {
    if (frame.seq <= state.lastSeq) return;
    if (frame.seq > state.lastSeq + 1) {
      send({ type: "resync", since: state.lastSeq });
      return;
    }
    state.lastSeq = frame.seq;
    state.view = frame.view;
    tell(frame.text, `told-${frame.code}`);
    if (frame.code === "game_over") state.overText = frame.text;
    render();
  },
  control(frame) {
    state.klass = { ...frame.class, done: state.done };
    tell(frame.text, "told-control");
    if (frame.code === "pace_changed") paceNow.textContent = frame.text;
    refusedLine.textContent = "";
    if (frame.code === "restarted") follow(frame.params.code);
    render();
  },
  class(frame) {
    state.klass = { ...frame.class, done: state.done };
    render();
  },
  progress(frame) {
    state.done[frame.seat] = frame.done;
    render();
  },
  error(frame) {
    refusedLine.textContent = frame.message || gettext("That is not possible at this moment of the game.");
  },
};

// ---- A student's lost connection: the teacher is told first, at the top ----------

const isLost = (seat) => Boolean(seat.lost) && !seat.bot;

function newlyLost(before, after) {
  return after.filter((seat) => isLost(seat) && !seat.away && !before.some((b) => b.seat === seat.seat && isLost(b)));
}

function lostText(seat) {
  return interpolate(
    gettext("%(name)s’s connection was lost. If they do not come back soon, a computer player will play for them."),
    { name: isolate(seat.name || seat.label) },
    true,
  );
}

/** The sentences of the alert at the top: who is cut off, who a computer plays for,
 * and what the teacher can do; "" when every student is connected. */
function alertText() {
  if (!state.klass || (state.view && state.view.over)) return "";
  const lost = state.seats.filter((seat) => isLost(seat) && !seat.away);
  const parts = lost.map(lostText);
  const away = standInText(state.seats).trim();
  if (away) parts.push(away);
  if (!parts.length) return "";
  if (state.klass.started && !state.klass.paused && !state.klass.pausing) {
    parts.push(gettext("You can pause the game until they are back."));
  }
  return parts.join(" ");
}

function renderAlert() {
  const text = alertText();
  if (alertBox.textContent !== text) alertBox.textContent = text; // role="alert": read at once
  alertBox.classList.toggle("shown", Boolean(text));
}

// ---- Drawing ----------------------------------------------------------------

function statusText() {
  const k = state.klass;
  const v = state.view;
  if (!k) return "";
  if (k.next_code) return gettext("This class has gone on to a new table.");
  if (v && v.over) return gettext("The game is over.");
  if (!k.started) {
    const taken = state.seats.filter((s) => s.taken).length;
    const total = state.seats.length;
    return interpolate(
      ngettext(
        "Waiting for students: %(taken)s of %(total)s seats taken. Start the game when everyone is sitting down.",
        "Waiting for students: %(taken)s of %(total)s seats taken. Start the game when everyone is sitting down.",
        taken,
      ),
      { taken, total },
      true,
    );
  }
  if (k.pausing) return gettext("The game pauses as soon as this race is over…");
  if (k.paused) return gettext("The game is paused: nobody can play until you go on.");
  return gettext("The game is under way.");
}

function seatChanges() {
  const k = state.klass;
  return Boolean(k && (!k.started || k.paused) && !(state.view && state.view.over));
}

function button(text, onClick, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "button secondary small";
  b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  b.disabled = !connected();
  b.addEventListener("click", onClick);
  return b;
}

function doneCell(seat) {
  const cell = document.createElement("td");
  cell.setAttribute("role", "cell");
  if (seat.bot || !seat.taken) return cell;
  const done = state.done[seat.seat] || [];
  const total = config.walkthroughs.length;
  // A phone shows the seat as a card, without the column headers: the column's name
  // is written above the count there (hidden from screen readers, which have the header).
  const label = document.createElement("p");
  label.className = "cell-label";
  label.setAttribute("aria-hidden", "true");
  label.textContent = doneTitle.textContent.trim();
  const count = document.createElement("p");
  count.className = "done-count";
  count.textContent = interpolate(
    ngettext("%(done)s of %(total)s", "%(done)s of %(total)s", done.length),
    { done: done.length, total },
    true,
  );
  cell.append(label, count);
  if (done.length) {
    const list = document.createElement("ul");
    list.className = "done-list";
    for (const w of config.walkthroughs) {
      if (!done.includes(w.slug)) continue;
      const item = document.createElement("li");
      item.textContent = w.title;
      list.append(item);
    }
    cell.append(list);
  }
  return cell;
}

function changeCell(seat) {
  const cell = document.createElement("td");
  cell.setAttribute("role", "cell");
  const over = state.view && state.view.over;
  if (seat.taken && !seat.bot && !over) {
    cell.append(
      button(
        gettext("Remove from the table"),
        () => send({ type: "remove_player", seat: seat.seat }),
        interpolate(gettext("Remove %(name)s from the table"), { name: isolate(seat.label) }, true),
      ),
    );
  } else if (seat.bot && seatChanges()) {
    cell.append(button(gettext("Remove the computer player"), () => send({ type: "remove_bot", seat: seat.seat })));
  } else if (!seat.taken && state.klass && state.klass.fill_level && !state.klass.started) {
    // "computer players for free seats" was ticked: the start fills this seat
    const note = document.createElement("span");
    note.className = "seat-note";
    note.textContent = interpolate(
      gettext("A computer player (%(level)s) takes this seat at the start."),
      { level: config.levels[state.klass.fill_level] || "" },
      true,
    );
    cell.append(note);
  } else if (!seat.taken && seatChanges()) {
    cell.append(
      button(gettext("Add a computer player"), () =>
        send({ type: "add_bot", seat: seat.seat, level: botLevel.value }),
      ),
    );
  }
  return cell;
}

function playerCell(seat) {
  const cell = document.createElement("td");
  cell.setAttribute("role", "cell");
  const name = document.createElement("bdi");
  name.className = seat.taken ? "seat-player" : "seat-free";
  name.textContent = seat.label;
  cell.append(name);
  let note = "";
  if (seat.bot) note = config.levels[seat.level] || "";
  else if (seat.away) note = gettext("away: a computer player plays for now");
  else if (isLost(seat)) note = gettext("connection lost");
  if (note) {
    const small = document.createElement("span");
    small.className = "seat-note";
    small.textContent = note;
    cell.append(" ", small);
  }
  return cell;
}

function renderSeats() {
  const rows = state.seats.map((seat) => {
    const row = document.createElement("tr");
    row.setAttribute("role", "row");
    row.className = seat.bot ? "seat-bot" : seat.taken ? "seat-student" : "seat-empty";
    const number = document.createElement("th");
    number.scope = "row";
    number.setAttribute("role", "rowheader");
    number.tabIndex = -1; // where the focus goes when its row's button goes away
    number.textContent = String(seat.seat + 1);
    row.append(number, playerCell(seat), doneCell(seat), changeCell(seat));
    return row;
  });
  // Drawn again only when a seat changed (each frame would take the focus away), and
  // then a button focused in a row hands the focus to that row's new button (else to
  // its seat number), not to <body>.
  const html = rows.map((r) => r.outerHTML).join("");
  if (html === [...seatsBody.children].map((r) => r.outerHTML).join("")) return;
  const focused = document.activeElement;
  const at = seatsBody.contains(focused) ? [...seatsBody.children].indexOf(focused.closest("tr")) : -1;
  seatsBody.replaceChildren(...rows);
  const again = rows[at];
  if (!again) return;
  (again.querySelector("button:not([disabled])") || again.querySelector("th")).focus();
}

// A control focused when it is hidden or disabled (Start becomes Pause, Pause becomes
// Go on) would drop the focus to <body>: it moves to the control shown instead, or
// waits on the status line while the game is pausing, then goes to "Go on".
function keepControlFocus(focused) {
  const shown = [buttons.pause, buttons.resume, buttons.start].find((b) => !b.hidden && !b.disabled);
  const lost = Object.values(buttons).includes(focused) && (focused.hidden || focused.disabled);
  if (lost && shown) shown.focus();
  else if (lost) {
    statusLine.tabIndex = -1;
    statusLine.focus();
  } else if (focused === statusLine && shown) shown.focus();
}

function render() {
  const k = state.klass;
  const v = state.view;
  const over = Boolean(v && v.over);
  const focused = document.activeElement;
  const status = statusText();
  if (statusLine.textContent !== status) statusLine.textContent = status; // role="status"
  const live = connected() && k && !k.next_code;
  buttons.start.hidden = Boolean(k && k.started);
  buttons.start.disabled = !live;
  buttons.pause.hidden = !(k && k.started && !k.paused && !over);
  buttons.pause.disabled = !live || Boolean(k && k.pausing);
  buttons.resume.hidden = !(k && k.paused && !over);
  buttons.resume.disabled = !live;
  buttons.restart.hidden = !(k && k.started);
  buttons.restart.disabled = !live;
  page.classList.toggle("paused", Boolean(k && k.paused));
  keepControlFocus(focused);
  renderAlert();
  renderSeats();
  const wasHidden = overBox.hidden;
  overBox.hidden = !over;
  joinBox.hidden = over; // after the game: the replay and the lesson at the top, no code
  if (over) {
    overText.textContent = state.overText || gettext("The game is over.");
    if (wasHidden) overText.focus();
  }
}

// ---- The teacher's controls ------------------------------------------------------

for (const [kind, b] of Object.entries(buttons)) {
  b.addEventListener("click", () => send({ type: kind }));
}

paceForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const pace = paceForm.elements.pace.value;
  const seconds = Number(paceForm.elements.turn_timer.value);
  if (pace in config.beat_ms) send({ type: "pace", turn_timer_ms: null, beat_ms: config.beat_ms[pace] });
  else send({ type: "pace", turn_timer_ms: seconds ? seconds * 1000 : null, beat_ms: null });
});

page.querySelector('[data-action="copy"]').addEventListener("click", async () => {
  const input = document.getElementById("share-url");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
  }
});

render();
link = openTableSocket({
  path: config.socket,
  lang: config.lang,
  lastSeq: () => state.lastSeq,
  handlers,
  onClose: connectionClosed,
});
