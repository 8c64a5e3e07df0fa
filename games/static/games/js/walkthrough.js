// The walkthrough player. Every frame and every answer to a press was played
// by the engine on the server; this script only shows them.
import { drawTable } from "./table.js";

const { gettext, ngettext, interpolate } = window;
const STORAGE_PREFIX = "snap-walkthrough-done:";

const player = document.querySelector(".player");
const frames = JSON.parse(document.getElementById("walkthrough-frames").textContent);
const slug = player.dataset.slug;
const rtl = document.documentElement.dir === "rtl";
const picture = document.getElementById("table-picture");
const narration = document.getElementById("narration");
const progress = document.getElementById("progress");
const finished = document.getElementById("finished");
const buttons = {
  back: player.querySelector('[data-step="back"]'),
  next: player.querySelector('[data-step="next"]'),
  restart: player.querySelector('[data-step="restart"]'),
  retry: player.querySelector('[data-step="retry"]'),
};
const moves = [...player.querySelectorAll("[data-press]")];

let index = 0;
let branch = null; // the engine's answer to a press that left the example

function markDone() {
  try {
    localStorage.setItem(STORAGE_PREFIX + slug, "1");
  } catch (e) {
    /* private mode: nothing to keep */
  }
}

function paragraph(text, className) {
  const p = document.createElement("p");
  if (className) p.className = className;
  p.textContent = text;
  return p;
}

function clauseLinks(clauses) {
  if (!clauses.length) return null;
  const p = paragraph(gettext("In the rules:") + " ", "clauses");
  clauses.forEach((clause, i) => {
    const a = document.createElement("a");
    a.href = clause.url;
    const bdi = document.createElement("bdi");
    bdi.textContent = clause.id;
    a.append(bdi);
    if (i) p.append(", ");
    p.append(a);
  });
  return p;
}

function render() {
  const frame = frames[index];
  progress.dataset.index = String(index);
  progress.textContent = interpolate(gettext("Step %(number)s of %(total)s"), { number: index + 1, total: frames.length }, true);
  const shown = branch || frame;
  if (shown.table) drawTable(picture, shown.table);
  const parts = [];
  if (branch) {
    const list = document.createElement("ul");
    list.className = "step-events";
    for (const text of branch.events) list.append(Object.assign(document.createElement("li"), { textContent: text }));
    parts.push(paragraph(branch.note, "note mistake"));
    if (branch.events.length) parts.push(list);
    parts.push(clauseLinks(branch.clauses));
  } else {
    parts.push(paragraph(frame.caption, "caption"));
    parts.push(clauseLinks(frame.clauses));
    if (frame.expects) {
      const prompt = {
        turn: gettext("Your move: turn over a card."),
        snap: gettext("Your move: call “Snap!”."),
        snap_pot: gettext("Your move: call “Snap Pot!”."),
      }[frame.expects];
      parts.push(paragraph(prompt, "your-move"));
    }
  }
  narration.replaceChildren(...parts.filter(Boolean));
  const last = index === frames.length - 1;
  buttons.back.disabled = index === 0 && !branch;
  buttons.next.disabled = Boolean(branch) || Boolean(frame.expects) || last;
  buttons.retry.hidden = !branch;
  for (const move of moves) move.disabled = Boolean(branch) || frame.table.over;
  player.classList.toggle("awaiting", Boolean(frame.expects) && !branch);
  finished.hidden = !(last && !branch);
  if (last && !branch) markDone();
}

function go(to) {
  branch = null;
  index = Math.max(0, Math.min(frames.length - 1, to));
  render();
}

function press(kind) {
  const frame = frames[index];
  if (branch || frame.table.over) return;
  if (frame.expects === kind) {
    go(index + 1);
    return;
  }
  branch = frame.branches[kind] || null;
  render();
  if (branch) buttons.retry.focus();
}

buttons.back.addEventListener("click", () => (branch ? go(index) : go(index - 1)));
buttons.next.addEventListener("click", () => go(index + 1));
buttons.restart.addEventListener("click", () => go(0));
buttons.retry.addEventListener("click", () => {
  go(index);
  const target = frames[index].expects ? moves.find((m) => m.dataset.press === frames[index].expects) : buttons.next;
  (target || buttons.next).focus();
});
for (const move of moves) move.addEventListener("click", () => press(move.dataset.press));

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const forward = rtl ? "ArrowLeft" : "ArrowRight";
  const backward = rtl ? "ArrowRight" : "ArrowLeft";
  if (event.key === forward && !buttons.next.disabled) {
    event.preventDefault();
    go(index + 1);
  } else if (event.key === backward && !buttons.back.disabled) {
    event.preventDefault();
    branch ? go(index) : go(index - 1);
  }
});

player.hidden = false;
document.querySelector(".steps-text").open = false;
render();
