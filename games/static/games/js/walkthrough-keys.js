// Keys for the walkthrough player, for a keyboard and for a presentation
// clicker (which sends Page Down / Page Up). Keys are only taken when the
// focus is in the player or nowhere in particular, never from a text field,
// and Space / Enter are left to a focused button or link.

const PRESS_KEYS = { KeyT: "turn", KeyS: "snap", KeyO: "snap_pot" };
const TEXT_ENTRY = "input, textarea, select, [contenteditable]:not([contenteditable='false'])";
const CONTROL = "a[href], button, summary, [role='button'], [role='link'], [tabindex]:not([tabindex='-1'])";

/** The player's action for a key press, or null: "forward", "backward",
 * "press:<kind>", "projector" or "leave". */
export function actionFor(event, { rtl = false, onControl = false } = {}) {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const ahead = rtl ? "ArrowLeft" : "ArrowRight";
  const behind = rtl ? "ArrowRight" : "ArrowLeft";
  switch (event.key) {
    case "PageDown":
    case ahead:
      return "forward";
    case "PageUp":
    case behind:
      return "backward";
    case " ":
    case "Enter":
      if (onControl) return null; // the focused button or link has it
      return event.shiftKey ? "backward" : "forward";
    case "Escape":
      return "leave";
    default:
      break;
  }
  if (event.shiftKey) return null;
  if (PRESS_KEYS[event.code]) return `press:${PRESS_KEYS[event.code]}`;
  if (event.code === "KeyP") return "projector";
  return null;
}

export function connectKeys(player, { forward, backward, press, projector, rtl }) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented) return;
    const target = event.target instanceof Element ? event.target : document.body;
    if (target.closest(TEXT_ENTRY)) return;
    const nowhere = target === document.body || target === document.documentElement || target.matches("main");
    if (!(projector.active || nowhere || player.contains(target))) return;
    const action = actionFor(event, { rtl, onControl: Boolean(target.closest(CONTROL)) });
    if (!action || (action === "leave" && !projector.active)) return;
    event.preventDefault();
    if (event.repeat) return; // a key held down does not race through the steps
    if (action === "forward") forward();
    else if (action === "backward") backward();
    else if (action === "projector") projector.toggle();
    else if (action === "leave") projector.leave();
    else press(action.slice("press:".length));
  });
}
