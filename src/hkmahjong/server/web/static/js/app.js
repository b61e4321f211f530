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

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

// A select marked data-autosubmit submits its form when changed (the page's CSP runs no inline
// handler: docs/security.md).
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => { if (select.form) select.form.submit(); });
}
