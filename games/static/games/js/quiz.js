// The quiz on screen, one question at a time, for the projector: the table
// picture (drawTable, from the engine's position), the question, big answer
// buttons (keys 1 to 4), then right or wrong with the engine's explanation and
// the rule. Page Down (a presenter's clicker) goes on: before an answer it
// shows the answer; Page Up goes back. Without JavaScript the page is the list
// of questions, each with its answer in a <details>.

import { drawTable } from "./table.js";

const { gettext, ngettext, interpolate } = window;
const questions = JSON.parse(document.getElementById("quiz-questions").textContent);
const app = document.getElementById("quiz-app");
const list = document.getElementById("quiz-list");
const $ = (id) => document.getElementById(id);
const PHONE = window.matchMedia("(max-width: 30rem)");

const answers = new Array(questions.length).fill(null); // key chosen, or "" when shown
let index = 0;

function el(tag, attrs = {}, text = "") {
  const node = Object.assign(document.createElement(tag), attrs);
  if (text) node.textContent = text;
  return node;
}

function ruleLinks(clauses) {
  const p = el("p", { className: "quiz-rule" }, gettext("The rule:") + " ");
  for (const clause of clauses) {
    const a = el("a", { href: clause.url });
    if (clause.section) a.append(clause.section + " (", el("bdi", {}, clause.id), ")");
    else a.append(el("bdi", {}, clause.id));
    p.append(a);
  }
  return p;
}

function feedback(q, chosen) {
  const box = $("quiz-feedback");
  box.replaceChildren();
  if (chosen === null) return;
  let head;
  if (chosen === "") head = el("p", { className: "quiz-result shown" }, interpolate(gettext("The answer: %(answer)s"), { answer: q.answer_label }, true));
  else if (chosen === q.answer) head = el("p", { className: "quiz-result right" }, gettext("Right!"));
  else head = el("p", { className: "quiz-result wrong" }, interpolate(gettext("Not quite. The answer: %(answer)s"), { answer: q.answer_label }, true));
  box.append(head, el("p", { className: "quiz-verdict" }, q.verdict));
  if (q.events.length) {
    box.append(el("p", { className: "quiz-events-intro" }, q.events_intro));
    const ul = el("ul", { className: "quiz-events" });
    for (const line of q.events) ul.append(el("li", {}, line));
    box.append(ul);
  }
  box.append(ruleLinks(q.clauses));
}

function show(i) {
  index = i;
  const q = questions[i];
  $("quiz-final").hidden = true;
  $("quiz-stage").hidden = false;
  $("quiz-progress").textContent = interpolate(gettext("Question %(number)s of %(total)s"), { number: i + 1, total: questions.length }, true);
  drawTable($("quiz-table"), q.table);
  const situation = $("quiz-situation");
  situation.replaceChildren(...[...q.situation, ...q.details].map((line) => el("li", {}, line)));
  $("quiz-prompt").textContent = q.prompt;
  const choices = $("quiz-choices");
  choices.replaceChildren(
    ...q.choices.map((choice, k) => {
      const button = el("button", { type: "button", className: "quiz-choice" });
      button.dataset.key = choice.key;
      button.append(el("kbd", { ariaHidden: "true" }, String(k + 1)), el("bdi", {}, choice.label));
      button.addEventListener("click", () => choose(choice.key));
      return button;
    }),
  );
  paint();
  $("quiz-next").textContent = i === questions.length - 1 ? gettext("See the score") : gettext("Next question");
  $("quiz-prompt").focus({ preventScroll: true });
  if (window.scrollY > app.offsetTop || PHONE.matches) app.scrollIntoView({ block: "start" });
  if (PHONE.matches) answersInView();
}

/** On a phone the question comes first on the screen (the site's menu above it
 * scrolls away), and if its last answer is still below the screen, the page goes on
 * just enough to show it, keeping the question in view. */
function answersInView() {
  const buttons = $("quiz-choices").querySelectorAll("button");
  const below = buttons[buttons.length - 1].getBoundingClientRect().bottom + 4 - window.innerHeight;
  const room = $("quiz-prompt").getBoundingClientRect().top;
  if (below > 0) window.scrollBy(0, Math.min(below, room));
}

/** Mark the buttons and show the explanation once the question is answered. */
function paint() {
  const q = questions[index];
  const chosen = answers[index];
  for (const button of $("quiz-choices").querySelectorAll("button")) {
    const key = button.dataset.key;
    button.disabled = chosen !== null;
    button.classList.toggle("correct", chosen !== null && key === q.answer);
    button.classList.toggle("chosen-wrong", chosen !== null && key === chosen && key !== q.answer);
    button.setAttribute("aria-pressed", String(key === chosen));
  }
  feedback(q, chosen);
  $("quiz-stage").classList.toggle("answered", chosen !== null);
  $("quiz-next").hidden = chosen === null;
}

function choose(key) {
  if (answers[index] !== null) return;
  answers[index] = key;
  paint();
  reveal();
}

/** The explanation may be long (a long language, many events): scroll just enough
 * to show the button that goes on, then move the focus to it. */
function reveal() {
  $("quiz-next").scrollIntoView({ block: "nearest" });
  $("quiz-next").focus({ preventScroll: true });
}

function finish() {
  const score = answers.filter((a, i) => a === questions[i].answer).length;
  $("quiz-stage").hidden = true;
  $("quiz-progress").textContent = gettext("The score");
  $("quiz-final").hidden = false;
  $("quiz-score").textContent = interpolate(
    ngettext("%(score)s of %(total)s answer right.", "%(score)s of %(total)s answers right.", questions.length),
    { score, total: questions.length },
    true,
  );
  $("quiz-score").focus({ preventScroll: true });
}

function next() {
  if (answers[index] === null) {
    answers[index] = ""; // shown, not answered
    paint();
    reveal();
  } else if (index < questions.length - 1) show(index + 1);
  else finish();
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "PageDown") {
    event.preventDefault();
    next();
  } else if (event.key === "PageUp") {
    event.preventDefault();
    if (index > 0) show(index - 1);
  } else if (/^[1-9]$/.test(event.key)) {
    const button = $("quiz-choices").querySelectorAll("button")[Number(event.key) - 1];
    if (button && !button.disabled) {
      event.preventDefault();
      choose(button.dataset.key);
    }
  }
});
$("quiz-next").addEventListener("click", next);

list.hidden = true;
app.hidden = false;
document.body.classList.add("quiz-running");
show(0);
