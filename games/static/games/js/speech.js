// Read aloud with the device's own voices (the Web Speech API: nothing leaves the
// device; docs/offline.md). A "Listen" button is shown only where the device has a
// voice for the words' language (`lang` of the nearest element that has one: an edge
// of a table on one device reads in its own); where it has none, a note says so. The
// voices arrive late on some browsers: the buttons are checked again on
// `voiceschanged`. What is read is the text on screen, as words: names as typed, cards
// as the narration names them ("the King of hearts"), never a symbol (♥, ✓, arrows and
// pictures are left out), nor what is hidden from screen readers, nor rule numbers.
//
// On every page it adds a button to each rules section, glossary entry, start step and
// step of a walkthrough in words; the player and the tables add theirs with
// `addListenButton`.

const synth = "speechSynthesis" in window ? window.speechSynthesis : null;
const wordsNode = document.getElementById("speech-words");
const words = wordsNode ? wordsNode.dataset : {};
const pageLang = document.documentElement.lang;
const VOICES_PATIENCE_MS = 2000; // no voice by then (nor a `voiceschanged`): none
const NOT_READ = '[aria-hidden="true"], .visually-hidden, .speak-button, .clauses, .section-walkthroughs, kbd, bdi.clause, .told-rules';
// Symbols and pictures (arrows, suits, check marks, emoji, playing cards) and the
// invisible direction marks around names.
const SYMBOLS = /[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\u{1f000}-\u{1faff}\u200e\u200f\u2066-\u2069]/gu;

/** The base language of a tag: "ta-IN" -> "ta". */
const base = (tag) => String(tag || "").toLowerCase().replace("_", "-").split("-")[0];

/** A voice of this device for `lang`, or null. */
export function voiceFor(lang) {
  if (!synth) return null;
  return synth.getVoices().find((voice) => base(voice.lang) === base(lang)) || null;
}

/** The language `node`'s words are in. */
export function langOf(node) {
  const holder = node.closest("[lang]");
  return (holder && holder.lang) || pageLang;
}

const BLOCKS = "h1, h2, h3, h4, dt, dd, p, li, div";
const PAUSES = "h1, h2, h3, h4, dt"; // a title read before its text: a full stop between
const ENDS_SENTENCE = /[.!?:;।…”"»)]\s*$/u;

/** What `node` says, as it is read aloud. */
export function spokenText(node) {
  const copy = node.cloneNode(true);
  for (const skip of copy.querySelectorAll(NOT_READ)) skip.remove();
  for (const block of copy.querySelectorAll(BLOCKS)) {
    const pause = block.matches(PAUSES) && !ENDS_SENTENCE.test(block.textContent.replace(SYMBOLS, ""));
    block.append(pause ? ". " : " ");
  }
  return copy.textContent.replace(SYMBOLS, " ").replace(/\s+/g, " ").replace(/\s+([.,:;!?])/g, "$1").trim();
}

/** Read `texts` one after another in `lang`, instead of whatever was being read. */
export function speak(texts, lang) {
  if (!synth) return;
  synth.cancel();
  const voice = voiceFor(lang);
  for (const text of [].concat(texts)) {
    if (!text) continue;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang;
    try {
      if (voice) utterance.voice = voice;
    } catch (e) {
      /* not a voice this browser made: its own choice for `lang` */
    }
    synth.speak(utterance);
  }
}

const SPEAKER =
  "M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 7.97v8.05A4.47 4.47 0 0 0 16.5 12zM14 3.23v2.06a7 7 0 0 1 0 13.42v2.06A9 9 0 0 0 14 3.23z";

function speakerIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", SPEAKER);
  svg.append(path);
  return svg;
}

/** A "Listen" button that reads `read` (by default `target`) aloud in its language,
 * put at the end of `target` (`where`: "end"), at its start ("start"), before it
 * ("before") or after it ("after"). */
export function addListenButton(target, { where = "end", read = target, lang = null } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "speak-button";
  button.dataset.lang = lang || "";
  button.append(speakerIcon());
  button.addEventListener("click", () => speak(spokenText(read), button.dataset.lang));
  if (where === "before") target.before(button);
  else if (where === "start") target.prepend(button);
  else if (where === "after") target.after(button);
  else target.append(" ", button);
  if (!lang) button.dataset.lang = langOf(button);
  // Its name in the language around it (an edge of a table on one device names it in its own).
  const named = button.closest("[data-listen]");
  const label = (named && named.dataset.listen) || words.listen || "";
  button.setAttribute("aria-label", label);
  button.title = label;
  button.hidden = !voiceFor(button.dataset.lang);
  return button;
}

// ---- Voices arriving late ------------------------------------------------------------

let noteShown = false;
const watchers = [];

/** Call `onChange()` now and whenever the device's voices change. */
export function onVoices(onChange) {
  watchers.push(onChange);
  onChange();
}

function voicesChanged(settled) {
  for (const button of document.querySelectorAll(".speak-button")) button.hidden = !voiceFor(button.dataset.lang);
  for (const watcher of watchers) watcher();
  const note = document.querySelector(".speech-note");
  if (note) note.hidden = Boolean(voiceFor(pageLang)) || !(settled || noteShown);
  if (note && !note.hidden) noteShown = true;
}

function addNote() {
  const note = document.createElement("p");
  note.className = "speech-note";
  note.textContent = words.noVoice || "";
  note.hidden = true;
  // At the very end of the page: a note that comes late moves nothing on screen.
  const footer = document.querySelector(".site-footer");
  (footer || document.body).append(note);
}

// ---- This page's texts ---------------------------------------------------------------

const TARGETS = [
  [".rules-section > h2", "before", (h) => h.parentElement],
  [".start-step > h2", "before", (h) => h.parentElement],
  [".glossary-entry > dd", "start", (dd) => dd.parentElement], // a <dl> holds only dt and dd
  [".step-caption", "end", null],
  [".step-events > li", "end", null],
];

function decoratePage() {
  let any = false;
  for (const [selector, where, whole] of TARGETS) {
    for (const node of document.querySelectorAll(selector)) {
      addListenButton(node, { where, read: whole ? whole(node) : node });
      any = true;
    }
  }
  return any;
}

if (synth) {
  const hasTexts = decoratePage() || document.querySelector(".player, .told-log, [data-speech]");
  if (hasTexts) addNote();
  voicesChanged(false);
  synth.addEventListener("voiceschanged", () => voicesChanged(true));
  setTimeout(() => voicesChanged(true), VOICES_PATIENCE_MS);
}
