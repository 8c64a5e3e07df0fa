// Draws a Snap table, seen from above, from the data the server made from the
// engine's state (games/frames/walkthroughs.py `table_data`): the players sit round
// a drawn table, the learner at the near side (the bottom of the picture),
// the Snap Pot in the middle. Seats are numbered clockwise, so the next seat
// (the learner's left) is drawn to the screen-left of the learner. The picture
// is a picture of a real table: it is the same in right-to-left languages.
//
// Works for 2 to 12 seats: `drawTable(container, table)`; the picture scales
// itself to the container's size (and redraws when that size changes).
// Text comes from Django's JavaScript catalog (gettext, ngettext, pgettext, interpolate).

const { gettext, ngettext, pgettext, interpolate } = window;
const SVG = "http://www.w3.org/2000/svg";
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

const hidden = (text) => el("span", { class: "visually-hidden", text });

function faceUpLabel(card, count) {
  const pile = countText(ngettext("%(count)s card face up", "%(count)s cards face up", count), count);
  return card ? `${card.name}, ${pile}` : pile;
}

/** One face-up card (or an empty place): the rank large in the middle, since
 * only ranks matter in Snap; rank and suit small in the corner. */
export function cardFace(card, label) {
  if (!card) {
    return el("div", { class: "card empty", role: "img", "aria-label": label || gettext("No card") });
  }
  return el("div", { class: `card face ${card.red ? "red" : "black"}`, role: "img", "aria-label": label || card.name }, [
    el("span", { class: "corner", "aria-hidden": "true" }, [el("bdi", { text: card.rank }), el("span", { text: card.suit })]),
    el("bdi", { class: "rank", "aria-hidden": "true", text: card.rank }),
  ]);
}

function pileCount(count) {
  return el("bdi", { class: "pile-count", "aria-hidden": "true", text: String(count) });
}

/** A face-down pile: a card's back with its count (`label`: what a screen reader says,
 * by default in the page's language). */
export function faceDownPile(count, label = null) {
  label = label || countText(ngettext("%(count)s card face down", "%(count)s cards face down", count), count);
  return el("div", { class: "pile" }, [
    el("div", { class: count ? "card back" : "card empty", role: "img", "aria-label": label }),
    pileCount(count),
  ]);
}

/** A face-up pile: its top card (or an empty place) with its count. */
export function faceUpPile(top, count, label = null) {
  const card = cardFace(top, label || faceUpLabel(top, count));
  if (count > 1) card.classList.add("stacked");
  return el("div", { class: "pile" }, [card, pileCount(count)]);
}

function seat(player) {
  const classes = ["seat"];
  if (player.changed) classes.push("changed");
  if (player.to_play) classes.push("to-play");
  if (player.learner) classes.push("learner");
  if (player.out) classes.push("out");
  // Badges read as "Chloe, you, to play" (hidden commas keep them apart); they
  // sit on the seat's edge like tabs, so long words do not make seats taller.
  const badges = [];
  const badge = (cls, text) => badges.push(hidden(", "), el("span", { class: `badge ${cls}`, text }));
  if (player.learner) badge("you", gettext("you"));
  if (player.to_play) badge("turn", gettext("to play"));
  if (player.out) badge("out-badge", gettext("out"));
  if (player.lost) badge("lost", gettext("connection lost"));
  if (player.changed) badges.push(hidden(`, ${gettext("just changed")}`));
  return el("li", { class: classes.join(" "), "data-seat": String(player.seat) }, [
    el("p", { class: "seat-name" }, [
      el("bdi", { class: "name", text: player.name }),
      badges.length ? el("span", { class: "badges" }, badges) : null,
    ]),
    el("div", { class: "piles" }, [faceDownPile(player.face_down), faceUpPile(player.top, player.face_up)]),
  ]);
}

/** The Snap Pot: its top card, its count, and whether it is blocked (R18). */
export function potBox(pot) {
  const label = pot.count
    ? countText(ngettext("Snap Pot: %(count)s card", "Snap Pot: %(count)s cards", pot.count), pot.count)
    : gettext("No Snap Pot yet");
  const classes = ["pot"];
  if (pot.changed) classes.push("changed");
  if (!pot.count) classes.push("empty-pot");
  const card = pot.count && pot.top ? cardFace(pot.top, `${label}, ${pot.top.name}`) : cardFace(null, label);
  if (pot.count > 1) card.classList.add("stacked");
  return el("div", { class: classes.join(" ") }, [
    el("p", { class: "pot-name", "aria-hidden": "true", text: gettext("Snap Pot") }),
    el("div", { class: "pile" }, [card, pileCount(pot.count)]),
    pot.changed ? hidden(gettext("just changed")) : null,
    pot.blocked ? el("p", { class: "badge blocked", text: pgettext("Snap Pot badge", "blocked") }) : null,
  ]);
}

function directionCue() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "play-direction");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", gettext("Play goes clockwise: on to the next player on the left."));
  return svg;
}

/** Draw `table` into `container` (replacing what was there) and fit it. */
export function drawTable(container, table) {
  const players = table.players;
  const learner = players.find((p) => p.learner) || players[0];
  container.classList.add("table-picture", "round-table");
  container.dataset.seats = String(players.length);
  container.replaceChildren(
    directionCue(),
    el("ul", { class: "seats", "aria-label": gettext("Players") }, players.map(seat)),
    potBox(table.pot),
  );
  // Offset k from the learner, clockwise: the learner at the bottom, seat+1 on
  // the screen-left, and on round (bottom, left, top, right for four seats).
  const n = players.length;
  container.querySelectorAll(".seat").forEach((node, i) => {
    const k = (players[i].seat - learner.seat + n) % n;
    node.dataset.angle = String(Math.PI / 2 + (k * 2 * Math.PI) / n);
  });
  watch(container);
  fit(container);
}

// ---- Fitting the picture into its box -------------------------------------

const observed = new WeakSet();
const observer = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => {
      for (const entry of entries) {
        const node = entry.target;
        const size = `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`;
        if (node.dataset.fitted !== size) fit(node);
      }
    })
  : null;

const drawn = new Set();

function watch(container) {
  drawn.add(container);
  if (observer && !observed.has(container)) {
    observed.add(container);
    observer.observe(container);
  }
}

// Text sizes change when the page's fonts arrive: fit every picture again.
if (document.fonts && document.fonts.addEventListener) {
  document.fonts.addEventListener("loadingdone", () => {
    for (const container of drawn) if (container.isConnected) fit(container);
  });
}

/** A point on a rounded square ("superellipse"), so seats use the corners. */
function rim(angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const round = (v) => Math.sign(v) * Math.abs(v) ** (1 / 3);
  return [Math.abs(c) < 1e-9 ? 0 : round(c), Math.abs(s) < 1e-9 ? 0 : round(s)];
}

function overlaps(a, b, gap) {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

function cssPixels(container, name, fallback) {
  const value = parseFloat(getComputedStyle(container).getPropertyValue(name));
  return Number.isFinite(value) ? value : fallback;
}

/** Place the seats for unit size `u` in a box W×H; null if they collide
 * (unless `anyway`: the last resort when nothing fits), or if `centred` and the
 * pot cannot sit in the middle of the table. */
function place(container, u, W, H, anyway = false, centred = false) {
  container.style.setProperty("--u", `${u}px`);
  const seats = [...container.querySelectorAll(".seat")];
  const potNode = container.querySelector(".pot");
  const gap = Math.max(6, u * 0.5);
  const boxes = [];
  for (const node of seats) {
    // The seat with its badge tabs, which may reach past its edges.
    const seatRect = node.getBoundingClientRect();
    const tabs = node.querySelector(".badges");
    const tabRect = tabs ? tabs.getBoundingClientRect() : seatRect;
    const ext = {
      l: Math.max(0, seatRect.left - tabRect.left),
      r: Math.max(0, tabRect.right - seatRect.right),
      t: Math.max(0, seatRect.top - tabRect.top),
    };
    const w = seatRect.width + ext.l + ext.r;
    const h = seatRect.height + ext.t;
    const [x, y] = rim(Number(node.dataset.angle));
    const box = { w, h, ext, x: W / 2 + x * (W / 2 - w / 2 - 2) - w / 2, y: H / 2 + y * (H / 2 - h / 2 - 2) - h / 2 };
    const outside = box.x < 0 || box.y < 0 || box.x + w > W + 0.5 || box.y + h > H + 0.5;
    if ((outside || boxes.some((other) => overlaps(box, other, gap))) && !anyway) return null;
    boxes.push(box);
  }
  // The pot goes in the middle of the free space between the seats above and
  // below it (with three seats, nobody sits straight across), then between
  // the seats beside it.
  const pot = { w: potNode.offsetWidth, h: potNode.offsetHeight };
  const ring = u * 0.5; // room round the pot for the "play goes this way" arrows
  pot.x = (W - pot.w) / 2;
  const column = { x: pot.x - ring, w: pot.w + 2 * ring, y: 0, h: H };
  let top = 0;
  let bottom = H;
  for (const b of boxes) {
    if (!overlaps(b, column, 0)) continue;
    if (b.y + b.h / 2 < H / 2) top = Math.max(top, b.y + b.h);
    else bottom = Math.min(bottom, b.y);
  }
  pot.y = (top + bottom) / 2 - pot.h / 2;
  const band = { x: 0, w: W, y: pot.y - ring, h: pot.h + 2 * ring };
  let left = 0;
  let right = W;
  for (const b of boxes) {
    if (!overlaps(b, band, 0)) continue;
    if (b.x + b.w / 2 < W / 2) left = Math.max(left, b.x + b.w);
    else right = Math.min(right, b.x);
  }
  if (left > 0 && right < W) pot.x = (left + right) / 2 - pot.w / 2;
  // Seats on one side only (two players on a wide table): the pot goes just beside
  // them, near the middle, not out on the empty rim.
  else if (right < W) pot.x = Math.max(2 + ring, right - gap - ring - pot.w);
  else if (left > 0) pot.x = Math.min(W - pot.w - 2 - ring, left + gap + ring);
  if (centred && !anyway && Math.abs(pot.x - (W - pot.w) / 2) > u) return null;
  const centre = { x: pot.x - ring, y: pot.y - ring, w: pot.w + 2 * ring, h: pot.h + 2 * ring };
  const potOutside = pot.x < 2 || pot.y < 2 || pot.x + pot.w > W - 2 || pot.y + pot.h > H - 2;
  if ((potOutside || boxes.some((b) => overlaps(b, centre, 4))) && !anyway) return null;
  return { u, seats, boxes, pot, potNode };
}

/** How much smaller seats may get so that the Snap Pot sits in the middle. */
const CENTRE_SHRINK = 0.85;

function fit(container) {
  if (!container.querySelector(".seat")) return;
  container.style.minBlockSize = "";
  const W = container.clientWidth;
  let H = container.clientHeight;
  if (!W || !H) return;
  // Measure every seat at the top-left corner: where an absolutely placed seat
  // stands decides how much width it may take, so a seat left near an edge by
  // the last layout would measure narrower (wrapped) than it draws at its new place.
  for (const node of container.querySelectorAll(".seat, .pot")) {
    node.style.left = "0px";
    node.style.top = "0px";
  }
  const uMax = cssPixels(container, "--u-max", 22);
  const uMin = cssPixels(container, "--u-min", 9);
  // Largest first; at each size, badges on one line first, then wrapped.
  // Only when that fails at the smallest size, compact seats (face-down
  // piles as a number), and only then a taller box.
  const tryAt = (u, height, compact, centred = false) => {
    container.classList.toggle("compact", compact);
    for (const wrap of [false, true]) {
      container.classList.toggle("wrap-badges", wrap);
      const found = place(container, u, W, height, false, centred);
      if (found) return found;
    }
    return null;
  };
  // The largest size that fits, in a few layouts rather than one per size (each costs
  // an old phone a layout of the page): the smallest first (if even it does not fit,
  // none does), then the largest, then halving the range between a size that fits and
  // one that does not. Seats only shrink with the size, so this is the size trying
  // every one from the largest down would find; the last try draws it.
  const sizes = [];
  for (let u = uMax; u >= uMin; u *= 0.94) sizes.push(u);
  const largest = (compact) => {
    let fits = sizes.length - 1;
    if (fits < 0 || !tryAt(sizes[fits], H, compact)) return null;
    if (fits === 0) return tryAt(sizes[0], H, compact);
    let fails = 0;
    if (tryAt(sizes[0], H, compact)) fits = 0;
    while (fits - fails > 1) {
      const middle = (fits + fails) >> 1;
      if (tryAt(sizes[middle], H, compact)) fits = middle;
      else fails = middle;
    }
    return tryAt(sizes[fits], H, compact);
  };
  let layout = largest(false) || largest(true);
  // The Snap Pot beside the middle (where the seats left room): in the middle instead,
  // if seats a little smaller (down to CENTRE_SHRINK) allow it, else as it was.
  if (layout && Math.abs(layout.pot.x - (W - layout.pot.w) / 2) > layout.u) {
    const found = layout;
    const compact = container.classList.contains("compact");
    let centred = null;
    for (let u = found.u; u >= Math.max(uMin, found.u * CENTRE_SHRINK) && !centred; u *= 0.94) {
      centred = tryAt(u, H, compact, true);
    }
    layout = centred || tryAt(found.u, H, compact);
  }
  // Even that does not fit (many seats, small screen): make the box taller,
  // so the page scrolls rather than seats covering each other.
  for (let grow = 0; !layout && grow < 40; grow += 1) {
    H = Math.round(H * 1.06);
    container.style.minBlockSize = `${H}px`;
    layout = tryAt(uMin, H, true);
  }
  if (!layout) {
    container.style.minBlockSize = "";
    H = container.clientHeight;
    layout = place(container, uMin, W, H, true);
  }
  const { seats, boxes, pot, potNode } = layout;
  seats.forEach((node, i) => {
    // Physical left/top on purpose: this is a picture, not mirrored in RTL.
    node.style.left = `${boxes[i].x + boxes[i].ext.l}px`;
    node.style.top = `${boxes[i].y + boxes[i].ext.t}px`;
  });
  potNode.style.left = `${pot.x}px`;
  potNode.style.top = `${pot.y}px`;
  drawFelt(container, W, H, layout);
  container.dataset.fitted = `${Math.round(W)}x${Math.round(container.clientHeight)}`;
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function drawFelt(container, W, H, { u, boxes, pot }) {
  const svg = container.querySelector(".play-direction");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const cx = W / 2;
  const title = document.createElementNS(SVG, "title");
  title.textContent = svg.getAttribute("aria-label");
  const parts = [title];

  // The table's edge runs through the middle of the seats, as at a real table.
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const A = Math.max(pot.w / 2 + u, W / 2 - mean(boxes.map((b) => b.w)) / 2 - 2);
  const B = Math.max(pot.h / 2 + u, H / 2 - mean(boxes.map((b) => b.h)) / 2 - 2);
  // The pot is on the table even when it moved up into an empty top side.
  const above = Math.max(B, H / 2 - pot.y + 0.6 * u);
  const below = Math.max(B, pot.y + pot.h - H / 2 + 0.6 * u);
  const edge = [];
  for (let i = 0; i < 96; i += 1) {
    const [x, y] = rim((i / 96) * 2 * Math.PI);
    edge.push(`${(cx + x * A).toFixed(1)},${(H / 2 + y * (y < 0 ? above : below)).toFixed(1)}`);
  }
  const cy = pot.y + pot.h / 2; // the arrows go round the pot
  const px = pot.x + pot.w / 2;
  parts.push(svgNode("polygon", { class: "felt", points: edge.join(" ") }));

  // "Play goes this way": three arrows round the pot, clockwise on screen, as
  // wide as the seats leave room for.
  const ringBox = (m) => ({ x: pot.x - m, y: pot.y - m, w: pot.w + 2 * m, h: pot.h + 2 * m });
  let margin = 1.8 * u;
  while (margin > 0.5 * u && boxes.some((b) => overlaps(b, ringBox(margin), 2))) margin *= 0.9;
  const ax = pot.w / 2 + margin * 0.6;
  const ay = pot.h / 2 + margin * 0.6;
  const at = (t) => [px + ax * Math.cos(t), cy + ay * Math.sin(t)];
  for (let i = 0; i < 3; i += 1) {
    const start = Math.PI / 2 + 0.35 + (i * 2 * Math.PI) / 3;
    const end = start + (2 * Math.PI) / 3 - 0.7;
    const [x0, y0] = at(start);
    const [x1, y1] = at(end);
    parts.push(svgNode("path", { class: "arrow", d: `M${x0} ${y0} A${ax} ${ay} 0 0 1 ${x1} ${y1}` }));
    // The arrowhead points along the ellipse at the arc's end.
    const tx = -ax * Math.sin(end);
    const ty = ay * Math.cos(end);
    const len = Math.hypot(tx, ty) || 1;
    const [ux, uy] = [tx / len, ty / len];
    const size = Math.max(7, u * 0.7);
    const tip = [x1 + ux * size * 0.6, y1 + uy * size * 0.6];
    const left = [x1 - ux * size * 0.5 - uy * size * 0.55, y1 - uy * size * 0.5 + ux * size * 0.55];
    const right = [x1 - ux * size * 0.5 + uy * size * 0.55, y1 - uy * size * 0.5 - ux * size * 0.55];
    parts.push(svgNode("polygon", { class: "arrowhead", points: `${tip.join(",")} ${left.join(",")} ${right.join(",")}` }));
  }
  svg.replaceChildren(...parts);
}
