// Marks the walkthroughs this browser has finished (kept in localStorage), and keeps
// every walkthrough of this language for offline on a press (games/js/network.js).
import { keepPages } from "./network.js";

const { ngettext, interpolate } = window;
const STORAGE_PREFIX = "snap-walkthrough-done:";
let done = 0;
const items = document.querySelectorAll(".walkthrough-item");
for (const item of items) {
  let finished = false;
  try {
    finished = localStorage.getItem(STORAGE_PREFIX + item.dataset.slug) === "1";
  } catch (e) {
    finished = false;
  }
  if (finished) {
    done += 1;
    item.classList.add("done");
    item.querySelector(".done-mark").hidden = false;
  }
}
const summary = document.querySelector(".learn-progress");
if (summary && done) {
  const text = ngettext(
    "You have finished %(done)s of %(total)s walkthroughs.",
    "You have finished %(done)s of %(total)s walkthroughs.",
    done,
  );
  summary.textContent = interpolate(text, { done, total: items.length }, true);
}

// ---- Keep for offline: every walkthrough of this language, at once ---------------------

const keeping = document.querySelector(".keep-offline");
// No service worker (an old browser, or an address that is not secure): no button.
if (keeping && !("serviceWorker" in navigator)) keeping.hidden = true;
if (keeping && "serviceWorker" in navigator) {
  const button = keeping.querySelector('[data-action="keep-offline"]');
  const status = keeping.querySelector(".keep-offline-status");
  // This page, its walkthroughs, and the pages their rule links open (the rules, …).
  const also = keeping.dataset.also.split(" ").map((path) => new URL(path, location.href).href);
  const walkthroughs = [...items].map((item) => item.querySelector("a").href);
  const pages = [location.origin + location.pathname, ...walkthroughs, ...also];
  const count = items.length;
  delete keeping.dataset.pending;
  button.addEventListener("click", () => {
    button.disabled = true;
    status.textContent = interpolate(
      ngettext("Keeping %(count)s walkthrough for offline…", "Keeping %(count)s walkthroughs for offline…", count),
      { count },
      true,
    );
    keepPages(pages).then((answer) => {
      button.disabled = false;
      if (!answer) return; // no service worker (an insecure address)
      const failed = Math.min(answer.failed, count);
      const text = failed
        ? ngettext(
            "%(count)s walkthrough could not be kept. Try again when the network is back.",
            "%(count)s walkthroughs could not be kept. Try again when the network is back.",
            failed,
          )
        : ngettext(
            "Done: %(count)s walkthrough is kept on this device and opens without a network.",
            "Done: %(count)s walkthroughs are kept on this device and open without a network.",
            count,
          );
      status.textContent = interpolate(text, { count: failed || count }, true);
      keeping.dataset.kept = failed ? "" : "true";
    });
  });
}
