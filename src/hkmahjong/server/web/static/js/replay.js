// 牌譜重播 the replay viewer: steps through one hand's frames from /api/replay/{table}/{hand}
// (views built by the engine: a seat's PlayerView, or all hands open once the hand is over), drawn
// with the table's own board (board.js); the wall check runs here in the browser (wall.js).
// URL: /replay/{table}?hand=N (1-based) &seat=E|S|W|N|open &step=K (a frame of that view) &invite=…
// &review=1 (覆盤 open: review.js).
import { el, t, tileImg } from "./app.js";
import { SEATS, nameAt, renderBoard } from "./board.js";
import { createReview } from "./review.js";
import { checkWall, hasSubtle } from "./wall.js";

const $ = (id) => document.getElementById(id);
const root = $("replay-app");
const tableId = root.dataset.tableId;
const params = new URLSearchParams(location.search);
const R = {
  data: null, k: 0, invite: params.get("invite"), busy: false,
};
const review = createReview(
  { data: () => R.data, frame: () => R.k, go: (k) => go(k), changed: () => { if (R.data) syncUrl(); } },
  { open: params.get("review") === "1", invite: R.invite, tableId },
);

// -- loading ---------------------------------------------------------------------------------------
async function load(hand, seat, { step = null, at = null } = {}) {
  const q = new URLSearchParams();
  if (seat) q.set("seat", seat);
  if (R.invite) q.set("invite", R.invite);
  R.busy = true;
  let res;
  try {
    res = await fetch(`/api/replay/${encodeURIComponent(tableId)}/${hand}?${q}`, { credentials: "same-origin" });
  } catch {
    R.busy = false;
    setStatus(t("t_reconnecting"), "error");
    return;
  }
  R.busy = false;
  if (!res.ok) {
    let code = "not_found";
    try { code = (await res.json()).detail.code || code; } catch { /* keep not_found */ }
    setStatus(t(`rp_err_${code}`), "error");
    return;
  }
  setStatus("");
  const data = await res.json();
  R.data = data;
  R.k = 0;
  if (!data.frames.length) {
    // a hand being played shows its player only up to where the latest discard's turn began:
    // before the first discard there is nothing yet
    renderControls();
    renderWallCheck();
    for (const id of ["first", "prev", "next", "last", "scrub"]) $(id).disabled = true;
    $("step-no").textContent = "";
    $("caption").textContent = "";
    setStatus(t("rp_nothing_yet"));
    review.sync();
    return;
  }
  const last = data.frames.length - 1;
  if (at !== null) {
    let k = 0;
    data.frames.forEach((f, i) => { if (f.at <= at) k = i; });
    R.k = k;
  } else if (step !== null) {
    R.k = Math.max(0, Math.min(last, step));
  } else {
    R.k = 0;
  }
  renderControls();
  renderWallCheck();
  show();
  review.sync();
}

function seatParam() { return R.data ? (R.data.seat || "open") : null; }

// -- the board for frame k -----------------------------------------------------------------------
function seatOf(d, player) {
  for (const [w, p] of Object.entries(d.seats)) if (p === player) return w;
  return null;
}

function boardState() {
  const d = R.data;
  const frame = d.frames[R.k];
  const view = frame.view;
  const players = d.table.players.map((name, p) => ({ player: p, name, seat: seatOf(d, p), kind: "human", status: "connected" }));
  const rules = { name: d.table.rules.name, preset: d.table.rules.name, digest: d.table.rules.digest };
  const table = { players, dealer: d.dealer, hand_number: d.hand, prevailing: d.prevailing, rules, you: d.you, status: "replay" };
  const hands = view.hands || (view.seat ? { [view.seat]: view.concealed } : null);
  const drawn = view.last_drawn ? { seat: view.seat || view.current, tile: view.last_drawn } : null;
  let lastDiscard = null;
  for (const e of frame.events) {
    if (e.kind === "discard") { const i = SEATS.indexOf(e.seat); lastDiscard = { seat: i, index: view.discards[i].length - 1 }; }
    else if (e.kind === "claim") lastDiscard = null;
  }
  const lastFrame = R.k === d.frames.length - 1;
  const result = lastFrame && view.outcome ? { result: view.outcome, hands: null, seed: d.seed, standings: null } : null;
  return { table, view, lastDiscard, clock: null, result, matchEnd: null, hands, drawn, bottom: d.your_seat || "E", replay: true };
}

function show() {
  const d = R.data;
  if (!d) return;
  const B = boardState();
  renderBoard(B);
  const n = d.frames.length;
  $("scrub").disabled = false;
  $("scrub").max = String(n - 1);
  $("scrub").value = String(R.k);
  $("step-no").textContent = t("rp_step", { k: R.k + 1, n });
  $("first").disabled = $("prev").disabled = R.k === 0;
  $("next").disabled = $("last").disabled = R.k === n - 1;
  renderCaption(B);
  syncUrl();
  review.follow();
}

function go(k) {
  if (!R.data || !R.data.frames.length) return;
  const n = R.data.frames.length;
  const next = Math.max(0, Math.min(n - 1, k));
  if (next === R.k) return;
  R.k = next;
  show();
}

// -- what happened in this frame -----------------------------------------------------------------
const CLAIM_WORD = { chow: "t_chow", pung: "t_pung", kong: "t_kong" };

function renderCaption(B) {
  const box = $("caption");
  box.replaceChildren();
  const d = R.data;
  const frame = d.frames[R.k];
  const parts = [];
  const who = (seat) => `${t(`wind_${seat}`)} ${nameAt(B, seat)}`;
  if (R.k === 0) {
    const m = /dice (\d)\+(\d)\+(\d)=(\d+)/.exec(d.start || "");
    parts.push(el("span", { text: t("rp_start") }));
    if (m) parts.push(el("span", { "data-testid": "dice", text: t("w_dice", { a: m[1], b: m[2], c: m[3], n: m[4] }) }));
  }
  const tiles = (...codes) => { const s = el("span", { class: "tiles" }); for (const c of codes) if (c) s.append(tileImg(c, "tile-xs")); return s; };
  for (const e of frame.events) {
    if (R.k === 0 && (e.kind === "deal" || e.kind === "hand_start")) continue;
    if (e.kind === "discard") parts.push(el("span", {}, t("rp_discards", { who: who(e.seat) }), " ", tiles(e.tile)));
    else if (e.kind === "claim") parts.push(el("span", {}, t("rp_claims", { who: who(e.seat), what: t(CLAIM_WORD[e.meld.kind] || "t_kong") }), " ", tiles(...e.meld.tiles)));
    else if (e.kind === "concealed_kong") parts.push(el("span", {}, `${who(e.seat)} ${t("t_concealed_kong")} `, tiles(e.tile)));
    else if (e.kind === "added_kong") parts.push(el("span", {}, `${who(e.seat)} ${t("t_added_kong")} `, tiles(e.tile)));
    else if (e.kind === "bonus") parts.push(el("span", {}, t("rp_bonus", { who: who(e.seat) }), " ", tiles(e.tile)));
    else if (e.kind === "win") parts.push(el("span", { class: "win", text: t("t_wins", { who: who(e.seat) }) }));
    else if (e.kind === "exhaustive_draw") parts.push(el("span", { text: t("rp_exhausted") }));
    else if (e.kind === "draw" && e.tile && R.k > 0) parts.push(el("span", {}, t("rp_draws", { who: who(e.seat) }), " ", tiles(e.tile)));
  }
  if (!parts.length && frame.actor && frame.actions.includes("pass")) parts.push(el("span", { text: t("rp_passes", { who: who(frame.actor) }) }));
  parts.forEach((p, i) => { if (i) box.append(el("span", { class: "sep", text: " · " })); box.append(p); });
}

// -- hand and seat choice, sharing -------------------------------------------------------------------
function renderControls() {
  const d = R.data;
  const select = $("hand-select");
  select.replaceChildren();
  for (const h of d.hands) {
    let status = t("rp_hand_live");
    if (h.over) status = h.drawn ? t("rp_hand_drawn") : t("rp_hand_won", { who: h.winners.map((w) => t(`wind_${w}`)).join(t("comma")) || "—" });
    const label = `${t("rp_hand_item", { n: h.hand + 1, w: t(`wind_${h.prevailing}`) })} · ${status}`;
    select.append(el("option", { value: String(h.hand), selected: h.hand === d.hand, text: label }));
  }
  const pick = $("seat-pick");
  pick.replaceChildren(el("span", { class: "muted", text: `${t("rp_view")}${t("colon")}` }));
  const players = d.table.players;
  for (const w of SEATS) {
    const allowed = d.over || w === d.your_seat;
    const mine = w === d.your_seat ? ` (${t("t_you")})` : "";
    pick.append(el("button", {
      type: "button", class: "button seatbtn", "data-seat": w, "data-testid": `seat-${w}`,
      "aria-pressed": d.seat === w ? "true" : "false", disabled: !allowed,
      onclick: () => load(d.hand, w, { at: d.frames.length ? d.frames[R.k].at : null }),
    }, `${t(`wind_${w}`)} ${players[d.seats[w]]}${mine}`));
  }
  pick.append(el("button", {
    type: "button", class: "button seatbtn", "data-seat": "open", "data-testid": "seat-open",
    "aria-pressed": d.seat === null ? "true" : "false", disabled: !d.over,
    onclick: () => load(d.hand, "open", { at: d.frames.length ? d.frames[R.k].at : null }),
  }, t("rp_open")));
  const note = $("note");
  note.hidden = d.over;
  note.textContent = d.over ? "" : t("rp_playing_note");
  const q = new URLSearchParams({ download: "1" });
  if (R.invite) q.set("invite", R.invite);
  $("download").href = `/api/tables/${encodeURIComponent(tableId)}/record?${q}`;
}

function syncUrl() {
  const q = new URLSearchParams({ hand: String(R.data.hand + 1), seat: seatParam(), step: String(R.k) });
  if (R.invite) q.set("invite", R.invite);
  if (review.open()) q.set("review", "1");
  const url = `${location.pathname}?${q}`;
  history.replaceState(null, "", url);
  $("share-link").value = `${location.origin}${url}`;
}

$("hand-select").addEventListener("change", (e) => load(Number(e.target.value), null));
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(R.k - 1));
$("next").addEventListener("click", () => go(R.k + 1));
$("last").addEventListener("click", () => go(Infinity));
$("scrub").addEventListener("input", (e) => go(Number(e.target.value)));
$("copy").addEventListener("click", async () => {
  const input = $("share-link");
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
  $("copy").textContent = t("rp_copied");
  setTimeout(() => { $("copy").textContent = t("rp_copy"); }, 1500);
});
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const moves = { ArrowLeft: () => go(R.k - 1), ArrowRight: () => go(R.k + 1), Home: () => go(0), End: () => go(Infinity) };
  if (moves[e.key]) { moves[e.key](); e.preventDefault(); }
});

// -- 驗牌牆 the wall check ----------------------------------------------------------------------------
function renderWallCheck() {
  const d = R.data;
  $("commitment").textContent = d.commitment;
  const input = $("seed-input");
  input.value = d.seed || "";
  input.disabled = !d.over;
  $("check").disabled = !d.over;
  $("wall-details").hidden = true;
  const list = $("checks");
  list.replaceChildren();
  if (!d.over) { list.append(el("li", { class: "muted", "data-testid": "check-pending", text: t("w_pending") })); return; }
  runCheck();
}

async function runCheck() {
  const d = R.data;
  const list = $("checks");
  const res = await checkWall({
    seedHex: $("seed-input").value, commitment: d.commitment, deal: d.deal, bonusTiles: d.bonus_tiles,
    hand: d.hand, matchSeedHex: d.match_seed, matchCommitment: d.match_commitment,
  });
  list.replaceChildren();
  const line = (ok, testid, yes, no) => list.append(el("li", { class: ok ? "ok" : "bad", "data-testid": testid, "data-ok": ok ? "1" : "0", text: t(ok ? yes : no) }));
  line(res.seedOk, "seed-check", "w_ok", "w_bad");
  if (res.seedOk && res.dealOk !== null) line(res.dealOk, "deal-check", "w_deal_ok", "w_deal_bad");
  if (res.seedOk && res.matchOk !== null) line(res.matchOk, "match-check", "w_match_ok", "w_match_bad");
  if (res.dice) list.append(el("li", { class: "muted", text: t("w_dice", { a: res.dice[0], b: res.dice[1], c: res.dice[2], n: res.dice[0] + res.dice[1] + res.dice[2] }) }));
  if (!hasSubtle()) list.append(el("li", { class: "muted", text: t("w_no_crypto") }));
  const details = $("wall-details");
  const box = $("wall-tiles");
  box.replaceChildren();
  details.hidden = !res.wall;
  if (res.wall) for (const c of res.wall) box.append(tileImg(c, "tile-xs"));
}
$("check").addEventListener("click", runCheck);
$("seed-input").addEventListener("keydown", (e) => { if (e.key === "Enter") runCheck(); });

function setStatus(text, cls = "") { const s = $("status"); s.textContent = text; s.className = `status ${cls}`; }

const wantSeat = params.get("seat");
const wantStep = params.get("step");
load(Math.max(0, (Number(params.get("hand")) || 1) - 1), wantSeat, { step: wantStep === null ? null : Number(wantStep) });
