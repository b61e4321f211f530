// 大堂 the lobby: open tables, live over /ws/lobby (GET /api/lobby as the fallback), quick match.
import { el, postJSON, t } from "./app.js";

const body = document.querySelector("#lobby-tables tbody");
const errBox = document.getElementById("lobby-error");
const quick = document.getElementById("quick-match");
const LENGTH_KEY = { "one-hand": "len_one_hand", "four-rounds": "len_four_rounds", "8-hands": "len_8", "16-hands": "len_16", bankruptcy: "len_bankrupt", online: "len_4" };

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
      el("td", { text: `${tb.rules.preset || tb.rules.name} (${tb.rules.digest})` }),
      el("td", { "data-testid": "stake", text: price(tb) }),
      el("td", { text: LENGTH_KEY[tb.length] ? t(LENGTH_KEY[tb.length]) : tb.length }),
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

function live() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/ws/lobby`); } catch { poll(); return; }
  ws.onmessage = (e) => {
    try { const msg = JSON.parse(e.data); if (msg.t === "lobby") show(msg.tables); } catch { /* ignore */ }
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

poll();
live();
