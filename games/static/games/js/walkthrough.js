// The walkthrough player. Every frame and every answer to a press was played
// by the engine on the server; this script only shows them.
import { readFrames } from "./frames.js";
import { namedText } from "./names.js";
import { drawTable } from "./table.js";
import { connectKeys } from "./walkthrough-keys.js";
import { connectProjector } from "./projector.js";
import { addListenButton, onVoices, speak, spokenText, voiceFor } from "./speech.js";

const { gettext, interpolate } = window;
const STORAGE_PREFIX = "snap-walkthrough-done:";
const READ_STEPS_KEY = "snap-read-steps"; // "1": each step is read aloud by itself
const REPEAT_MS = 400; // a second tap this soon after a step change is ignored

const player = document.querySelector(".player");
const frames = readFrames(document.getElementById("walkthrough-frames"));
const slug = player.dataset.slug;
const picture = document.getElementById("table-picture");
const narration = document.getElementById("narration");
const progress = document.getElementById("progress");
const finished = document.getElementById("finished");
const announcer = document.getElementById("announcer");
const buttons = {
  back: player.querySelector('[data-step="back"]'),
  next: player.querySelector('[data-step="next"]'),
  restart: player.querySelector('[data-step="restart"]'),
  retry: player.querySelector('[data-step="retry"]'),
  example: player.querySelector('[data-step="example"]'),
};
const moves = [...player.querySelectorAll("[data-press]")];
const moveButton = (kind) => moves.find((m) => m.dataset.press === kind);
// The buttons' own words (the page's translation), to find them in captions.
const moveLabel = (kind) => moveButton(kind).firstChild.textContent.trim();
const OUTCOMES = new Set(["right", "mistake", "too_late", "refused"]);

let index = 0;
let branch = null; // the engine's answer to a press that left the example
let refusal = null; // a press the engine refused: the table stays as it was
let changedAt = -Infinity; // no step change yet: the first tap after loading counts

function markDone() {
  if (!slug) return; // a replay or a game lesson: nothing to tick off on the Learn page
  try {
    localStorage.setItem(STORAGE_PREFIX + slug, "1");
  } catch (e) {
    /* private mode: nothing to keep */
  }
}

function paragraph(text, className) {
  const p = document.createElement("p");
  if (className) p.className = className;
  p.append(namedText(text));
  return p;
}

/** "In the rules: R8, R9", as a small span at the end of a paragraph. */
function withClauses(p, clauses) {
  if (!clauses || !clauses.length) return p;
  const span = document.createElement("span");
  span.className = "clauses";
  span.append(gettext("In the rules:"), " ");
  clauses.forEach((clause, i) => {
    const a = document.createElement("a");
    a.href = clause.url;
    const bdi = document.createElement("bdi");
    bdi.textContent = clause.id;
    // The section's name is read out (link purpose); on screen the short rule number
    // keeps the narration small enough for a phone. The text version shows both.
    if (clause.section) {
      const name = Object.assign(document.createElement("span"), { className: "visually-hidden" });
      name.textContent = clause.section + " ";
      a.append(name);
    }
    a.append(bdi);
    if (i) span.append(", ");
    span.append(a);
  });
  p.append(" ", span);
  return p;
}

/** A teacher's own note (a teacher's lesson): their words, in their language, as text. */
function teacherNote(text) {
  const p = Object.assign(document.createElement("p"), { className: "teacher-note", dir: "auto" });
  if (player.dataset.noteLang) p.lang = player.dataset.noteLang;
  const label = Object.assign(document.createElement("span"), { className: "teacher-note-label" });
  label.textContent = gettext("Teacher’s note:");
  p.append(label, " ", text);
  return p;
}

/** The engine's note on a press (styled by its outcome), then its rules. */
function noteParagraph(text, className, clauses) {
  const p = withClauses(paragraph(""), clauses);
  const note = Object.assign(document.createElement("span"), { className });
  note.append(namedText(text));
  p.prepend(note);
  return p;
}

function eventList(events) {
  if (!events || !events.length) return null;
  const list = document.createElement("ul");
  list.className = "step-events";
  for (const text of events) {
    const item = document.createElement("li");
    item.append(namedText(text));
    list.append(item);
  }
  return list;
}

/** What the engine said about a press: "right", "mistake", "too_late" or "refused". */
export function outcomeOf(answer) {
  return OUTCOMES.has(answer && answer.outcome) ? answer.outcome : "mistake";
}

function prompt(frame) {
  if (!frame.expects) return "";
  return {
    turn: gettext("Your move: turn over a card."),
    snap: gettext("Your move: call “Snap!”."),
    snap_pot: gettext("Your move: call “Snap Pot!”."),
  }[frame.expects];
}

// ---- One polite live region, one message per change ------------------------

let variant = false;
function announce(text) {
  // The same words twice in a row would not be read again: vary them invisibly.
  variant = !variant;
  announcer.textContent = variant ? text : `${text}\u00a0`;
}

/** Many captions already say which button to press: then the "Your move"
 * line is not read out, and on small screens not shown either. */
function saysWhatToPress(frame) {
  return Boolean(frame.expects) && frame.caption.includes(moveLabel(frame.expects));
}

function stepAnnouncement(frame) {
  const parts = [
    interpolate(gettext("Step %(number)s of %(total)s"), { number: index + 1, total: frames.length }, true) + ".",
    frame.caption,
  ];
  if (frame.note) parts.push(`${gettext("Teacher’s note:")} ${frame.note}`);
  if (frame.expects && !saysWhatToPress(frame)) parts.push(prompt(frame));
  if (index === frames.length - 1) parts.push(finished.querySelector(".finished-text").textContent.trim());
  return parts.join(" ");
}

// ---- Drawing -----------------------------------------------------------------

function render() {
  const frame = frames[index];
  const last = index === frames.length - 1;
  const outcome = branch ? outcomeOf(branch) : null;
  progress.dataset.index = String(index);
  progress.textContent = interpolate(gettext("Step %(number)s of %(total)s"), { number: index + 1, total: frames.length }, true);
  const parts = [];
  if (branch) {
    const style = { right: "note right", too_late: "note too-late", mistake: "note mistake" }[outcome];
    parts.push(noteParagraph(branch.note, style, branch.clauses), eventList(branch.events));
  } else {
    parts.push(withClauses(paragraph(frame.caption, "caption"), frame.clauses));
    if (frame.note) parts.push(teacherNote(frame.note));
    if (refusal) parts.push(noteParagraph(refusal.note, "note refused", refusal.clauses));
    if (frame.expects) parts.push(paragraph(prompt(frame), saysWhatToPress(frame) ? "your-move said" : "your-move"));
  }
  narration.replaceChildren(...parts.filter(Boolean));
  narration.dataset.outcome = outcome || "";
  // The table last: the narration's height (its Listen buttons too) decides the
  // picture's, so drawing it after the words draws it once, at its final size.
  for (const line of narration.querySelectorAll(":scope > p, .step-events > li")) addListenButton(line);
  drawTable(picture, (branch && branch.table) || frame.table);

  // Controls: a button that is about to be disabled hands its focus on first.
  const nextState = {
    backDisabled: index === 0 && !branch,
    nextDisabled: Boolean(frame.expects) || last,
    movesDisabled: Boolean(branch) || frame.table.over,
  };
  const focused = document.activeElement;
  const loses =
    (focused === buttons.back && nextState.backDisabled) ||
    (focused === buttons.next && (nextState.nextDisabled || branch)) ||
    ((focused === buttons.retry || focused === buttons.example) && !branch) ||
    (moves.includes(focused) && nextState.movesDisabled);

  buttons.back.disabled = nextState.backDisabled;
  buttons.next.disabled = nextState.nextDisabled;
  buttons.next.hidden = Boolean(branch);
  buttons.retry.hidden = outcome !== "mistake";
  buttons.example.hidden = !(outcome === "right" || outcome === "too_late");
  for (const move of moves) {
    move.disabled = nextState.movesDisabled;
    move.classList.toggle("expected", !branch && frame.expects === move.dataset.press);
  }
  player.classList.toggle("awaiting", Boolean(frame.expects) && !branch);
  finished.hidden = !(last && !branch);
  if (last && !branch) markDone();
  for (const item of document.querySelectorAll(".walkthrough-step")) {
    if (item.id === `step-${index + 1}`) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  if (loses) handFocusOn(frame, last);
  showMoments();
}

function handFocusOn(frame, last, expected = null) {
  if (branch) return; // press() places the focus for an answer
  if (frame.expects && !frame.table.over) (expected || moves.find((m) => !m.disabled)).focus();
  else if (!buttons.next.disabled) buttons.next.focus();
  else if (last) finished.querySelector("[tabindex]").focus();
  else buttons.back.focus();
}

// ---- The address keeps the step; the language switcher carries it ---------

function stepFromAddress() {
  const raw = new URLSearchParams(location.search).get("step");
  const number = Number.parseInt(raw, 10);
  if (!raw || !Number.isFinite(number)) return 0;
  return Math.max(0, Math.min(frames.length - 1, number - 1));
}

function keepStepInAddress() {
  const url = new URL(location.href);
  url.searchParams.set("step", String(index + 1));
  if (url.href !== location.href) history.replaceState(history.state, "", url);
  updateSwitcher();
}

function updateSwitcher() {
  // The language switcher opens this same step in the other language.
  for (const field of document.querySelectorAll('form [name="next"]')) field.value = location.pathname + location.search;
}

// ---- Moving through the example ------------------------------------------------

function go(to, { speak: tell = true } = {}) {
  branch = null;
  refusal = null;
  index = Math.max(0, Math.min(frames.length - 1, to));
  changedAt = performance.now();
  render();
  keepStepInAddress();
  if (tell) announce(stepAnnouncement(frames[index]));
  readStepAloud();
}

function forward() {
  if (branch) return backToExample();
  const frame = frames[index];
  if (frame.expects) {
    announce(`${gettext("Choose your move first.")} ${prompt(frame)}`);
    const expected = moveButton(frame.expects);
    expected.classList.remove("nudge");
    void expected.offsetWidth; // restart the nudge animation
    expected.classList.add("nudge");
    return;
  }
  if (index < frames.length - 1) go(index + 1);
}

function backward() {
  if (branch) return backToExample();
  if (index > 0) go(index - 1);
}

function backToExample() {
  go(index);
  const frame = frames[index];
  handFocusOn(frame, index === frames.length - 1, frame.expects ? moveButton(frame.expects) : null);
}

function press(kind) {
  const frame = frames[index];
  const button = moveButton(kind);
  if (!button || branch || frame.table.over || button.disabled) return; // a replay has no moves
  if (frame.expects === kind) {
    go(index + 1);
    const now = frames[index];
    if (!now.expects && !buttons.next.disabled && document.activeElement === button) buttons.next.focus();
    return;
  }
  const answer = frame.branches[kind];
  if (!answer) return;
  if (outcomeOf(answer) === "refused") {
    refusal = answer;
    render();
    announce(answer.note);
    readStepAloud();
    return; // the focus stays on the pressed button
  }
  branch = answer;
  changedAt = performance.now();
  render();
  announce([answer.note, ...(answer.events || [])].join(" "));
  readStepAloud();
  (outcomeOf(answer) === "mistake" ? buttons.retry : buttons.example).focus();
}

let lastTapped = null; // the button of the last tap that counted

function tappedTooSoon(event) {
  // A pointer double tap must not fall through onto the next step's buttons; tapping
  // the same Back or Next again counts, however quickly (a teacher stepping on fast).
  const button = event.currentTarget;
  const again = button === lastTapped && (button === buttons.next || button === buttons.back);
  const tooSoon = event.detail > 0 && performance.now() - changedAt < REPEAT_MS && !again;
  if (!tooSoon) lastTapped = button;
  return tooSoon;
}

buttons.back.addEventListener("click", (event) => tappedTooSoon(event) || backward());
buttons.next.addEventListener("click", (event) => tappedTooSoon(event) || go(index + 1));
buttons.restart.addEventListener("click", () => go(0));
buttons.retry.addEventListener("click", backToExample);
buttons.example.addEventListener("click", backToExample);
for (const move of moves) move.addEventListener("click", (event) => tappedTooSoon(event) || press(move.dataset.press));

// ---- A replay's moments to teach: each race, tie, wrong call, the Snap Pot won or blocked

const momentChoice = document.getElementById("moment-choice");
const momentSteps = momentChoice ? [...momentChoice.options].filter((o) => o.value !== "").map((o) => Number(o.value)) : [];
const momentButtons = {
  previous: player.querySelector('[data-moment="previous"]'),
  next: player.querySelector('[data-moment="next"]'),
};

function showMoments() {
  if (!momentChoice) return;
  const at = momentSteps.includes(index) ? String(index) : "";
  if (momentChoice.value !== at) momentChoice.value = at;
  momentButtons.previous.disabled = !momentSteps.some((s) => s < index);
  momentButtons.next.disabled = !momentSteps.some((s) => s > index);
}

if (momentChoice) {
  momentButtons.next.addEventListener("click", () => {
    const to = momentSteps.find((s) => s > index);
    if (to !== undefined) go(to);
  });
  momentButtons.previous.addEventListener("click", () => {
    const to = momentSteps.findLast((s) => s < index);
    if (to !== undefined) go(to);
  });
  momentChoice.addEventListener("change", () => {
    if (momentChoice.value !== "") go(Number(momentChoice.value));
  });
}

// ---- Each step read aloud by itself, for a child who cannot read yet -------------

const readSteps = document.createElement("button");
readSteps.type = "button";
readSteps.className = "button secondary small read-steps";
readSteps.textContent = document.getElementById("speech-words").dataset.readSteps;
let readingSteps = false;
try {
  readingSteps = localStorage.getItem(READ_STEPS_KEY) === "1";
} catch (e) {
  readingSteps = false;
}
readSteps.setAttribute("aria-pressed", String(readingSteps));
player.querySelector(".player-tools").prepend(readSteps);
onVoices(() => {
  readSteps.hidden = !voiceFor(document.documentElement.lang);
});

/** The step (or the engine's answer) as on screen, each line after the other. */
function readStepAloud() {
  if (!readingSteps || readSteps.hidden) return;
  const lines = [...narration.querySelectorAll(":scope > p, .step-events > li")].map(spokenText);
  speak(lines, document.documentElement.lang);
}

readSteps.addEventListener("click", () => {
  readingSteps = !readingSteps;
  readSteps.setAttribute("aria-pressed", String(readingSteps));
  try {
    localStorage.setItem(READ_STEPS_KEY, readingSteps ? "1" : "0");
  } catch (e) {
    /* private mode: for this page only */
  }
  if (readingSteps) readStepAloud();
  else speak([], document.documentElement.lang);
});

const projector = connectProjector(player, { onChange: () => drawTable(picture, (branch && branch.table) || frames[index].table) });
connectKeys(player, {
  forward,
  backward,
  press: (kind) => press(kind),
  projector,
  rtl: document.documentElement.dir === "rtl",
});

// Printing: the closed "in words" list opens for the printer.
const stepsText = document.querySelector(".steps-text");
window.addEventListener("beforeprint", () => {
  stepsText.dataset.wasOpen = String(stepsText.open);
  stepsText.open = true;
});
window.addEventListener("afterprint", () => {
  stepsText.open = stepsText.dataset.wasOpen === "true";
});

player.hidden = false;
stepsText.open = false;
index = stepFromAddress();
render();
if (new URLSearchParams(location.search).has("step")) keepStepInAddress();
else updateSwitcher();
// The player fills the screen: bring all of it into view (unless the address
// points somewhere else on the page).
if (!location.hash) player.scrollIntoView({ block: "start" });
