const { ngettext, interpolate } = window;
// Marks the walkthroughs this browser has finished (kept in localStorage).
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
