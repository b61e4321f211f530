// 牌檯 the table client: speaks docs/protocol.md (version 1) over /ws/table/{id}.
// Every name and text from the server is set with textContent (never as HTML).
// A visitor not seated at the table is a spectator (旁觀): public information only, behind the
// table by its delay; the board (board.js) is drawn the same way for both.
import { csrfToken, el, lang, postJSON, t, tileImg, tileWord, words } from "./app.js";
import {
  SEATS, animate, fanLabel, nameAt as boardName, removeOne, renderBoard, sortTiles, youOf,
} from "./board.js";

const root = document.getElementById("table-app");
const tableId = root.dataset.tableId;
const invite = new URLSearchParams(location.search).get("invite");
const $ = (id) => document.getElementById(id);

const S = {
  ws: null, v: 0, epoch: null, table: null, view: null, prompt: null, selected: null,
  chowOpen: false, result: null, matchEnd: null, clock: null, lastDiscard: null,
  retry: 0, closed: false, deadWall: null, msgId: 0, hint: null, error: null,
  resultAt: null, readySent: false, resultSeen: false,
};
S.resultActions = resultActions;
/** The tile the open prompt is about, for the board to mark: a discard to claim (its seat) or, to
 * rob a kong (搶槓), the tile added to a meld. */
S.promptAbout = () => {
  const v = S.view;
  if (!openPrompt() || !v || !v.pending_tile || !v.pending_from || v.pending_from === v.seat) return null;
  if (v.phase !== "claim" && v.phase !== "rob") return null;
  return { seat: SEATS.indexOf(v.pending_from), tile: v.pending_tile, rob: v.phase === "rob" };
};

// -- connection ------------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/ws/table/${encodeURIComponent(tableId)}${query}`);
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    const hello = { t: "hello", proto: 1 };
    if (S.epoch && S.v) { hello.epoch = S.epoch; hello.since = S.v; }
    ws.send(JSON.stringify(hello));
    setStatus("");
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = (e) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if ([4401, 4403, 4404, 4409, 4429].includes(e.code) || S.closed) {
      S.closed = true;
      const known = `wclose_${e.code}`; // the close reason is English: say it in the page's language
      setStatus(t("t_closed", { why: known in words() ? t(known) : (e.reason || String(e.code)) }), "error");
      render();
      return;
    }
    retryLater();
  };
}

function retryLater() {
  setStatus(t("t_reconnecting"), "error");
  S.retry = Math.min(S.retry + 1, 6);
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(connect, 250 * 2 ** S.retry);
}

// Offline (the device lost its network): the socket is dead, say so now and reconnect when back.
// The socket is dropped at once: its closing handshake cannot finish without a network, and the
// browser may only report the close when that handshake times out, long after.
// Back online (a phone leaving a tunnel): reconnect now rather than at the next back-off retry.
window.addEventListener("offline", () => {
  const ws = S.ws;
  if (!ws || S.closed) return;
  S.ws = null;
  ws.close();
  retryLater();
});
window.addEventListener("online", () => {
  if (S.ws || S.closed) return;
  clearTimeout(S.retryTimer);
  S.retry = 0;
  connect();
});

function send(obj) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
}

function act(action) {
  if (!openPrompt()) return;
  S.msgId += 1;
  if (S.startedAt) { S.startedAt = null; if ($("status").textContent === t("t_table_started")) setStatus(""); }
  send({ t: "act", action, v: S.prompt.v, id: `c${S.msgId}` });
  S.sentFor = S.prompt.v;
  S.selected = null;
  S.chowOpen = false;
  render();
}

/** The open prompt, unless this client already answered it and waits for the server's `done`. */
function openPrompt() {
  return S.prompt && S.sentFor !== S.prompt.v ? S.prompt : null;
}

setInterval(() => send({ t: "ping" }), 25000);

// -- messages --------------------------------------------------------------------------------
function onMessage(msg) {
  if (msg.t === "error") {
    S.error = msg; S.sentFor = null; render();
    const known = `werr_${msg.code}`; // the server's message is English: say it in the page's language
    setStatus(t("t_error", { why: known in words() ? t(known) : msg.message }), "error");
    return;
  }
  if (msg.t === "pong") return;
  if (msg.t === "hint") { S.hint = msg.advice; selectAdvised(); renderHint(); return; }
  if (msg.t === "snapshot") { applySnapshot(msg); sendPrefs(); render(); return; }
  if (typeof msg.v === "number") {
    if (msg.v <= S.v && msg.t !== "synced") return;
    if (msg.t !== "synced" && msg.v !== S.v + 1 && S.v !== 0) {
      if (S.ws) S.ws.close();
      return;
    }
    S.v = msg.v;
  }
  switch (msg.t) {
    case "synced": S.prompt = msg.prompt || null; sendPrefs(); break;
    case "event": applyEvent(msg.event); break;
    case "prompt": if (S.prefs.sound && !document.hasFocus()) beep(); else if (S.prefs.sound) beep(0.04); if (S.error) { S.error = null; setStatus(""); } S.prompt = msg; S.promptAt = performance.now(); S.selected = null; S.chowOpen = false; S.hint = null; renderHint(); break;
    case "done": if (S.prompt && S.prompt.v === msg.prompt) { S.prompt = null; S.hint = null; renderHint(); } break;
    case "clock": S.clock = { seat: msg.seat, kind: msg.kind, ms: msg.ms, bank_ms: msg.bank_ms, at: performance.now() }; break;
    case "hand": if (msg.hand === 0 && S.table && S.table.kind === "online") tableStarted(); startHand(msg); refreshBalance(); break;
    case "hand_end": S.result = { ...msg, replay: replayLink(msg.hand), at: performance.now() }; S.resultAt = performance.now(); S.readySent = false; S.resultSeen = false; updateStandings(msg.standings); S.prompt = null; break;
    case "match_end": S.matchEnd = msg; S.prompt = null; S.resultSeen = false; if (msg.settlement) refreshBalance(); break;
    case "seat":
      if (S.table) S.table.players[msg.player].status = msg.status;
      if (S.clock && S.table && msg.status === "sat_out" && S.table.players[msg.player].seat === S.clock.seat) S.clock = null;
      break;
    case "table": {
      const old = S.table;
      S.table = { ...msg.table, you: msg.table.you ?? old?.you };
      if (old && S.result && S.view) {
        // between hands the board shows the hand that ended until the next one is dealt
        S.table.dealer = old.dealer; S.table.hand_number = old.hand_number; S.table.prevailing = old.prevailing;
        S.table.players.forEach((p, i) => { if (old.players[i]) p.seat = old.players[i].seat; });
      }
      break;
    }
    case "watchers": if (S.table) S.table.watchers = msg.count; break;
    case "emote": showEmote(msg.player, msg.id); break;
    default: break;
  }
  render();
}

function applySnapshot(msg) {
  S.v = msg.v;
  S.epoch = msg.epoch;
  S.table = msg.table;
  S.view = msg.view ? structuredClone(msg.view) : null;
  S.prompt = msg.prompt ? { ...msg.prompt, t: "prompt" } : null;
  S.promptAt = performance.now();
  S.selected = null;
  S.result = null;
  S.resultAt = null; // how long the pause between hands has run is not in the snapshot
  S.readySent = false;
  if (msg.hand_end) {
    // between a hand's end and the next hand the snapshot repeats the hand_end as it was sent:
    // the whole result again (standings, every hand, the seed, the replay link)
    S.result = { ...msg.hand_end, replay: replayLink(msg.hand_end.hand) };
    updateStandings(msg.hand_end.standings);
  } else if (S.view && S.view.outcome) {
    const standings = S.table.players.map((p) => ({ player: p.player, name: p.name, delta: null, total: p.jade }));
    S.result = { t: "hand_end", result: S.view.outcome, standings, replay: replayLink(S.view.hand_number) };
  }
  if (S.view) S.deadWall = 144 - S.view.tiles_left - drawnTiles(S.view);
  S.arrival = S.view ? [...S.view.concealed] : []; // a reload knows no order of arrival: the server's
  S.claimed = null;
  S.drawnAt = null;
  S.lastDiscard = null;
  if (S.view && S.view.phase === "claim" && S.view.pending_from) {
    const i = SEATS.indexOf(S.view.pending_from);
    S.lastDiscard = { seat: i, index: S.view.discards[i].length - 1 };
  }
}

function drawnTiles(view) {
  let n = 0;
  for (let i = 0; i < 4; i++) {
    n += view.concealed_counts[i] + view.bonus[i].length;
    for (const m of view.melds[i]) n += m.tiles.length;
    n += view.claimed[i].filter((c) => !c).length;
  }
  return n;
}

/** 重播 this hand on the replay page (the invite of a private table kept in the link). */
function replayLink(hand) {
  const q = new URLSearchParams({ hand: String(hand + 1) });
  if (invite) q.set("invite", invite);
  return `/replay/${encodeURIComponent(tableId)}?${q}`;
}

function startHand(msg) {
  let seat = null; // a spectator holds no seat
  for (const [w, p] of Object.entries(msg.seats)) {
    if (p === S.table.you) seat = w;
    S.table.players[p].seat = w;
  }
  S.table.dealer = msg.dealer;
  S.table.hand_number = msg.hand;
  S.table.prevailing = msg.prevailing;
  S.commitment = msg.commitment;
  S.result = null;
  S.resultAt = null;
  S.readySent = false;
  S.prompt = null;
  S.lastDiscard = null;
  S.claimed = null;
  S.drawnAt = null;
  S.arrival = [];
  S.clock = null;
  S.view = {
    seat, prevailing: msg.prevailing, hand_number: msg.hand, phase: "turn", to_act: [], current: "E",
    concealed: [], last_drawn: null, melds: [[], [], [], []], bonus: [[], [], [], []],
    discards: [[], [], [], []], claimed: [[], [], [], []], from_draw: [[], [], [], []], concealed_counts: [0, 0, 0, 0],
    tiles_left: 144 - (S.deadWall ?? S.table.rules.dead_wall ?? 0), pending_tile: null, pending_from: null, outcome: null,
  };
}

function applyEvent(ev) {
  const v = S.view;
  if (!v) return;
  const i = ev.seat ? SEATS.indexOf(ev.seat) : -1;
  const mine = ev.seat === v.seat;
  // a seat's clock runs while it decides: it stops when that seat has played or another has the turn
  if (S.clock && ev.seat && (ev.seat === S.clock.seat ? ev.kind !== "draw" && ev.kind !== "bonus" : ev.kind === "draw" || ev.kind === "claim")) S.clock = null;
  switch (ev.kind) {
    case "deal":
      if (mine && ev.tiles.length) { v.concealed = sortTiles(ev.tiles); S.arrival = [...ev.tiles]; v.concealed_counts[i] = ev.tiles.length; }
      else v.concealed_counts[i] = parseInt(ev.detail, 10) || 13;
      break;
    case "bonus":
      v.bonus[i].push(ev.tile);
      v.concealed_counts[i] -= 1;
      if (mine) { removeOne(v.concealed, ev.tile); removeOne(S.arrival, ev.tile); if (v.last_drawn === ev.tile) v.last_drawn = null; }
      break;
    case "draw":
      v.concealed_counts[i] += 1;
      // a draw after a discard passes the turn; a replacement draw (after a bonus tile or a
      // kong, also during the deal) leaves it where it is
      if (v.phase === "claim") v.current = ev.seat;
      v.phase = "turn"; v.pending_tile = null; v.pending_from = null;
      if (mine && ev.tile) { v.concealed.push(ev.tile); v.concealed = sortTiles(v.concealed); S.arrival.push(ev.tile); v.last_drawn = ev.tile; S.drawnAt = performance.now(); }
      break;
    case "discard":
      v.discards[i].push(ev.tile);
      v.claimed[i].push(false);
      v.from_draw[i].push(ev.detail === "drawn"); // 摸切 (the tile just drawn) or 手切
      v.concealed_counts[i] -= 1;
      v.current = ev.seat;
      v.phase = "claim"; v.pending_tile = ev.tile; v.pending_from = ev.seat;
      S.lastDiscard = { seat: i, index: v.discards[i].length - 1, at: performance.now() };
      if (mine) { removeOne(v.concealed, ev.tile); removeOne(S.arrival, ev.tile); v.last_drawn = null; }
      break;
    case "claim": {
      const src = SEATS.indexOf(ev.source);
      if (src >= 0 && v.claimed[src].length) v.claimed[src][v.claimed[src].length - 1] = true;
      v.melds[i].push(ev.meld);
      S.claimed = { seat: i, index: v.melds[i].length - 1, at: performance.now() };
      v.concealed_counts[i] -= ev.meld.tiles.length - 1;
      v.current = ev.seat;
      v.phase = "turn"; v.pending_tile = null; v.pending_from = null;
      S.lastDiscard = null;
      if (mine) { const rest = [...ev.meld.tiles]; removeOne(rest, ev.tile); for (const x of rest) { removeOne(v.concealed, x); removeOne(S.arrival, x); } v.last_drawn = null; }
      break;
    }
    case "concealed_kong":
      v.melds[i].push({ kind: "concealed_kong", tiles: [ev.tile, ev.tile, ev.tile, ev.tile], source: null, text: "" });
      S.claimed = { seat: i, index: v.melds[i].length - 1, at: performance.now() };
      v.concealed_counts[i] -= 4;
      v.phase = "rob"; v.pending_tile = ev.tile; v.pending_from = ev.seat; // 搶槓 window, if any
      if (mine) { for (let k = 0; k < 4; k++) { removeOne(v.concealed, ev.tile); removeOne(S.arrival, ev.tile); } v.last_drawn = null; }
      break;
    case "added_kong": {
      const m = v.melds[i].find((x) => x.kind === "pung" && x.tiles[0] === ev.tile);
      if (m) { m.kind = "added_kong"; m.tiles = [...m.tiles, ev.tile]; S.claimed = { seat: i, index: v.melds[i].indexOf(m), at: performance.now() }; }
      v.concealed_counts[i] -= 1;
      v.phase = "rob"; v.pending_tile = ev.tile; v.pending_from = ev.seat; // 搶槓 window, if any
      if (mine) { removeOne(v.concealed, ev.tile); removeOne(S.arrival, ev.tile); v.last_drawn = null; }
      break;
    }
    case "win": case "exhaustive_draw": case "hand_end": v.phase = "over"; break;
    default: break;
  }
  v.tiles_left = Math.max(0, 144 - (S.deadWall ?? S.table?.rules?.dead_wall ?? 0) - drawnTiles(v));
}

function updateStandings(standings) {
  if (!standings || !S.table) return;
  for (const s of standings) if (S.table.players[s.player]) S.table.players[s.player].jade = s.total;
}

// -- helpers -------------------------------------------------------------------------------------
const nameAt = (seat) => boardName(S, seat);
function legal(kind) { const p = openPrompt(); return p ? p.legal.filter((x) => x.kind === kind) : []; }
function discardable() { return new Set(legal("discard").map((x) => x.tile)); }
function setStatus(text, cls = "") { const s = $("status"); s.textContent = text; s.className = `status ${cls}`; }

// -- rendering -----------------------------------------------------------------------------------
/** Draw the table once for the messages that arrive together (a discard brings several; a
 * reconnect replays many): at the next frame, or within 100 ms where frames are throttled. */
let renderDue = false;
function render() {
  if (renderDue) return;
  renderDue = true;
  const go = () => { if (renderDue) { renderDue = false; renderNow(); } };
  requestAnimationFrame(go);
  setTimeout(go, 100);
}

function renderNow() {
  renderBoard(S);
  renderHand();
  renderControls();
  renderTitle();
  const box = $("result");
  if ((S.result || S.matchEnd) && !S.resultSeen && !box.hidden) {
    S.resultSeen = true; // a phone shows the board first: bring the result up once
    const target = (S.matchEnd && box.querySelector("[data-testid=match-over]")) || box;
    // at once, not smoothly: a smooth scroll is cancelled by the re-renders that follow a hand's
    // end (a phone then kept the result below the screen, its 下一局 button out of reach)
    target.scrollIntoView({ block: "start", behavior: "auto" });
  }
}

/** The tab's title says when the player must act, or that the table started (a tab in the
 * background shows it). */
const baseTitle = document.title;
function renderTitle() {
  let want = baseTitle;
  if (openPrompt()) want = `● ${t("t_your_turn_title")} · ${baseTitle}`;
  else if (S.startedAt) want = `● ${t("t_table_started")} · ${baseTitle}`;
  if (document.title !== want) document.title = want;
}

// -- 表情 preset emotes (no free text is ever sent or shown) ------------------------------------------
const EMOTES = ["hello", "nice", "thanks", "sorry", "gg", "hurry"];
S.emotes = {}; // player → {id, until}

function showEmote(player, id) {
  if (!EMOTES.includes(id)) return;
  S.emotes[player] = { id, until: performance.now() + 4000 };
  setTimeout(render, 4100);
}

/** The emote a player sent in the last few seconds, as a bubble beside their name. */
S.emoteOf = (player) => {
  const e = S.emotes[player];
  return e && e.until > performance.now() ? t(`emote_${e.id}`) : null;
};

function emoteBar() {
  const bar = el("details", { class: "emotes", "data-testid": "emotes" }, el("summary", { text: t("emotes") }));
  const row = el("div", { class: "actions" });
  for (const id of EMOTES) {
    row.append(el("button", { type: "button", class: "button", "data-emote": id, onclick: (e) => {
      send({ t: "emote", id });
      S.emoteOpen = false;
      e.currentTarget.closest("details").open = false;
    } }, t(`emote_${id}`)));
  }
  bar.append(row);
  return bar;
}

/** A waiting table: its invite link (private), 入座 for a visitor when a seat is free, and the
 * creator's "fill the empty seats with bots". */
function waitingPanel(watching) {
  const out = [];
  const free = S.table.players.filter((p) => p.kind === "empty").length;
  if (invite && S.table.private) {
    const link = `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
    const input = el("input", { type: "text", readonly: true, value: link, "data-testid": "invite-link", "aria-label": t("invite_link"), size: 40 });
    const copy = el("button", { type: "button", class: "button", "data-testid": "copy-invite", onclick: async () => {
      try { await navigator.clipboard.writeText(link); } catch { input.select(); document.execCommand("copy"); }
      copy.textContent = t("rp_copied");
    } }, t("rp_copy"));
    out.push(el("div", { class: "invite" }, el("b", { text: `${t("invite_link")}${t("colon")}` }), input, copy, el("small", { class: "muted", text: t("invite_hint") })));
  }
  if (watching && free > 0) {
    if (document.querySelector("[data-testid=user-name]")) {
      out.push(el("button", { type: "button", class: "button primary", "data-testid": "join-table", onclick: joinTable }, t("join_here")));
    } else {
      out.push(el("a", { class: "button primary", "data-testid": "login-to-join", href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, t("login_to_join")));
    }
  }
  if (!watching && S.table.you === 0 && free > 0) {
    out.push(el("button", { type: "button", class: "button", "data-testid": "fill-bots", onclick: fillBots }, t("fill_bots_now")));
  }
  return out;
}

async function joinTable(e) {
  const button = e && e.currentTarget;
  if (button) button.disabled = true;
  const res = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/join`, invite ? { invite } : {});
  if (res.ok) { location.reload(); return; } // the socket now speaks for the seat
  if (button) button.disabled = false;
  setStatus(t("t_error", { why: apiError(res) }), "error");
}

async function fillBots(e) {
  const button = e && e.currentTarget;
  if (button) button.disabled = true;
  const res = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/bots`, {});
  if (!res.ok) { if (button) button.disabled = false; setStatus(t("t_error", { why: apiError(res) }), "error"); }
}

/** 下一局 / 再玩一場 under a hand's (or the match's) result, for a seated player. */
function resultActions() {
  if (youOf(S) === null) return S.matchEnd ? [] : [el("p", { class: "waiting", text: t("t_next_hand") })];
  const bar = el("div", { class: "actions nextbar" });
  if (S.matchEnd) {
    if (S.table && S.table.kind === "practice") {
      bar.append(el("button", { type: "button", class: "button primary", "data-testid": "play-again", onclick: playAgain }, t("t_play_again")));
    }
    bar.append(el("a", { class: "button", href: "/", "data-testid": "back-lobby" }, t("t_back_lobby")));
    return [bar];
  }
  bar.append(el("button", { type: "button", class: "button primary", "data-testid": "next-hand", disabled: S.readySent, onclick: ready }, t("t_next_hand_btn")));
  bar.append(el("span", { class: "waiting", "data-clock": "next", "data-testid": "next-countdown", "aria-live": "polite" }));
  return [bar];
}

/** The match began: an in-page notice (and the tab's title) for a seated player. */
function tableStarted() {
  if (youOf(S) === null) return;
  S.startedAt = performance.now(); // said until the player's first decision
  setStatus(t("t_table_started"), "notice");
}

function ready() {
  if (!S.result || S.matchEnd || S.readySent || youOf(S) === null) return;
  send({ t: "ready" });
  S.readySent = true;
  render();
}

/** A new practice match with the same ruleset, length and bots. */
async function playAgain(e) {
  const tb = S.table;
  const button = e && e.currentTarget;
  if (button) button.disabled = true;
  const bots = tb.players.filter((p) => p.kind === "bot").map((p) => p.bot);
  const rules = tb.rules.preset ? { preset: tb.rules.preset } : null;
  if (!rules || bots.length !== 3) { location.assign("/practice"); return; }
  const res = await postJSON("/api/tables", { kind: "practice", rules, length: tb.length, bots });
  if (res.ok && res.data && res.data.url) { location.assign(res.data.url); return; }
  if (button) button.disabled = false;
  setStatus(t("create_error", { why: apiError(res) }), "error");
}

/** A REST error in the page's language when its code is known (the server's message is English). */
function apiError(res) {
  const d = res.data && res.data.detail;
  const code = d && typeof d === "object" ? d.code : null;
  if (code && `werr_${code}` in words()) return t(`werr_${code}`);
  return d && typeof d === "object" && d.message ? d.message : `HTTP ${res.status}`;
}

/** 暫停 (practice: the table waits for you) or 離座 (a waiting online table: the seat is freed). */
async function leaveTable(e) {
  const button = e && e.currentTarget;
  if (button) button.disabled = true;
  const res = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/leave`, {});
  if (res.ok) { S.closed = true; if (S.ws) S.ws.close(); location.assign("/"); return; }
  if (button) button.disabled = false;
  setStatus(t("t_error", { why: apiError(res) }), "error");
}

/** The hand as shown: by suit (萬筒索, then honours), or as the tiles came (設定 sort order); the
 * tile just drawn apart at the right either way. */
function handTiles() {
  const v = S.view;
  if (!v) return { main: [], drawn: null };
  const asDrawn = S.prefs.sort === "drawn_last" && sameTiles(S.arrival, v.concealed);
  const main = asDrawn ? [...S.arrival] : sortTiles(v.concealed);
  let drawn = null;
  if (v.last_drawn && main.includes(v.last_drawn)) { removeOne(main, v.last_drawn); drawn = v.last_drawn; }
  return { main, drawn };
}

function sameTiles(a, b) {
  if (!a || a.length !== b.length) return false;
  const x = sortTiles(a); const y = sortTiles(b);
  return x.every((tile, k) => tile === y[k]);
}

function renderHand() {
  const box = $("myhand");
  box.replaceChildren();
  const v = S.view;
  if (!v) return;
  const ok = discardable();
  const { main, drawn } = handTiles();
  const entries = main.map((x, k) => [x, `m:${k}:${x}`]);
  if (drawn) entries.push([drawn, `d:${drawn}`]);
  for (const [x, key] of entries) {
    const img = tileImg(x);
    if (key.startsWith("d:")) animate(img, "anim-draw", S.drawnAt);
    const btn = el("button", { type: "button", class: `tilebtn${key.startsWith("d:") ? " drawn" : ""}`, "data-tile": x, "data-key": key, disabled: !ok.has(x), "aria-pressed": S.selected === key ? "true" : "false" }, img);
    btn.setAttribute("aria-label", img.alt);
    btn.addEventListener("click", () => clickTile(key, x));
    box.append(btn);
  }
}

function clickTile(key, tile) {
  if (!discardable().has(tile)) return;
  if (S.selected === key) { act(`discard ${tile}`); return; }
  S.selected = key; // the first tap raises the tile (打出 then discards it), a second discards it
  renderHand();
  renderControls();
}

const KIND_LABEL = {
  win: "t_win", self_draw: "t_self_draw", pung: "t_pung", kong: "t_kong", chow: "t_chow", pass: "t_pass",
  concealed_kong: "t_concealed_kong", added_kong: "t_added_kong", bonus_win: "t_bonus_win",
};

function actionButton(item, extra = {}) {
  const label = KIND_LABEL[item.kind] ? t(KIND_LABEL[item.kind]) : (lang() === "en" ? item.action : item.zh);
  const btn = el("button", { type: "button", class: `button${item.kind === "win" || item.kind === "self_draw" ? " primary" : ""}`, "data-action": item.action, "data-kind": item.kind, ...extra }, label);
  if (item.kind === "chow" && item.tiles) { const s = el("span", { class: "tiles" }); for (const x of item.tiles) s.append(tileImg(x, "tile-xs")); btn.append(" ", s); }
  else if ((item.kind === "concealed_kong" || item.kind === "added_kong") && item.tile) btn.append(" ", tileImg(item.tile, "tile-xs"));
  btn.addEventListener("click", () => act(item.action));
  return btn;
}

function renderControls() {
  const box = $("controls");
  box.replaceChildren();
  const me = S.table && S.table.players[S.table.you];
  if (me && me.status === "sat_out") {
    box.append(el("span", { class: "error", "data-testid": "sat-out", text: t("t_sat_out_me") }));
    box.append(el("button", { type: "button", class: "button primary", "data-testid": "sit-back", onclick: () => send({ t: "sit_back" }) }, t("t_sit_back")));
  }
  if (S.closed) return;
  const watching = !!S.table && youOf(S) === null;
  const keys = document.querySelector("#table-app .keys");
  if (keys) keys.hidden = watching;
  if (watching) {
    const behind = S.table.watch_delay_ms ? t("t_behind_s", { n: Math.round(S.table.watch_delay_ms / 1000) }) : t("t_behind_turn");
    box.append(el("span", { class: "badge", "data-testid": "watching", text: t("t_watching") }), el("span", { class: "muted", text: behind }));
  }
  const prompt = openPrompt();
  if (prompt) {
    const items = prompt.legal.filter((x) => x.kind !== "discard");
    const chows = items.filter((x) => x.kind === "chow");
    const discards = legal("discard");
    if (S.view && S.view.phase === "rob" && S.view.pending_from && S.view.pending_from !== S.view.seat) {
      box.append(el("span", { "data-testid": "prompt-text", text: t("t_rob_on", { who: nameAt(S.view.pending_from) }) }));
    } else if ((S.view && S.view.phase === "claim") || (prompt.clock && prompt.clock.kind === "claim")) {
      const who = S.view && S.view.pending_from ? nameAt(S.view.pending_from) : (S.lastDiscard ? nameAt(SEATS[S.lastDiscard.seat]) : "");
      const tile = S.view && S.view.pending_tile;
      if (tile) {
        // the prompt names the tile (its name in words, and its picture beside)
        const [before, after] = t("t_claim_tile", { who, tile: "\u0000" }).split("\u0000");
        box.append(el("span", { "data-testid": "prompt-text", class: "prompt-tile" }, before, el("b", { text: tileWord(tile) }), " ", tileImg(tile, "tile-sm"), after));
      } else box.append(el("span", { "data-testid": "prompt-text", text: t("t_claim_on", { who }) }));
    } else if (discards.length) {
      box.append(el("span", { "data-testid": "prompt-text", text: t("t_your_turn") }));
    }
    for (const item of items) {
      if (item.kind === "chow" && chows.length > 1 && !S.chowOpen) continue;
      box.append(actionButton(item, item.kind === "chow" && chows.length > 1 ? { "data-choice": String(chows.indexOf(item) + 1) } : {}));
    }
    if (chows.length > 1 && !S.chowOpen) {
      box.append(el("button", { type: "button", class: "button", "data-kind": "chow-open", onclick: () => { S.chowOpen = true; renderControls(); } }, t("t_chow")));
    } else if (chows.length > 1) {
      box.prepend(el("span", { text: t("t_choose_chow") }));
    }
    if (discards.length) {
      const sel = selectedTile();
      box.append(el("button", { type: "button", class: "button primary", "data-kind": "discard", "data-testid": "discard-button", disabled: !sel, onclick: () => { const s = selectedTile(); if (s) act(`discard ${s}`); } }, t("t_discard")));
    }
    box.append(el("span", { class: "clock", "data-clock": "prompt", "data-testid": "clock" }));
  } else if (S.prompt) {
    box.append(el("span", { class: "waiting", "data-testid": "sent", text: t("t_waiting") }));
  } else if (S.view && S.view.phase !== "over" && !S.result) {
    const who = S.view.current && S.view.current !== S.view.seat ? nameAt(S.view.current) : null;
    box.append(el("span", { class: "waiting", "data-testid": "waiting", text: who ? t("t_waiting_for", { who }) : t("t_waiting") }));
  }
  if (S.table && S.table.hints && prompt) {
    box.append(el("button", { type: "button", class: "button", "data-testid": "hint-button", onclick: () => send({ t: "hint" }) }, t("t_hint")));
  }
  if (S.table && S.table.status === "waiting" && !S.closed) box.append(...waitingPanel(watching));
  if (S.table && !watching && !S.closed && S.table.players.some((p, i) => i !== S.table.you && p.kind === "human")) {
    const bar = emoteBar();
    bar.open = !!S.emoteOpen; // the controls are drawn again on every message: keep it open
    bar.addEventListener("toggle", () => { S.emoteOpen = bar.open; });
    box.append(bar);
  }
  if (S.table && !watching && !S.matchEnd) {
    if (S.table.kind === "practice" && S.table.status !== "finished") {
      box.append(el("button", { type: "button", class: "button quiet", "data-testid": "pause-leave", onclick: leaveTable }, t("t_pause_leave")));
    } else if (S.table.kind === "online" && S.table.status === "waiting") {
      box.append(el("button", { type: "button", class: "button quiet", "data-testid": "leave-table", onclick: leaveTable }, t("t_leave_table")));
    }
  }
  tickClocks();
}

function selectedTile() {
  if (!S.selected) return null;
  const tile = S.selected.split(":").pop();
  return discardable().has(tile) ? tile : null;
}

/** The advised discard becomes the selected tile (raised, and 打出 enabled). */
function selectAdvised() {
  const action = S.hint && S.hint.action && S.hint.action.action;
  const m = action && /^discard (\S+)$/.exec(action);
  if (!m || !discardable().has(m[1])) return;
  const { main, drawn } = handTiles();
  if (drawn === m[1]) S.selected = `d:${drawn}`;
  else { const k = main.indexOf(m[1]); if (k >= 0) S.selected = `m:${k}:${m[1]}`; }
  renderHand();
  renderControls();
}

function renderHint() {
  const box = $("hint");
  const a = S.hint;
  box.hidden = !a;
  box.replaceChildren();
  if (!a) return;
  const action = a.action && a.action.action;
  if (action) {
    const line = el("div", { "data-testid": "hint-action" }, `${t("t_advice")}${t("colon")}`);
    const [kind, arg] = action.split(" ");
    const label = KIND_LABEL[kind] ? t(KIND_LABEL[kind]) : kind === "discard" ? t("t_discard") : action;
    line.append(label);
    if (arg && /^[1-9][mpszfg]$/.test(arg)) line.append(" ", tileImg(arg, "tile-xs"));
    box.append(line);
  }
  box.append(el("p", { "data-testid": "hint-words", text: hintWords(a) }));
  const row = (testid, title, items) => {
    if (!Array.isArray(items) || !items.length) return;
    const w = el("div", { class: "handrow", "data-testid": testid }, el("small", { text: `${t(title)}${t("colon")}` }));
    for (const x of items) {
      const cell = el("span", { class: "tiles" }, tileImg(x.tile, "tile-xs"));
      cell.append(el("small", { text: ` ${t("t_copies_left", { n: x.left })}` }));
      if ("self_drawn" in x) cell.append(el("small", { text: ` ${t("h_wait_fan", { a: x.on_discard ?? "—", b: x.self_drawn ?? "—" })}` }));
      w.append(cell);
    }
    box.append(w);
  };
  row("hint-waits", "h_waits", a.waits);
  row("hint-useful", "h_useful", a.useful);
}

function hintWords(a) {
  const parts = [];
  if (a.shanten < 0) parts.push(t("h_win"));
  else if (a.shanten === 0) parts.push(t("h_ready_after", { n: a.waits.length }));
  else parts.push(t("h_away", { n: a.shanten }));
  if (a.goal && a.goal.fans.length) parts.push(t("h_goal", { fans: a.goal.fans.map(fanLabel).join(t("comma")), n: a.goal.fan_on_discard }));
  if (a.danger) {
    parts.push(t(`h_danger_${a.danger.level}`));
    if (a.danger.liability) parts.push(t("h_liable"));
    if (a.danger.ready.length) parts.push(t("h_ready_seats", { who: a.danger.ready.map(nameAt).join(t("comma")) }));
  }
  if (a.steps_given_up > 0) parts.push(t("h_given_up", { n: a.steps_given_up }));
  return parts.join(t("semi")) + t("stop").trim();
}

/** The header's jade (玉) balance, read again when a hand starts (the buy-in went into escrow)
 * and when the match ends (the escrow was released). */
async function refreshBalance() {
  const node = document.querySelector("[data-testid=user-jade]");
  if (!node || !S.table || !S.table.stake) return;
  try {
    const r = await fetch("/api/me", { credentials: "same-origin" });
    const me = r.ok ? await r.json() : null;
    if (me && typeof me.jade === "number") node.textContent = t("jade_n", { n: me.jade });
  } catch { /* the header keeps the last balance it showed */ }
}

// -- clocks ------------------------------------------------------------------------------------
function tickClocks() {
  const now = performance.now();
  for (const node of document.querySelectorAll("[data-clock]")) {
    let ms = null; let bank = null;
    if (node.dataset.clock === "next") {
      const wait = S.table && S.table.clocks ? S.table.clocks.next_hand_ms : null;
      let text = t("t_next_hand");
      if (S.readySent) text = t("t_ready_sent");
      else if (wait === 0) text = t("t_next_wait");
      else if (wait && S.resultAt !== null) {
        const left = Math.ceil((wait - (now - S.resultAt)) / 1000);
        if (left > 0) text = t("t_next_in", { s: left });
      }
      if (node.textContent !== text) node.textContent = text;
      continue;
    }
    if (node.dataset.clock === "prompt" && S.prompt && S.prompt.clock) {
      ms = S.prompt.clock.ms - (now - S.promptAt); bank = S.prompt.clock.bank_ms;
      if (!S.prompt.clock.ms) { node.textContent = ""; continue; }
    } else if (node.dataset.clock === "seat" && S.clock) {
      ms = S.clock.ms - (now - S.clock.at); bank = S.clock.bank_ms;
      if (!S.clock.ms) { node.textContent = ""; continue; }
    }
    if (ms === null) continue;
    let text;
    if (ms >= 0) text = t("t_clock", { s: Math.ceil(ms / 1000) });
    else text = t("t_bank", { s: Math.max(0, Math.ceil((bank + ms) / 1000)) });
    node.textContent = text;
    node.classList.toggle("low", ms < 3000);
  }
}
setInterval(tickClocks, 250);

// -- keyboard (as in the terminal parlor: ←/→ Enter/Space w p k c x h 1–3) -----------------------
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.toLowerCase();
  if (!openPrompt()) {
    if (key === "h") send({ t: "hint" });
    else if ((key === "n" || (key === "enter" && !e.target.closest("button, a"))) && S.result && !S.matchEnd) { ready(); e.preventDefault(); }
    return;
  }
  const keys = [...document.querySelectorAll("#myhand button.tilebtn:not([disabled])")].map((b) => b.dataset.key);
  if (key === "arrowleft" || key === "arrowright") {
    if (!keys.length) return;
    const at = keys.indexOf(S.selected);
    const next = at < 0 ? (key === "arrowleft" ? keys.length - 1 : 0) : (at + (key === "arrowleft" ? -1 : 1) + keys.length) % keys.length;
    S.selected = keys[next]; renderHand(); renderControls(); e.preventDefault(); return;
  }
  if (key === "enter" || key === " ") { const s = selectedTile(); if (s) { act(`discard ${s}`); e.preventDefault(); } return; }
  const pick = (kinds) => openPrompt().legal.find((x) => kinds.includes(x.kind));
  let item = null;
  if (key === "w") item = pick(["win", "self_draw", "bonus_win"]);
  else if (key === "p") item = pick(["pung"]);
  else if (key === "k") item = pick(["kong", "concealed_kong", "added_kong"]);
  else if (key === "x") item = pick(["pass"]);
  else if (key === "h") { send({ t: "hint" }); return; }
  else if (key === "c") {
    const chows = legal("chow");
    if (chows.length === 1) item = chows[0];
    else if (chows.length > 1) { S.chowOpen = true; renderControls(); return; }
  } else if (["1", "2", "3"].includes(key)) {
    const chows = legal("chow");
    item = chows[Number(key) - 1] || null;
  }
  if (item) { act(item.action); e.preventDefault(); }
});

// -- 設定 settings: kept per account (PUT /api/me/settings), a guest's in this browser; the table
// applies auto_win / auto_pass itself (sent as `prefs` after each hello), the rest is the page's.
const PREFS_KEY = "hkmj_prefs";
S.prefs = { auto_win: false, auto_pass: "none", sort: "suit", large_tiles: false, colour_blind: false, sound: true, animations: true };
const registered = !!document.querySelector("[data-testid=user-name]");

async function loadPrefs() {
  try {
    if (registered) {
      const r = await fetch("/api/me/settings", { credentials: "same-origin" });
      if (r.ok) Object.assign(S.prefs, await r.json());
    } else {
      Object.assign(S.prefs, JSON.parse(localStorage.getItem(PREFS_KEY) || "{}"));
    }
  } catch { /* the defaults */ }
  applyPrefs();
  renderSettings();
  sendPrefs();
}

function sendPrefs() { if (S.table && youOf(S) !== null) send({ t: "prefs", ...S.prefs }); }

function applyPrefs() {
  document.body.classList.toggle("large-tiles", !!S.prefs.large_tiles);
  document.body.classList.toggle("no-anim", !S.prefs.animations);
  document.body.classList.toggle("colour-blind", !!S.prefs.colour_blind);
}

async function savePrefs() {
  applyPrefs();
  sendPrefs();
  const note = $("settings-saved");
  if (registered) {
    const r = await fetch("/api/me/settings", {
      method: "PUT", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
      body: JSON.stringify(S.prefs),
    });
    if (!r.ok) { setStatus(t("t_error", { why: `HTTP ${r.status}` }), "error"); return; }
  } else {
    try { localStorage.setItem(PREFS_KEY, JSON.stringify(S.prefs)); } catch { /* private mode */ }
  }
  if (note) { note.hidden = false; setTimeout(() => { note.hidden = true; }, 1500); }
  render();
}

function renderSettings() {
  const box = $("settings-form");
  box.replaceChildren();
  const check = (key, label) => {
    const input = el("input", { type: "checkbox", "data-pref": key, checked: !!S.prefs[key] });
    input.addEventListener("change", () => { S.prefs[key] = input.checked; savePrefs(); });
    return el("label", { class: "choice" }, input, ` ${t(label)}`);
  };
  const pass = el("select", { "data-pref": "auto_pass" });
  for (const v of ["none", "no_chow", "all"]) pass.append(el("option", { value: v, selected: S.prefs.auto_pass === v, text: t(`set_pass_${v}`) }));
  pass.addEventListener("change", () => { S.prefs.auto_pass = pass.value; savePrefs(); });
  const sort = el("select", { "data-pref": "sort" });
  for (const v of ["suit", "drawn_last"]) sort.append(el("option", { value: v, selected: S.prefs.sort === v, text: t(`set_sort_${v}`) }));
  sort.addEventListener("change", () => { S.prefs.sort = sort.value; S.selected = null; savePrefs(); });
  box.append(
    check("auto_win", "set_auto_win"),
    el("label", { class: "choice" }, `${t("set_auto_pass")}${t("colon")}`, pass),
    el("label", { class: "choice" }, `${t("set_sort")}${t("colon")}`, sort),
    check("large_tiles", "set_large_tiles"),
    check("colour_blind", "set_colour_blind"),
    check("sound", "set_sound"),
    check("animations", "set_animations"),
    el("span", { class: "notice", id: "settings-saved", hidden: true, text: t("set_saved") }),
  );
}

/** A short tone made in the page (Web Audio): your turn or a claim to decide. */
let audio = null;
function beep(gain = 0.08) {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") return; // no sound before the player has touched the page
    const osc = audio.createOscillator();
    const g = audio.createGain();
    osc.frequency.value = 880;
    g.gain.setValueAtTime(gain, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.18);
    osc.connect(g).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.2);
  } catch { /* no audio here */ }
}
document.addEventListener("pointerdown", () => {
  try { audio = audio || new AudioContext(); if (audio.state === "suspended") audio.resume(); } catch { /* no audio */ }
}, { once: true });

loadPrefs();
connect();
render();
