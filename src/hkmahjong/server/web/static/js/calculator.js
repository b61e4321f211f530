// 計番器: build a hand by clicking tiles, set the situation, POST /api/score, show the result.
import { el, postJSON, t, tileImg, tileWord, lang } from "./app.js";

const state = { concealed: [], melds: [], bonus: [], history: [] };
const fanNames = JSON.parse(document.getElementById("fan-names").textContent);
const handBox = document.getElementById("calc-hand");
const countBox = document.getElementById("calc-count");
const winSelect = document.getElementById("calc-winning");
const resultBox = document.getElementById("calc-result");
const form = document.getElementById("calc-form");

const ORDER = "mpszfg";
const key = (c) => ORDER.indexOf(c[1]) * 10 + Number(c[0]);
const sortTiles = (a) => [...a].sort((x, y) => key(x) - key(y));

function target() {
  return document.querySelector('input[name="target"]:checked').value;
}

function addTile(code) {
  const kind = target();
  const bonus = code[1] === "f" || code[1] === "g";
  if (bonus || kind === "bonus") {
    if (!bonus || state.bonus.includes(code)) return;
    state.bonus.push(code);
    state.history.push(["bonus"]);
  } else if (kind === "concealed") {
    state.concealed.push(code);
    state.history.push(["concealed"]);
  } else {
    const n = Number(code[0]);
    let tiles;
    if (kind === "chow") {
      if (code[1] === "z" || n > 7) return;
      tiles = [0, 1, 2].map((i) => `${n + i}${code[1]}`);
    } else if (kind === "pung") tiles = [code, code, code];
    else tiles = [code, code, code, code];
    state.melds.push({ type: kind === "chow" ? "chow" : kind === "pung" ? "pung" : "kong", tiles, exposed: kind !== "ckong" });
    state.history.push(["meld"]);
  }
  render();
}

function undo() {
  const last = state.history.pop();
  if (!last) return;
  if (last[0] === "bonus") state.bonus.pop();
  else if (last[0] === "concealed") state.concealed.pop();
  else state.melds.pop();
  render();
}

function render() {
  handBox.replaceChildren();
  const conc = el("span", { class: "tiles", "data-testid": "calc-concealed" });
  for (const c of sortTiles(state.concealed)) conc.append(tileImg(c, "tile-sm"));
  handBox.append(conc);
  for (const m of state.melds) {
    const box = el("span", { class: m.exposed ? "meld" : "meld meld-concealed" });
    m.tiles.forEach((c, i) => box.append(tileImg(!m.exposed && (i === 0 || i === 3) ? "back" : c, "tile-sm")));
    handBox.append(box);
  }
  if (state.bonus.length) {
    const b = el("span", { class: "tiles bonus" });
    for (const c of state.bonus) b.append(tileImg(c, "tile-sm"));
    handBox.append(b);
  }
  const count = state.concealed.length + state.melds.length * 3;
  countBox.textContent = `(${count}/14)`;
  const chosen = winSelect.value;
  winSelect.replaceChildren(el("option", { value: "", text: t("calc_winning_auto") }));
  for (const c of [...new Set(sortTiles(state.concealed))]) {
    winSelect.append(el("option", { value: c, text: tileLabel(c), selected: c === chosen }));
  }
}

/** The tile's name in the page's language only (二萬 / 二万 / 2 characters). */
function tileLabel(code) {
  return tileWord(code);
}

function fanName(item) {
  return fanNames[item.id] ?? (lang() === "en" ? item.en : item.zh);
}

function showResult(data) {
  resultBox.hidden = false;
  resultBox.replaceChildren(el("h2", { text: t("calc_result") }));
  if (data.error) {
    resultBox.append(el("p", { class: "error", text: t("calc_error", { why: data.error }) }));
    return;
  }
  if (!data.valid_win) {
    const why = t(`reason_${data.reason}`);
    resultBox.append(el("p", { class: "error", "data-testid": "calc-not-win", text: t("calc_not_win", { why }) }));
  }
  if (data.items && data.items.length) {
    const ul = el("ul", { class: "breakdown", "data-testid": "calc-items" });
    for (const item of data.items) {
      ul.append(el("li", {}, el("span", { text: fanName(item) }), el("span", { text: t("fan_n", { n: item.fan }) })));
    }
    resultBox.append(ul);
  }
  const total = data.limit ? t("example_limit", { n: data.total_fan }) : t("example_total", { n: data.total_fan });
  resultBox.append(el("p", { class: "total", "data-testid": "calc-total", text: total }));
  if (data.arrangement && data.arrangement.length) {
    resultBox.append(el("p", { text: `${t("calc_arrangement")}${t("colon")}${data.arrangement.join(" ")}` }));
  }
  if (data.valid_win && data.payment) {
    const p = data.payment;
    const ul = el("ul", { "data-testid": "calc-payment" });
    ul.append(el("li", { text: t("pay_self_each", { n: p.self_draw_each }) }));
    ul.append(el("li", { text: t("pay_full_gun", { n: p.discarder_full_gun }) }));
    ul.append(el("li", { text: t("pay_half_gun", { a: p.discarder_half_gun, b: p.others_half_gun }) }));
    resultBox.append(el("h3", { text: t("calc_payment") }), ul);
  }
}

async function score(event) {
  event.preventDefault();
  const fd = new FormData(form);
  const body = {
    id: "calc",
    hand: {
      concealed: sortTiles(state.concealed).join(""),
      melds: state.melds.map((m) => ({ type: m.type, tiles: m.tiles.join(""), exposed: m.exposed })),
      winning_tile: fd.get("winning_tile") || null,
    },
    context: {
      self_drawn: fd.get("self_drawn") === "on",
      seat_wind: fd.get("seat_wind"),
      prevailing_wind: fd.get("prevailing_wind"),
      flowers: state.bonus,
      special: fd.getAll("special"),
    },
    rules: fd.get("rules"),
  };
  const res = await postJSON("/api/score", body);
  if (res.data && typeof res.data === "object" && !Array.isArray(res.data) && ("valid_win" in res.data || "error" in res.data)) {
    showResult(res.data);
  } else {
    showResult({ error: res.data && res.data.detail ? JSON.stringify(res.data.detail) : `HTTP ${res.status}` });
  }
}

document.getElementById("palette").addEventListener("click", (e) => {
  const btn = e.target.closest("button[data-tile]");
  if (btn) addTile(btn.dataset.tile);
});
document.getElementById("calc-undo").addEventListener("click", undo);
document.getElementById("calc-clear").addEventListener("click", () => {
  state.concealed = []; state.melds = []; state.bonus = []; state.history = []; render();
});
form.addEventListener("submit", score);
render();
