// Projector mode: the player fills the screen (the Fullscreen API where the
// browser allows it, and a CSS mode that works without it). Esc leaves.

export function connectProjector(player, { onChange = () => {} } = {}) {
  const button = player.querySelector('[data-action="projector"]');
  const state = { active: false, enter, leave, toggle };

  function show(active) {
    state.active = active;
    player.classList.toggle("projector", active);
    document.documentElement.classList.toggle("projecting", active);
    if (button) button.setAttribute("aria-pressed", String(active));
    onChange(active);
  }

  function enter() {
    if (state.active) return;
    show(true);
    if (document.fullscreenEnabled && player.requestFullscreen && !document.fullscreenElement) {
      player.requestFullscreen({ navigationUI: "hide" }).catch(() => {
        /* refused (no user gesture, or not allowed): the CSS mode is enough */
      });
    }
  }

  function leave() {
    if (!state.active) return;
    show(false);
    if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(() => {});
  }

  function toggle() {
    if (state.active) leave();
    else enter();
  }

  // Esc in full screen is the browser's: it leaves full screen, and so do we.
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement && state.active) leave();
  });
  if (button) button.addEventListener("click", toggle);
  return state;
}
