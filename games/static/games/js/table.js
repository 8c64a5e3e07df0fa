// Draws a Snap table from the data the server made from the engine's state.
// Text comes from Django's JavaScript catalog (gettext, ngettext, interpolate).

const { gettext, ngettext, interpolate } = window;
const countText = (text, n) => interpolate(text, { count: n }, true);

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

export function cardFace(card) {
  if (!card) {
    return el("div", { class: "card empty", role: "img", "aria-label": gettext("No card") });
  }
  return el("div", { class: `card face ${card.red ? "red" : "black"}`, role: "img", "aria-label": card.name }, [
    el("span", { class: "corner", "aria-hidden": "true" }, [el("bdi", { text: card.rank }), el("span", { text: card.suit })]),
    el("span", { class: "pip", "aria-hidden": "true", text: card.suit }),
  ]);
}

function cardBack(count) {
  const label = countText(ngettext("%(count)s card face down", "%(count)s cards face down", count), count);
  if (!count) return el("div", { class: "card empty", role: "img", "aria-label": label });
  return el("div", { class: "card back", role: "img", "aria-label": label }, [
    el("bdi", { class: "back-count", "aria-hidden": "true", text: String(count) }),
  ]);
}

function seat(player) {
  const classes = ["seat"];
  if (player.changed) classes.push("changed");
  if (player.to_play) classes.push("to-play");
  if (player.learner) classes.push("learner");
  if (player.out) classes.push("out");
  const badges = [];
  if (player.learner) badges.push(el("span", { class: "badge you", text: gettext("you") }));
  if (player.to_play) badges.push(el("span", { class: "badge turn", text: gettext("to play") }));
  if (player.out) badges.push(el("span", { class: "badge out-badge", text: gettext("out") }));
  return el("li", { class: classes.join(" ") }, [
    el("p", { class: "seat-name" }, [el("bdi", { text: player.name }), ...badges]),
    el("div", { class: "piles" }, [
      el("div", { class: "pile" }, [cardBack(player.face_down), el("span", { class: "pile-label", text: gettext("face down") })]),
      el("div", { class: "pile" }, [cardFace(player.top), el("span", { class: "pile-label", text: countText(ngettext("%(count)s card face up", "%(count)s cards face up", player.face_up), player.face_up) })]),
    ]),
  ]);
}

export function drawTable(container, table) {
  const pot = table.pot;
  const potLabel = pot.count ? countText(ngettext("Snap Pot: %(count)s card", "Snap Pot: %(count)s cards", pot.count), pot.count) : gettext("No Snap Pot yet");
  const potBox = el("div", { class: `pot${pot.changed ? " changed" : ""}${pot.count ? "" : " empty-pot"}` }, [
    el("p", { class: "pot-name", text: potLabel }),
    pot.count ? cardFace(pot.top) : null,
    pot.stuck_forever ? el("p", { class: "badge stuck", text: gettext("stuck forever") }) : null,
  ]);
  container.replaceChildren(
    el("ul", { class: "seats", "aria-label": gettext("Players") }, table.players.map(seat)),
    potBox,
  );
}
