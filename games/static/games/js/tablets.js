// The teacher's page of a class's tablets follows the tablets by itself, without
// reloading (a reload loses a screen reader's place): it asks the server for each
// tablet's card every few seconds, puts in the cards that changed and says politely
// what changed. The cards and the start button come written in the page's language.
const list = document.getElementById("tablets");
const startBox = document.getElementById("tablets-start-box");
const told = document.getElementById("tablets-told");
const EVERY_MS = 3000;

function cardFrom(html) {
  const holder = document.createElement("template");
  holder.innerHTML = html.trim();
  return holder.content.firstElementChild;
}

/** What a screen reader hears of a changed card: its name, who sits there, its state. */
function cardSummary(card) {
  const text = (selector) => (card.querySelector(selector)?.textContent || "").trim();
  return [`${text("h2")}: ${text(".tablet-names")}.`, text(".tablet-state"), text(".move-refused")]
    .filter(Boolean)
    .join(" ");
}

/** The start button's words ("" when no tablet waits): the form's token changes each time. */
const startWords = (box) => (box.querySelector("button")?.textContent || "").trim();

function update(state) {
  const changed = [];
  const cards = new Map([...list.children].map((card) => [card.dataset.code, card]));
  const codes = state.cards.map((c) => c.code);
  if (codes.join() !== [...cards.keys()].join()) {
    // the class went on at new tables: every card anew
    const fresh = state.cards.map((c) => cardFrom(c.html));
    list.replaceChildren(...fresh);
    changed.push(...fresh);
  } else {
    for (const { code, html } of state.cards) {
      const card = cards.get(code);
      const fresh = cardFrom(html);
      if (card.outerHTML === fresh.outerHTML) continue;
      const focusedLink = card.contains(document.activeElement);
      card.replaceWith(fresh);
      if (focusedLink) fresh.querySelector("a").focus(); // the card's only link
      changed.push(fresh);
    }
  }
  const start = document.createElement("div");
  start.innerHTML = state.start;
  if (startWords(start) !== startWords(startBox)) {
    const hadFocus = startBox.contains(document.activeElement);
    startBox.replaceChildren(...start.childNodes);
    const button = startBox.querySelector("button");
    if (hadFocus) (button || list.querySelector("a")).focus();
  }
  if (changed.length) told.textContent = changed.map(cardSummary).join(" ");
}

async function ask() {
  try {
    const response = await fetch(list.dataset.state, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) update(await response.json());
  } catch {
    /* the server is out of reach for now: ask again later */
  }
  setTimeout(ask, EVERY_MS);
}

setTimeout(ask, EVERY_MS);
