// The site's service worker (docs/offline.md). Served by games/offline/views.py from
// the site's root, with its settings above this line: VERSION (the site's version),
// LANGUAGES, STATIC_URL and OFFLINE_WORDS (one sentence per language, for a page
// asked for offline before any page of its language was kept).
//
// What it keeps, in one cache per site version: the pages a device has opened among
// the rules, glossary, start steps, learn list, walkthroughs, home and the offline
// page, each in its language, and what they need (CSS, JavaScript, the JavaScript
// catalog, fonts, icons). Pages and the catalog go to the network first (a child
// online always gets today's page) and fall back to the kept copy; static files come
// from the kept copy first. A new version's worker takes over at once, fetches again
// what the old one kept, then deletes the old copy.

const CACHE = `snap-${VERSION}`;
const LANGS = LANGUAGES.join("|");
const KEPT_PAGE = new RegExp(`^/(${LANGS})/(rules/|glossary/|start/|learn/|learn/[-\\w]+/|offline/)?$`);
const CATALOG = new RegExp(`^/(${LANGS})/jsi18n/$`);
const LANG_PREFIX = new RegExp(`^/(${LANGS})/`);
const PATIENCE_MS = 10000; // a page the network has not begun to answer by then: the kept copy
const AT_ONCE = 4; // fetches at a time when keeping many pages

const keyOf = (url) => {
  const u = new URL(url, self.location.origin);
  return u.origin + u.pathname; // "?step=4" opens the same walkthrough
};
const sameOrigin = (url) => new URL(url, self.location.origin).origin === self.location.origin;
const isPage = (url) => KEPT_PAGE.test(new URL(url).pathname);
const isCatalog = (url) => CATALOG.test(new URL(url).pathname);
const isStatic = (url) => new URL(url).pathname.startsWith(STATIC_URL);
const keepable = (url) => sameOrigin(url) && (isPage(url) || isCatalog(url) || isStatic(url));
const langOf = (url) => (new URL(url).pathname.match(LANG_PREFIX) || [])[1] || null;
const offlinePage = (lang) => `${self.location.origin}/${lang}/offline/`;

async function put(url, response) {
  if (!response || !response.ok || response.type !== "basic" || !keepable(url)) return;
  const cache = await caches.open(CACHE);
  await cache.put(keyOf(url), response);
}

async function kept(url) {
  const cache = await caches.open(CACHE);
  return cache.match(keyOf(url), { ignoreVary: true, ignoreSearch: true });
}

// ---- What a page needs: its styles, scripts, icons, and theirs ---------------------

const TAG = /<(link|script)\b[^>]*>/gi;
const ATTR = (name) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, "i");
const NEEDED_LINKS = /\b(stylesheet|icon|apple-touch-icon|manifest|modulepreload|preload)\b/i;
const CSS_URL = /url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]/g;
const JS_IMPORT = /\bimport\s*(?:[\w*{}\s,$]*?\bfrom\s*)?\(?\s*["']([^"']+)["']/g;

function needs(url, type, text) {
  const found = [];
  if (type.includes("html")) {
    for (const [tag, name] of text.matchAll(TAG)) {
      const target = (tag.match(ATTR(name.toLowerCase() === "link" ? "href" : "src")) || [])[1];
      if (!target) continue;
      if (name.toLowerCase() === "link" && !NEEDED_LINKS.test((tag.match(ATTR("rel")) || [])[1] || "")) continue;
      found.push(target.replaceAll("&amp;", "&"));
    }
  } else if (type.includes("css")) {
    for (const m of text.matchAll(CSS_URL)) found.push(m[1] || m[2]);
  } else if (type.includes("javascript") && isStatic(url)) {
    for (const m of text.matchAll(JS_IMPORT)) found.push(m[1]);
  }
  return found
    .filter((t) => !t.startsWith("data:"))
    .map((t) => new URL(t, url).href)
    .filter((t) => sameOrigin(t) && (isStatic(t) || isCatalog(t)));
}

/** Fetch `url` (again, when `fresh`) and keep it with everything it needs. */
async function keepWithNeeds(url, { fresh = false, seen = new Set() } = {}) {
  const key = keyOf(url);
  if (seen.has(key)) return true;
  seen.add(key);
  if (!fresh && isStatic(url) && (await kept(url))) return true;
  const response = await fetch(url, { cache: fresh ? "no-cache" : "default", credentials: "same-origin" });
  if (!response.ok) return false;
  const type = response.headers.get("content-type") || "";
  const parse = /html|css|javascript/.test(type);
  const text = parse ? await response.clone().text() : null;
  await put(url, response);
  if (parse) {
    const results = await Promise.all(needs(url, type, text).map((n) => keepWithNeeds(n, { fresh, seen })));
    return results.every(Boolean);
  }
  return true;
}

/** Keep many pages, a few at a time; `onEach(ok)` after each. */
async function keepAll(urls, { fresh = false, onEach = () => {} } = {}) {
  const queue = [...urls];
  const seen = new Set();
  let failed = 0;
  async function worker() {
    while (queue.length) {
      const url = queue.shift();
      let ok = false;
      try {
        ok = await keepWithNeeds(url, { fresh, seen });
      } catch {
        ok = false;
      }
      if (!ok) failed += 1;
      onEach(ok);
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return failed;
}

async function keepOfflinePage(lang) {
  if (lang && !(await kept(offlinePage(lang)))) await keepWithNeeds(offlinePage(lang)).catch(() => false);
}

// ---- A new version takes over at once, bringing the kept pages with it -----------

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const older = (await caches.keys()).filter((name) => name.startsWith("snap-") && name !== CACHE);
      const pages = [];
      for (const name of older) {
        for (const request of await (await caches.open(name)).keys()) {
          if (isPage(request.url) || isCatalog(request.url)) pages.push(request.url);
        }
      }
      if (pages.length) await keepAll([...new Set(pages)], { fresh: true });
      await Promise.all(older.map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

// ---- Answers ------------------------------------------------------------------------

function withPatience(promise) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("slow")), PATIENCE_MS);
    promise.then(
      (r) => (clearTimeout(timer), resolve(r)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

function noNetworkPage(lang) {
  const words = OFFLINE_WORDS[lang] || OFFLINE_WORDS.en;
  const body = `<!DOCTYPE html><html lang="${words.lang}" dir="${words.dir}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${words.title}</title><p>${words.text}</p></html>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function page(event) {
  const { request } = event;
  const lang = langOf(request.url);
  const network = fetch(request);
  if (isPage(request.url)) {
    try {
      const response = await withPatience(network);
      if (response.ok) {
        event.waitUntil(put(request.url, response.clone()).then(() => keepOfflinePage(lang)));
      }
      return response;
    } catch {
      const copy = await kept(request.url);
      if (copy) return copy;
    }
  }
  try {
    return await network;
  } catch {
    return (await kept(request.url)) || (lang && (await kept(offlinePage(lang)))) || noNetworkPage(lang);
  }
}

async function catalog(request) {
  try {
    const response = await fetch(request);
    if (response.ok) await put(request.url, response.clone());
    return response;
  } catch {
    return (await kept(request.url)) || Response.error();
  }
}

async function staticFile(request) {
  const copy = await kept(request.url);
  if (copy) return copy;
  const response = await fetch(request);
  if (response.ok) await put(request.url, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !sameOrigin(request.url)) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (isCatalog(request.url)) event.respondWith(catalog(request));
  else if (isStatic(request.url)) event.respondWith(staticFile(request));
});

// ---- What pages ask -------------------------------------------------------------
// {type: "keep", page, needs}: the page just shown (if it is one to keep) and the files
//   it loaded (and, for any page, the offline page of its language); {type: "keep-all", pages}: pages to fetch now with all they need,
//   answered on the message's port with {done, total, failed} after each and
//   {finished: true, kept, failed} at the end; {type: "version"}: answered {version}.

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports[0];
  if (data.type === "version" && port) port.postMessage({ version: VERSION });
  if (data.type === "keep" && typeof data.page === "string" && sameOrigin(data.page)) {
    event.waitUntil(
      (async () => {
        if (isPage(data.page)) {
          if (!(await kept(data.page))) await keepWithNeeds(data.page).catch(() => false);
          const missing = [];
          for (const url of data.needs || []) if (keepable(url) && !(await kept(url))) missing.push(url);
          await keepAll(missing);
        }
        await keepOfflinePage(langOf(data.page)); // any page of a language: its offline page
        if (port) port.postMessage({ finished: true });
      })(),
    );
  }
  if (data.type === "keep-all" && port) {
    const pages = (data.pages || []).filter((url) => sameOrigin(url) && isPage(url));
    let done = 0;
    event.waitUntil(
      (async () => {
        const failed = await keepAll(pages, {
          onEach: () => port.postMessage({ done: (done += 1), total: pages.length }),
        });
        if (pages.length) await keepOfflinePage(langOf(pages[0]));
        port.postMessage({ finished: true, kept: pages.length - failed, failed });
      })(),
    );
  }
});
