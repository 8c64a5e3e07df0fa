// A table's log of what happened, newest first (the live table page, and each edge of a
// table on one device). A race's outcome stays the first, largest line: the "too late"
// calls that reach the server after it are told under it, smaller (CSS:
// .told-log li.told-too_late). A race's outcome, a wrong call and a call too late can
// be listened to, in the language of the line (an edge's own on a table on one device).
import { addListenButton } from "./speech.js";

const OUTCOMES = ["piles_won", "tie_to_pot"];
const READ_ALOUD = new Set([...OUTCOMES, "too_late", "wrong_call", "race_cancelled"]);

/** Put `item` (an <li>, told for the event `code`) in `log`, keeping `keep` lines. */
export function addToLog(log, item, code, keep) {
  const top = log.firstElementChild;
  const outcome = top && OUTCOMES.some((c) => top.classList.contains(`told-${c}`));
  if (code === "too_late" && outcome) top.after(item);
  else log.prepend(item);
  while (log.children.length > keep) log.lastElementChild.remove();
  if (READ_ALOUD.has(code) && item.isConnected) addListenButton(item);
}
