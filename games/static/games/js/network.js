// The site without a network (docs/offline.md). On every page: registers the service
// worker (games/offline/sw.js) and tells it what this page loaded, so that a page it
// keeps (rules, glossary, start, learn, walkthroughs) opens again offline with its
// styles, scripts and fonts. A page that needs the network (body[data-network]) says
// so while there is none, and comes back by itself when it returns: "reload" pages
// (the lobby, the teachers' page) open again, "live" pages (tables) and "stay" pages
// (a teacher's form) only hide the note (a socket connects again by itself; what was
// typed stays), the offline page ("retry") opens the address that was asked for.

const RETRY_MS = 5000; // the offline page asks the server again this often

const worker = "serviceWorker" in navigator && document.body.dataset.serviceWorker;

/** The active service worker, once there is one (null where there is none). */
export function activeWorker() {
  if (!worker) return Promise.resolve(null);
  return navigator.serviceWorker.ready.then((registration) => registration.active);
}

/** Ask the service worker; the answers come on a port of their own. */
function ask(message, onAnswer) {
  return activeWorker().then((active) => {
    if (!active) return false;
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => onAnswer(event.data);
    active.postMessage(message, [channel.port2]);
    return true;
  });
}

/** Keep `pages` (addresses) for offline with all they need; `onProgress({done, total})`
 * after each; resolves with {kept, failed}, or null when there is no service worker. */
export function keepPages(pages, onProgress = () => {}) {
  return new Promise((resolve) => {
    ask({ type: "keep-all", pages }, (answer) => {
      if (answer.finished) resolve(answer);
      else onProgress(answer);
    }).then((asked) => asked || resolve(null));
  });
}

function keepThisPage() {
  const needs = performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(location.origin));
  ask({ type: "keep", page: location.href, needs }, () => {
    document.documentElement.dataset.kept = "true"; // for tests and curious eyes
  });
}

if (worker) {
  navigator.serviceWorker.register(worker).catch(() => {
    /* private mode, or an insecure address: the site works as before */
  });
  const afterLoad = () => document.fonts.ready.then(keepThisPage);
  if (document.readyState === "complete") afterLoad();
  else window.addEventListener("load", afterLoad);
}

// ---- Pages that need the network ---------------------------------------------------

const need = document.body.dataset.network;
const note = document.querySelector(".network-note");

function showNote() {
  if (note && need !== "retry") note.hidden = navigator.onLine;
}

function comeBack() {
  if (need === "reload" || need === "retry") location.reload();
  else showNote();
}

if (need) {
  window.addEventListener("offline", showNote);
  window.addEventListener("online", comeBack);
  showNote();
}

if (need === "retry" && !location.pathname.endsWith("/offline/")) {
  // The network may be there while the server was not: ask it again now and then.
  setInterval(() => {
    fetch(location.href, { method: "HEAD", cache: "no-store" }).then(
      (response) => response.ok && location.reload(),
      () => {},
    );
  }, RETRY_MS);
}
