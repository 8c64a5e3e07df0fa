// Names kept whole. The server isolates every name, card and call word in a sentence
// (U+2068 … U+2069, for right-to-left pages); here each outermost isolate short enough
// for a phone's line becomes a `span.name` (white-space: nowrap), so "Computer 2" or
// "மொழி" never breaks across two lines. The text itself is left exactly as it was.

const FSI = "\u2068";
const PDI = "\u2069";
const LONGEST_WHOLE = 30; // longer isolates (a long name) may still wrap inside

/** `text` as nodes: plain text, and the names in spans that do not break. */
export function namedText(text) {
  const fragment = document.createDocumentFragment();
  let depth = 0;
  let start = 0; // where the current plain run or outermost isolate began
  for (let i = 0; i < text.length; i++) {
    if (text[i] === FSI) {
      if (depth === 0) {
        if (i > start) fragment.append(text.slice(start, i));
        start = i;
      }
      depth++;
    } else if (text[i] === PDI && depth > 0) {
      depth--;
      if (depth === 0) {
        fragment.append(isolated(text.slice(start, i + 1)));
        start = i + 1;
      }
    }
  }
  if (start < text.length) fragment.append(text.slice(start));
  return fragment;
}

function isolated(part) {
  if ([...part].length - 2 > LONGEST_WHOLE) return part;
  return Object.assign(document.createElement("span"), { className: "name", textContent: part });
}
