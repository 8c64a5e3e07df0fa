// Teachers' lessons: this browser keeps the edit link of each lesson made here
// (the builder page hands it over once), and the lessons page lists them.
const PREFIX = "snap-lesson-edit:";

function store() {
  try {
    return window.localStorage;
  } catch (e) {
    return null; // private mode: nothing to keep
  }
}

const keep = document.getElementById("lesson-keep");
const storage = store();
if (keep && storage) {
  const path = keep.dataset.editPath.replace(/^\/[^/]+\//, "/"); // without the language
  storage.setItem(PREFIX + keep.dataset.code, JSON.stringify({ path, title: keep.dataset.title || "" }));
}

const list = document.getElementById("kept-lessons");
if (list && storage) {
  const lang = document.documentElement.lang || "en";
  const kept = [];
  for (let i = 0; i < storage.length; i++) {
    const name = storage.key(i);
    if (!name.startsWith(PREFIX)) continue;
    try {
      kept.push({ code: name.slice(PREFIX.length), ...JSON.parse(storage.getItem(name)) });
    } catch (e) {
      /* not ours */
    }
  }
  kept.sort((a, b) => a.code.localeCompare(b.code));
  for (const lesson of kept) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/${lang}${lesson.path}`;
    const title = document.createElement("bdi");
    title.textContent = lesson.title || lesson.code;
    link.append(title);
    item.append(link);
    list.append(item);
  }
  document.getElementById("kept-none").hidden = kept.length > 0;
}
