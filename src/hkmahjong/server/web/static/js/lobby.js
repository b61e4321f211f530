// 大堂 the lobby: open tables, live over /ws/lobby (GET /api/lobby as the fallback), quick match.
import { el, postJSON, t } from "./app.js";

const body = document.querySelector("#lobby-tables tbody");
const errBox = document.getElementById("lobby-error");
const quick = document.getElementById("quick-match");
const LENGTH_KEY = { "one-hand": "len_one_hand", "east-round": "len_quarter", "four-rounds": "len_four_rounds", "8-hands": "len_8", "16-hands": "len_16", bankruptcy: "len_bankrupt", online: "len_4" };
const labelsNode = document.getElementById("preset-labels");
const PRESETS = labelsNode ? JSON.parse(labelsNode.textContent) : {};
const lengthName = (v) => (LENGTH_KEY[v] ? t(LENGTH_KEY[v]) : v);
/** A ruleset by its name in the page's language (a preset), else "house rules". */
const rulesName = (rules) => (rules.preset && PRESETS[rules.preset]) || (rules.preset ? rules.preset : t("house_rules"));

function price(tb) {
  if (tb.fee) return t("stake_fee", { stake: tb.stake || 0, fee: tb.fee });
  return tb.stake ? t("jade_n", { n: tb.stake }) : "—";
}

function show(tables) {
  errBox.hidden = true;
  body.replaceChildren();
  const open = (tables || []).filter((x) => x.kind === "online");
  if (!open.length) {
    body.append(el("tr", { class: "empty" }, el("td", { colspan: 6, text: t("no_tables") })));
    return;
  }
  for (const tb of open) {
    const seated = tb.players.filter((p) => p.kind !== "empty").length;
    const names = tb.players.filter((p) => p.kind !== "empty").map((p) => p.name).join(", ");
    const link = el("a", { class: "button", href: `/table/${encodeURIComponent(tb.id)}`, "data-table": tb.id }, t("watch"));
    const join = el("button", { type: "button", class: "button primary", "data-join": tb.id }, t("join"));
    join.addEventListener("click", async () => {
      const res = await postJSON(`/api/tables/${encodeURIComponent(tb.id)}/join`, {});
      if (res.ok) location.assign(`/table/${encodeURIComponent(tb.id)}`);
      else { errBox.textContent = t("create_error", { why: res.data?.detail?.message || `HTTP ${res.status}` }); errBox.hidden = false; }
    });
    body.append(el("tr", { "data-table": tb.id },
      el("td", { text: tb.id }),
      el("td", { text: rulesName(tb.rules), title: tb.rules.digest }),
      el("td", { "data-testid": "stake", text: price(tb) }),
      el("td", { text: lengthName(tb.length) }),
      el("td", { title: names, text: tb.watchers ? `${seated}/4 · ${t("t_watchers", { n: tb.watchers })}` : `${seated}/4` }),
      el("td", {}, tb.status === "waiting" && seated < 4 ? join : link),
    ));
  }
}

async function poll() {
  try {
    const res = await fetch("/api/lobby", { credentials: "same-origin" });
    if (!res.ok) throw new Error(String(res.status));
    const data = await res.json();
    show(Array.isArray(data) ? data : data.tables);
  } catch {
    errBox.hidden = false;
  }
}

// The socket sends the whole listing once (`lobby`), then only changes (`lobby_diff`: entries
// new or changed, ids gone); `your_table`: a table you sit at has started (docs/protocol.md).
let listed = [];

function applyDiff(msg) {
  const gone = new Set(msg.remove || []);
  listed = listed.filter((x) => !gone.has(x.id));
  for (const entry of msg.upsert || []) {
    const at = listed.findIndex((x) => x.id === entry.id);
    if (at >= 0) listed[at] = entry; else listed.push(entry);
  }
}

function live() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/ws/lobby`); } catch { poll(); return; }
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg.t === "lobby") { listed = msg.tables || []; show(listed); }
    else if (msg.t === "lobby_diff") { applyDiff(msg); show(listed); }
    else if (msg.t === "your_table" && msg.status === "playing") tableStarted(msg.id);
  };
  ws.onclose = () => setTimeout(() => { poll(); live(); }, 3000);
}

if (quick) {
  quick.addEventListener("click", async () => {
    quick.disabled = true;
    const res = await postJSON("/api/quick", {});
    quick.disabled = false;
    if (res.ok && res.data && (res.data.url || res.data.id)) location.assign(res.data.url || `/table/${encodeURIComponent(res.data.id)}`);
    else { errBox.textContent = t("create_error", { why: res.data?.detail?.message || `HTTP ${res.status}` }); errBox.hidden = false; }
  });
}

// 我的牌局: my tables that are not over (a paused practice resumes where it stopped).
const mine = document.getElementById("my-games");

async function myGames() {
  if (!mine) return;
  let list = [];
  try {
    const res = await fetch("/api/me/tables", { credentials: "same-origin" });
    if (!res.ok) return;
    list = await res.json();
  } catch { return; }
  const box = document.getElementById("my-games-list");
  box.replaceChildren();
  for (const g of list) {
    const others = g.players.filter((p) => p.kind !== "empty" && p.kind !== "human").map((p) => t(`level_${p.bot}`));
    const humans = g.players.filter((p) => p.kind === "human").map((p) => p.name);
    const who = g.kind === "practice" ? t("vs_bots", { who: [...new Set(others)].join(t("comma")) }) : humans.join(t("comma"));
    const status = t(`tst_${g.status}`) || g.status;
    const go = el("a", { class: "button primary", href: g.url, "data-testid": `resume-${g.id}` }, g.status === "paused" ? t("resume") : t("go_table"));
    box.append(el("li", { class: "card gamecard", "data-my-table": g.id },
      el("div", { class: "gamehead" },
        el("b", { text: `${g.kind === "practice" ? t("nav_practice") : t("col_table")} · ${rulesName(g.rules)}` }),
        el("span", { class: `badge st-${g.status}`, text: status })),
      el("div", { class: "muted", text: [lengthName(g.length), g.status === "waiting" ? null : t("hand_of", { n: g.hand_number + 1 }), who, g.stake ? t("jade_n", { n: g.stake }) : null].filter(Boolean).join(" · ") }),
      go));
  }
  mine.hidden = list.length === 0;
}

/** A table I sit at has started: say so on the page and in the tab's title, then open it. */
function tableStarted(id) {
  const note = document.getElementById("table-notice");
  const url = `/table/${encodeURIComponent(id)}`;
  if (note) {
    note.replaceChildren(el("span", { text: t("t_table_started") }), " ", el("a", { class: "button primary", href: url, "data-testid": "table-started-link" }, t("go_table")));
    note.hidden = false;
  }
  document.title = `● ${t("t_table_started")} · ${document.title.replace(/^● [^·]*· /, "")}`;
  setTimeout(() => location.assign(url), 1500);
}

poll();
live();
myGames();
