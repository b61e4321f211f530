// 香港麻雀館: shared helpers for every page (words of the page language, tiles, service worker).

/** The page's words ({key: text}) in its language, from the JSON the server put in the page. */
export function words() {
  if (!words.cache) {
    const el = document.getElementById("i18n");
    words.cache = el ? JSON.parse(el.textContent) : {};
  }
  return words.cache;
}

/** One page string, with {name} placeholders filled in (values are text, never HTML). */
export function t(key, fmt = {}) {
  const text = words()[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in fmt ? String(fmt[name]) : m));
}

/** The page language: zh-Hant, zh-Hans or en. */
export function lang() {
  return document.documentElement.lang || "zh-Hant";
}

const HONOURS = {
  "zh-Hant": "東南西北白發中", "zh-Hans": "东南西北白发中",
};
const NUMERALS = "一二三四五六七八九";
const SUIT = { m: ["萬", "万", "characters"], p: ["筒", "筒", "dots"], s: ["索", "索", "bamboo"] };
const HONOUR_EN = ["east wind", "south wind", "west wind", "north wind", "white dragon", "green dragon", "red dragon"];
const BONUS_ZH = "梅蘭菊竹春夏秋冬";
const BONUS_EN = ["plum", "orchid", "chrysanthemum", "bamboo", "spring", "summer", "autumn", "winter"];

/** A tile's accessible name: Chinese (繁體) and English, e.g. "五筒 5 dots" (as the SVG titles). */
export function tileName(code) {
  const n = Number(code[0]);
  const s = code[1];
  if (SUIT[s]) return `${NUMERALS[n - 1]}${SUIT[s][0]} ${n} ${SUIT[s][2]}`;
  if (s === "z") return `${HONOURS["zh-Hant"][n - 1]} ${HONOUR_EN[n - 1]}`;
  const i = (s === "f" ? 0 : 4) + n - 1;
  return `${BONUS_ZH[i]} ${BONUS_EN[i]}`;
}

/** A tile's name in the page's language alone: 五筒 / 五筒 / "5 dots", 發 / 发 / "green dragon". */
export function tileWord(code, l = lang()) {
  if (l === "en") return tileName(code).split(" ").slice(1).join(" ");
  const n = Number(code[0]);
  const s = code[1];
  const hans = l === "zh-Hans" ? 1 : 0;
  if (SUIT[s]) return `${NUMERALS[n - 1]}${SUIT[s][hans]}`;
  if (s === "z") return HONOURS[l === "zh-Hans" ? "zh-Hans" : "zh-Hant"][n - 1];
  const word = tileName(code).split(" ")[0]; // 梅蘭菊竹春夏秋冬: one script but 蘭 (兰)
  return hans ? word.replace("蘭", "兰") : word;
}

/** An <img> of tile `code` ("5p", "7z", "2f" or "back"), with its name as alt text and title. */
export function tileImg(code, cls = "") {
  const img = document.createElement("img");
  img.className = `tile ${cls}`.trim();
  img.src = `/static/tiles/${code}.svg`;
  img.alt = code === "back" ? "牌背 tile back" : tileName(code);
  img.title = img.alt;
  img.width = 48;
  img.height = 64;
  img.dataset.tile = code;
  return img;
}

/** Element helper: el("div", {class: "x", text: "..."}, child, …); text is set as text, never HTML. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** The CSRF token of the page (hidden form field), for JSON POSTs. */
export function csrfToken() {
  const f = document.querySelector('input[name="csrf"]') || document.querySelector('meta[name="csrf-token"]');
  return f ? (f.value ?? f.content) : "";
}

/** POST JSON to a same-origin URL; resolves to {ok, status, data}. */
export async function postJSON(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  return { ok: res.ok, status: res.status, data };
}

// Times: the server writes UTC (<time datetime="…Z" data-local>); the page shows them in the
// browser's own zone, in its language (the UTC text stays for a page without scripts).
const LOCALE = { "zh-Hant": "zh-HK", "zh-Hans": "zh-CN", en: "en-GB" };
const TIME_FORMAT = {
  short: { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false },
  full: { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false },
};
export function localTimes(root = document) {
  for (const node of root.querySelectorAll("time[data-local]")) {
    const at = new Date(node.getAttribute("datetime"));
    if (Number.isNaN(at.getTime())) continue;
    const locale = LOCALE[lang()] || "en-GB";
    node.textContent = new Intl.DateTimeFormat(locale, TIME_FORMAT[node.dataset.local] || TIME_FORMAT.full).format(at);
    node.title = new Intl.DateTimeFormat(locale, { ...TIME_FORMAT.full, timeZoneName: "short" }).format(at);
  }
}
localTimes();

// Jargon explained where it appears: an element marked data-term="digest|seed|wallcheck|shanten"
// (or one of the table's and replay's known places below) gets a small "?" button that shows a
// short explanation in the page's language; the explanation is also the term's title and its
// accessible description. Elements added later (the table and the replay draw as they go) are
// explained as they appear.
export const TERMS = ["digest", "seed", "wallcheck", "shanten"];
const TERM_PLACES = [
  ["#wallcheck > h2", "wallcheck"], // the replay's 驗牌牆
  ["[data-testid=result] .seed", "seed"], // the hand's result: the seed revealed
  ["[data-testid=hint-words]", "shanten"], // the practice advisor's 向聽
];
let termCount = 0;
export function explainTerms(root = document) {
  if (!root.querySelectorAll) return;
  for (const [selector, term] of TERM_PLACES) {
    for (const node of root.querySelectorAll(selector)) if (!node.dataset.term) node.dataset.term = term;
  }
  for (const node of root.querySelectorAll("[data-term]:not([data-term-done])")) {
    const term = node.dataset.term;
    if (!TERMS.includes(term)) continue;
    node.dataset.termDone = "";
    const id = `term-${term}-${++termCount}`;
    const text = t(`term_${term}`);
    const note = el("span", { class: "term-note", id, role: "note", hidden: true, text });
    const button = el("button", {
      type: "button", class: "term-help", "aria-expanded": "false", "aria-controls": id,
      "aria-label": t("term_help", { term: t(`term_name_${term}`) }), title: text, text: "?",
      "data-testid": `term-${term}`,
    });
    button.addEventListener("click", (e) => {
      e.preventDefault();
      e.stopPropagation();
      note.hidden = !note.hidden;
      button.setAttribute("aria-expanded", String(!note.hidden));
    });
    button.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !note.hidden) { note.hidden = true; button.setAttribute("aria-expanded", "false"); e.stopPropagation(); }
    });
    node.setAttribute("aria-describedby", id);
    node.append(" ", button);
    node.after(note); // (after the term: a heading's name stays the term's own words)
  }
}
explainTerms();
new MutationObserver((changes) => {
  const added = changes.some((c) => [...c.addedNodes].some((n) => n.nodeType === 1 && !n.classList.contains("term-help") && !n.classList.contains("term-note")));
  if (added) explainTerms(document);
}).observe(document.body, { childList: true, subtree: true });

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

// A select marked data-autosubmit submits its form when changed (the page's CSP runs no inline
// handler: docs/security.md).
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => { if (select.form) select.form.submit(); });
}
