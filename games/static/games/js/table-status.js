/* The parts of a live table's status line that every table page says alike: the game's
 * state (over, waiting for the teacher, paused) and the computer players standing in
 * for absent people. Words from the site's JavaScript catalog (gettext, ngettext). */

/** A name keeps its own direction inside a sentence of another language. */
export const isolate = (text) => `\u2068${text}\u2069`;

/** The game over, or a class table waiting for its teacher, pausing or paused; null when
 * none of these is so (the page says its own words then). */
export function gameStateText(table) {
  const k = table.klass;
  if (table.view && table.view.over) return gettext("The game is over.");
  if (k && !k.started) {
    const taken = table.seats.filter((s) => s.taken).length;
    const total = table.seats.length;
    return interpolate(
      ngettext(
        "Waiting for the teacher to start the game: %(taken)s of %(total)s seats taken.",
        "Waiting for the teacher to start the game: %(taken)s of %(total)s seats taken.",
        taken,
      ),
      { taken, total },
      true,
    );
  }
  if (k && k.pausing) return gettext("The teacher is pausing the game: this race ends first.");
  if (k && k.paused) return gettext("The teacher has paused the game. Wait until it goes on.");
  return null;
}

/** " A computer player is playing for …" (with its leading space), or "" when no
 * computer player stands in for anyone. */
export function standInText(seats) {
  const away = seats.filter((s) => s.away).map((s) => s.name);
  if (!away.length) return "";
  return " " + interpolate(
    ngettext(
      "A computer player is playing for %(names)s until they are back.",
      "A computer player is playing for each of these players until they are back: %(names)s.",
      away.length,
    ),
    { names: away.map(isolate).join(", ") },
    true,
  );
}
