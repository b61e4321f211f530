// 覆盤 the review on the replay page: asks /api/review/{table}/{hand}?seat=S for a finished hand
// (master's rollouts from that seat's view only, docs/review.md; tens of seconds the first time),
// then shows the seat's decisions as a timeline of markers coloured by verdict. A marker moves
// the replay to the decision's step (the frame whose `step` is the decision's `index`) and shows
// what was played, what the review prefers and why — the advisor's words the review JSON carries
// (向聽, waits, route, danger) — and the loss in jade with its standard error.
import { el, t, tileImg } from "./app.js";

const MARK = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", unreviewed: "–" };
const KIND_LABEL = {
  win: "t_win", self_draw: "t_self_draw", pung: "t_pung", kong: "t_kong", chow: "t_chow", pass: "t_pass",
  concealed_kong: "t_concealed_kong", added_kong: "t_added_kong", bonus_win: "t_bonus_win",
  false_win: "rvw_false_win", discard: "t_discard",
};

const $ = (id) => document.getElementById(id);
const fanNames = (() => {
  const node = $("fan-names");
  try { return node ? JSON.parse(node.textContent) : {}; } catch { return {}; }
})();

const fmt = (x) => (x === null || x === undefined ? "∞" : (Math.abs(x) < 0.05 ? 0 : x).toFixed(1));
const signed = (x) => (x === null || x === undefined ? "—" : `${x > 0.05 ? "+" : ""}${fmt(x)}`);

/** An action's words and tiles: 打出 [5p], 上 [3p 4p 5p], 碰, 食糊 … */
export function actionEl(text) {
  const [kind, arg] = (text || "").split(" ");
  const node = el("span", { class: "rv-action" }, KIND_LABEL[kind] ? t(KIND_LABEL[kind]) : kind);
  if (arg && /^[1-9]{1,3}[mpszfg]$/.test(arg)) {
    const suit = arg[arg.length - 1];
    const tiles = el("span", { class: "tiles" });
    for (const d of arg.slice(0, -1)) tiles.append(tileImg(`${d}${suit}`, "tile-xs"));
    node.append(" ", tiles);
  }
  return node;
}

/** The advisor's reading of one action (a `why` entry of the review JSON) in the page's words. */
export function reasonEl(r) {
  const box = el("span", { class: "rv-why" });
  if (!r) return box;
  const parts = [];
  if (r.shanten_now > 0) parts.push(t("rvw_now", { n: r.shanten_now }));
  else if (r.shanten_now === 0 && r.shanten !== -1) parts.push(t("rvw_now_ready"));
  const kind = (r.action || "").split(" ")[0];
  if (r.shanten < 0) parts.push(t("h_win"));
  else if (kind !== "pass") {
    if (r.shanten === 0) parts.push(t("h_ready_after", { n: r.waits.length }));
    else parts.push(t("h_away", { n: r.shanten }));
  }
  if (r.route && r.route.length) {
    const fans = r.route.map((f) => fanNames[f] || f).join(t("comma"));
    parts.push(t("rvw_route", { fans, n: r.distance ?? 0 }));
  }
  if (r.danger) {
    parts.push(t(`h_danger_${r.danger.toLowerCase()}`));
    if (r.risk) parts.push(t("rvw_risk", { x: fmt(r.risk) }));
  }
  box.append(parts.join(t("semi")));
  if (r.shanten === 0 && r.waits && r.waits.length) {
    const waits = el("span", { class: "tiles rv-waits", "data-testid": "review-waits" }, ` ${t("h_waits")}${t("colon")}`);
    for (const w of r.waits) waits.append(tileImg(w, "tile-xs"));
    box.append(waits);
  }
  return box;
}

/**
 * The review panel of the replay page. `ctx`: data() — the replay's current answer (or null);
 * frame() — the frame index shown; go(k) — show frame k; changed() — the URL should say so.
 */
export function createReview(ctx, { open = false, invite = null, tableId }) {
  const V = { on: open, key: null, data: null, pick: null, token: 0, timer: null, cache: new Map() };
  const button = $("review-btn");
  const panel = $("review-panel");

  function seatOf(d) { return d.seat || d.your_seat || "E"; }
  function who(d, seat) { return `${t(`wind_${seat}`)} ${d.table.players[d.seats[seat]]}${seat === d.your_seat ? ` (${t("t_you")})` : ""}`; }

  /** After the replay loaded a hand or a seat: the button, and the review of that hand. */
  function sync() {
    const d = ctx.data();
    button.hidden = !d || !d.over;
    if (!d || !d.over) { panel.hidden = true; return; }
    const seat = seatOf(d);
    button.textContent = t("rvw_button_seat", { who: who(d, seat) });
    button.setAttribute("aria-expanded", V.on ? "true" : "false");
    panel.hidden = !V.on;
    if (!V.on) return;
    const key = `${d.hand}:${seat}`;
    if (key !== V.key) fetchReview(d, seat, key);
  }

  async function fetchReview(d, seat, key) {
    V.key = key; V.data = null; V.pick = null;
    const token = ++V.token;
    $("review-h").textContent = t("rvw_title", { who: who(d, seat) });
    for (const id of ["review-summary", "review-timeline", "review-detail", "review-settings"]) $(id).replaceChildren();
    $("review-nav").hidden = true;
    if (V.cache.has(key)) { show(V.cache.get(key)); return; }
    progress(true);
    const q = new URLSearchParams({ seat });
    if (invite) q.set("invite", invite);
    let res = null;
    try {
      res = await fetch(`/api/review/${encodeURIComponent(tableId)}/${d.hand}?${q}`, { credentials: "same-origin" });
    } catch { /* below: as a failure */ }
    if (token !== V.token) return; // another hand or seat was asked for meanwhile
    progress(false);
    if (!res || !res.ok) { failed(res); return; }
    const data = await res.json();
    if (token !== V.token) return;
    V.cache.set(key, data);
    show(data);
  }

  function progress(on) {
    const box = $("review-progress");
    clearInterval(V.timer);
    box.hidden = !on;
    if (!on) return;
    const started = performance.now();
    const text = $("review-progress-text");
    const tick = () => { text.textContent = t("rvw_running", { s: Math.floor((performance.now() - started) / 1000) }); };
    tick();
    V.timer = setInterval(tick, 1000);
  }

  async function failed(res) {
    let why = t("t_reconnecting");
    let code = null;
    if (res) {
      try { const body = await res.json(); code = body.detail.code; why = body.detail.message || why; } catch { /* keep it */ }
    }
    const line = el("p", { class: "error", "data-testid": "review-error", text: code === "busy" ? t("rvw_busy") : t("rvw_failed", { why: code && code !== "busy" ? t(`rp_err_${code}`) : why }) });
    const retry = el("button", { type: "button", class: "button rv-tap", "data-testid": "review-retry", onclick: () => { V.key = null; sync(); } }, t("rvw_retry"));
    $("review-summary").replaceChildren(line, retry);
  }

  function show(data) {
    V.data = data;
    const decisions = data.decisions;
    const acc = data.accuracy === null ? "—" : `${Math.round(data.accuracy * 100)}%`;
    const v = data.verdicts;
    $("review-summary").replaceChildren(
      el("strong", { "data-testid": "review-accuracy", text: t("rvw_summary", { a: acc, n: data.reviewed }) }),
      el("span", { class: "sep", text: " · " }),
      el("span", { "data-testid": "review-loss", text: t("rvw_total_loss", { l: fmt(data.loss), se: fmt(data.loss_se) }) }),
      el("br"),
      el("small", { class: "muted", text: t("rvw_counts", { g: v.good, i: v.inaccuracy, m: v.mistake, b: v.blunder }) }),
    );
    $("review-settings").textContent = t("rvw_settings", { n: data.budget, z: data.z, f: data.forced });
    const line = $("review-timeline");
    line.setAttribute("aria-label", t("rvw_timeline", { who: $("review-h").textContent }));
    line.replaceChildren();
    if (!decisions.length) { line.append(el("p", { class: "muted", text: t("rvw_none") })); return; }
    decisions.forEach((dec, i) => {
      line.append(el("button", {
        type: "button", class: `rv-mk v-${dec.verdict}`, "data-testid": `review-marker-${i + 1}`,
        "data-verdict": dec.verdict, "data-index": String(dec.index), "aria-pressed": "false",
        "aria-label": t("rvw_marker", { k: i + 1, v: t(`rvw_v_${dec.verdict}`) }),
        title: t("rvw_marker", { k: i + 1, v: t(`rvw_v_${dec.verdict}`) }),
        onclick: () => pick(i, true),
      }, el("small", { text: String(i + 1) }), el("span", { "aria-hidden": "true", text: MARK[dec.verdict] || "" })));
    });
    $("review-nav").hidden = false;
    $("review-detail").replaceChildren(el("p", { class: "muted", "data-testid": "review-hint", text: t("rvw_pick") }));
    follow();
  }

  /** Show decision i (0-based) and, with `jump`, move the replay to its step. */
  function pick(i, jump) {
    if (!V.data || i < 0 || i >= V.data.decisions.length) return;
    V.pick = i;
    const dec = V.data.decisions[i];
    for (const b of $("review-timeline").querySelectorAll(".rv-mk")) b.setAttribute("aria-pressed", b.dataset.testid === `review-marker-${i + 1}` ? "true" : "false");
    $("review-prev").disabled = i === 0;
    $("review-next").disabled = i === V.data.decisions.length - 1;
    detail(dec, i);
    if (jump) {
      const frames = ctx.data().frames;
      let k = 0;
      frames.forEach((f, j) => { if (f.step !== undefined && f.step <= dec.index) k = j; });
      ctx.go(k);
    }
  }

  function detail(dec, i) {
    const box = $("review-detail");
    const why = (action) => reasonEl((dec.why || []).find((r) => r.action === action));
    const verdict = el("span", { class: `rv-badge v-${dec.verdict}`, "data-testid": "review-verdict", text: `${MARK[dec.verdict]} ${t(`rvw_v_${dec.verdict}`)}` });
    const rows = [
      el("h3", {}, `${t("rvw_detail_head", { k: i + 1, n: dec.tiles_left })} `, verdict),
      el("p", { "data-testid": "review-played" }, el("strong", { text: `${t("rvw_played")}${t("colon")}` }), actionEl(dec.played), el("br"), why(dec.played)),
    ];
    if (dec.verdict === "unreviewed") {
      rows.push(el("p", { class: "muted", text: t("rvw_not_reviewed") }));
    } else if (dec.best !== dec.played) {
      rows.push(el("p", { "data-testid": "review-best" }, el("strong", { text: `${t("rvw_best")}${t("colon")}` }), actionEl(dec.best), el("br"), why(dec.best)));
      const loss = el("p", { class: "rv-loss", "data-testid": "review-loss-one", text: t("rvw_loss", { l: fmt(dec.loss), se: fmt(dec.se), n: dec.samples }) });
      if (dec.verdict === "good") loss.append(` — ${t("rvw_noise")}`);
      rows.push(loss);
    } else {
      rows.push(el("p", { "data-testid": "review-best" }, el("strong", { text: t("rvw_agrees") })));
    }
    const others = (dec.candidates || []).filter((c) => c.action !== dec.played);
    if (others.length && dec.verdict !== "unreviewed") {
      const ul = el("ul", { class: "rv-cands", "data-testid": "review-candidates" });
      for (const c of others) ul.append(el("li", {}, actionEl(c.action), ` ${t("rvw_cand_diff", { d: signed(c.diff), se: fmt(c.se) })}`));
      rows.push(el("details", {}, el("summary", { text: t("rvw_candidates") }), ul));
    }
    box.replaceChildren(...rows);
  }

  /** The replay moved: the decision at this step, if any, becomes the one shown. */
  function follow() {
    const d = ctx.data();
    if (!V.data || !d || V.key !== `${d.hand}:${seatOf(d)}`) return;
    const frame = d.frames[ctx.frame()];
    if (!frame || frame.step === undefined) return;
    const i = V.data.decisions.findIndex((dec) => dec.index === frame.step);
    if (i >= 0 && i !== V.pick) pick(i, false);
  }

  button.addEventListener("click", () => {
    V.on = !V.on;
    if (!V.on) { V.token++; progress(false); V.key = null; }
    sync();
    ctx.changed();
    if (V.on) panel.scrollIntoView({ block: "nearest" });
  });
  $("review-close").addEventListener("click", () => button.click());
  $("review-prev").addEventListener("click", () => pick(V.pick === null ? 0 : V.pick - 1, true));
  $("review-next").addEventListener("click", () => pick(V.pick === null ? 0 : V.pick + 1, true));

  return { sync, follow, open: () => V.on };
}
