// 牌枱 the board: the four seats (melds, bonus tiles, rivers), the centre and a hand's result,
// drawn from a view — a seat's PlayerView, a spectator's public view or a replay frame. Shared by
// the table (table.js) and the replay viewer (replay.js). Text is set with textContent, never as HTML.
//
// Every function takes the board's state B: {table, view, lastDiscard, clock, result, matchEnd,
// hands, drawn, bottom, replay}. `table` is the protocol's table object (players, dealer, you …);
// `hands` (seat → tiles) shows concealed hands face up (a replay); `bottom` the seat drawn at the
// bottom when the view has none (a spectator, all hands open).
import { el, lang, t, tileImg, words } from "./app.js";

export const SEATS = "ESWN";
const ORDER = "mpszfg";
const tileKey = (c) => ORDER.indexOf(c[1]) * 10 + Number(c[0]);
export const sortTiles = (a) => [...a].sort((x, y) => tileKey(x) - tileKey(y));
export const removeOne = (arr, tile) => { const i = arr.indexOf(tile); if (i >= 0) arr.splice(i, 1); return i >= 0; };
export const REL_BOX = ["seat-me", "seat-right", "seat-across", "seat-left"];
const REL_KEY = ["t_you", "t_right", "t_across", "t_left"];
// 繁 → 简 for the few characters of the engine's payment reasons (their zh text is 繁體).
const T2S = { 銃: "铳", 槓: "杠", 搶: "抢", 開: "开", 當: "当", 獨: "独", 數: "数", 詐: "诈", 賠: "赔", 結: "结", 賭: "赌", 為: "为", 餘: "余", 產: "产", 糊: "胡", 莊: "庄", 門: "门", 風: "风", 東: "东", 圈: "圈", 連: "连", 對: "对", 錯: "错", 種: "种", 後: "后", 將: "将", 邊: "边", 個: "个", 隻: "只", 額: "额", 費: "费", 際: "际", 應: "应", 價: "价", 筆: "笔", 雞: "鸡", 響: "响" };
export const toHans = (s) => s.replace(/[\u4e00-\u9fff]/g, (c) => T2S[c] ?? c);
const $ = (id) => document.getElementById(id);

// -- who is where ------------------------------------------------------------------------------
/** The viewer's player number, or null (a spectator, or someone looking at a replay). */
/** A ruleset by its name in the page's language (a preset), else its own name. */
export function rulesLabel(rules) {
  const key = `preset_${rules.preset || rules.name}`;
  return key in words() ? t(key) : (rules.preset || rules.name);
}

export function youOf(B) {
  const you = B.table ? B.table.you : null;
  return typeof you === "number" ? you : null;
}
export function mySeat(B) {
  if (B.view && B.view.seat) return B.view.seat;
  const you = youOf(B);
  const me = you !== null && B.table ? B.table.players[you] : null;
  if (me && !me.seat && beforeMatch(B)) return SEATS[me.player];
  return (me && me.seat) || B.bottom || "E";
}
/** Before the match nobody has a seat wind yet: the board shows the players by number (E = 0). */
function beforeMatch(B) { return !!B.table && B.table.players.every((p) => !p.seat); }
export function playerAt(B, seat) {
  if (!B.table) return null;
  if (beforeMatch(B)) return B.table.players[SEATS.indexOf(seat)] || null;
  return B.table.players.find((p) => p.seat === seat) || null;
}
export function isYou(B, seat) { const p = playerAt(B, seat); return !!p && p.player === youOf(B); }
export function nameAt(B, seat) {
  const p = playerAt(B, seat);
  if (!p) return t(`wind_${seat}`);
  return isYou(B, seat) ? t("t_you") : (p.name || t("st_empty"));
}
export function fanLabel(item) {
  const l = lang();
  return l === "en" ? item.en : l === "zh-Hans" ? (item.zh_hans || toHans(item.zh)) : item.zh;
}
function fanOther(item) { return lang() === "en" ? item.zh : item.en; }
export function reason(p) { const l = lang(); return l === "en" ? p.en : l === "zh-Hans" ? toHans(p.zh) : p.zh; }
export function signed(n) { return n > 0 ? `+${n}` : String(n); }

// -- the board -----------------------------------------------------------------------------------
export function renderBoard(B) {
  renderCenter(B);
  for (let r = 0; r < 4; r++) renderSeat(B, r);
  renderResult(B);
}

export function renderCenter(B) {
  const c = $("center");
  c.replaceChildren();
  if (!B.table) { c.append(el("span", { class: "waiting", text: t("t_waiting") })); return; }
  const tb = B.table;
  const dealer = tb.players[tb.dealer];
  c.append(
    el("span", { "data-testid": "round", text: t("t_round", { w: t(`wind_${tb.prevailing}`) }) }),
    el("span", { "data-testid": "hand-no", text: t("t_hand_no", { n: tb.hand_number + 1 }) }),
    el("span", { text: `${t("t_dealer")}${t("colon")}${dealer && dealer.seat ? nameAt(B, dealer.seat) : "—"}` }),
  );
  if (B.view) c.append(el("span", { "data-testid": "wall", text: t("t_wall", { n: B.view.tiles_left }) }));
  c.append(el("span", { class: "muted", title: tb.rules.digest, "data-testid": "rules-name", text: `${t("preset")}${t("colon")}${rulesLabel(tb.rules)}` }));
  if (tb.stake) c.append(el("span", { "data-testid": "stake", text: t("t_stake", { n: tb.stake }) }));
  if (tb.fee) c.append(el("span", { "data-testid": "fee", text: t("t_fee", { n: tb.fee }) }));
  if (tb.status === "paused") c.append(el("span", { class: "badge", text: t("t_paused") }));
  if (tb.status === "waiting") c.append(el("span", { class: "waiting", text: t("t_waiting_players") }));
  if (tb.watchers) c.append(el("span", { class: "muted", "data-testid": "watchers", text: t("t_watchers", { n: tb.watchers }) }));
  // the table page draws the centre as a square: the lines above in its middle, and each seat's
  // wind on that seat's side, turned to it (the dealer's in gold, the seat to act lit)
  const info = el("div", { class: "center-info" }, ...c.childNodes);
  c.append(info);
  if (!tb.players.some((p) => p.seat)) return;
  const v = B.view;
  for (let rel = 0; rel < 4; rel++) {
    const seat = SEATS[(SEATS.indexOf(mySeat(B)) + rel) % 4];
    const p = playerAt(B, seat);
    const cls = ["cwind", `cwind-${rel}`];
    if (p && tb.dealer === p.player) cls.push("dealer");
    if (v && v.phase !== "over" && v.current === seat) cls.push("to-act");
    c.append(el("span", { class: cls.join(" "), "aria-hidden": "true", text: t(`wind_${seat}`).slice(0, 1) }));
  }
}

/** Mark `node` as playing animation `cls` that began at `at` (performance.now()): a node drawn
 * again later carries on where the first stopped (a negative delay), never starts it over. */
export function animate(node, cls, at) {
  if (typeof at !== "number") return node;
  const ago = performance.now() - at; // long over: the end state, as without the class
  node.classList.add(cls);
  node.style.animationDelay = `${-Math.round(ago)}ms`;
  return node;
}

export function renderSeat(B, rel) {
  const box = $(REL_BOX[rel]);
  box.replaceChildren();
  if (!B.table) return;
  const seat = SEATS[(SEATS.indexOf(mySeat(B)) + rel) % 4];
  const i = SEATS.indexOf(seat);
  const p = playerAt(B, seat);
  const v = B.view;
  box.dataset.seat = seat;
  box.classList.toggle("to-act", !!v && v.phase !== "over" && v.current === seat);
  const meta = el("div", { class: "meta" },
    el("span", { class: "wind", text: t(`wind_${seat}`) }),
    el("span", { class: "name", "data-testid": `name-${rel}`, text: p ? (p.name || t("st_empty")) : "—" }),
  );
  if (rel !== 0 || isYou(B, seat)) meta.append(el("span", { class: "rel muted", text: t(REL_KEY[rel]) }));
  if (p && B.table.dealer === p.player) meta.append(el("span", { class: "badge", text: t("t_dealer") }));
  if (p && p.kind !== "empty") {
    if (typeof p.jade === "number") meta.append(el("span", { class: "jade", "data-testid": `jade-${rel}`, text: t("jade_n", { n: signed(p.jade) }) }));
    if (p.status && p.status !== "connected") meta.append(el("span", { class: `badge ${p.status === "away" || p.status === "sat_out" ? "away" : ""}`, "data-testid": `status-${rel}`, text: t(`st_${p.status}`) }));
  }
  if (v) meta.append(el("span", { class: "muted", text: t("t_tiles", { n: v.concealed_counts[i] }) }));
  const said = p && B.emoteOf ? B.emoteOf(p.player) : null;
  if (said) meta.append(el("span", { class: "bubble", "data-testid": `emote-${rel}`, role: "status", text: said }));
  if (B.clock && B.clock.seat === seat && v && v.phase !== "over") {
    meta.append(el("span", { class: "clock", "data-clock": "seat", text: "" }));
  }
  box.append(meta);
  if (!v) return;
  const shown = B.hands && B.hands[seat];
  if (shown && shown.length) {
    const hand = el("div", { class: "tiles openhand", "data-testid": `hand-${rel}` });
    const rest = sortTiles(shown);
    const drawn = B.drawn && B.drawn.seat === seat && rest.includes(B.drawn.tile) ? B.drawn.tile : null;
    if (drawn) removeOne(rest, drawn);
    for (const x of rest) hand.append(tileImg(x, "tile-sm"));
    if (drawn) { const d = tileImg(drawn, "tile-sm"); d.classList.add("drawn"); hand.append(d); }
    box.append(hand);
  }
  const melds = el("div", { class: "melds", "data-testid": `melds-${rel}` });
  const about = B.promptAbout ? B.promptAbout() : null; // the tile an open prompt is about
  v.melds[i].forEach((m, k) => {
    const node = meldEl(m);
    if (B.claimed && B.claimed.seat === i && B.claimed.index === k) animate(node, "anim-claim", B.claimed.at);
    if (about && about.rob && about.seat === i && m.tiles.includes(about.tile) && m.kind !== "chow") node.classList.add("prompt");
    melds.append(node);
  });
  if (v.bonus[i].length) {
    const b = el("span", { class: "tiles bonusrow", "data-testid": `bonus-${rel}` });
    for (const x of v.bonus[i]) b.append(tileImg(x, "tile-xs"));
    melds.append(b);
  }
  box.append(melds);
  const river = el("div", { class: "river", "data-testid": `river-${rel}` });
  v.discards[i].forEach((x, k) => {
    const img = tileImg(x);
    if (v.claimed[i][k]) img.classList.add("claimed");
    if (B.lastDiscard && B.lastDiscard.seat === i && B.lastDiscard.index === k && !v.claimed[i][k]) {
      img.classList.add("last");
      animate(img, "anim-discard", B.lastDiscard.at);
      if (about && !about.rob && about.seat === i) img.classList.add("prompt");
    }
    river.append(img);
  });
  box.append(river);
}

export function meldEl(m) {
  const box = el("span", { class: `meld${m.kind === "concealed_kong" ? " meld-concealed" : ""}`, "data-kind": m.kind });
  m.tiles.forEach((x, k) => {
    const hidden = m.kind === "concealed_kong" && (k === 0 || k === 3);
    const img = tileImg(hidden ? "back" : x, "tile-xs");
    if (hidden) img.alt = `${t("t_concealed_kong")} ${img.alt}`;
    box.append(img);
  });
  return box;
}

// -- a hand's result and the match's ---------------------------------------------------------------
export function renderResult(B) {
  const box = $("result");
  box.replaceChildren();
  const r = B.result;
  const m = B.matchEnd;
  box.hidden = !r && !m;
  if (r) {
    const res = r.result;
    box.append(el("h2", { text: res.drawn ? t("t_drawn_hand") : t("t_hand_over") }));
    if (!m && B.resultActions) box.append(...B.resultActions());
    for (const w of res.wins) {
      const sec = animate(el("section", { class: "win", "data-testid": "win" }), "anim-win", r.at);
      const robbed = w.score.items.some((x) => x.id === "ROBBING_KONG");
      const how = w.self_drawn ? t("t_self_drawn")
        : isYou(B, w.discarder) ? t(robbed ? "t_robbing_you" : "t_on_your_discard")
        : t(robbed ? "t_robbing_of" : "t_on_discard_of", { who: nameAt(B, w.discarder) });
      const winner = isYou(B, w.seat) ? t("t_you_win") : t("t_wins", { who: nameAt(B, w.seat) });
      sec.append(el("h3", { text: `${winner} · ${how}` }));
      const row = el("div", { class: "handrow" });
      const conc = [...w.concealed];
      if (w.winning_tile) removeOne(conc, w.winning_tile);
      const s1 = el("span", { class: "tiles" });
      for (const x of sortTiles(conc)) s1.append(tileImg(x, "tile-sm"));
      row.append(s1);
      if (w.winning_tile) { const s2 = el("span", { class: "tiles winning" }); s2.append(tileImg(w.winning_tile, "tile-sm")); row.append(s2); }
      for (const mm of w.melds) row.append(meldEl(mm));
      if (w.bonus.length) { const b = el("span", { class: "tiles bonus" }); for (const x of w.bonus) b.append(tileImg(x, "tile-xs")); row.append(b); }
      sec.append(row);
      const ul = el("ul", { class: "breakdown", "data-testid": "breakdown" });
      for (const item of w.score.items) {
        const other = el("small", { class: "muted", lang: lang() === "en" ? "zh-Hant" : "en", text: ` ${fanOther(item)}` });
        ul.append(el("li", {}, el("span", {}, `${fanLabel(item)}${item.count > 1 ? ` ×${item.count}` : ""}`, other), el("span", { text: t("fan_n", { n: item.fan }) })));
      }
      sec.append(ul);
      sec.append(el("p", { class: "total", "data-testid": "total", text: w.score.is_limit ? t("example_limit", { n: w.score.total_fan }) : t("example_total", { n: w.score.total_fan }) }));
      if (w.liable) sec.append(el("p", { class: "error", text: t("t_liable", { who: nameAt(B, w.liable) }) }));
      box.append(sec);
    }
    const winners = new Set(res.wins.map((w) => w.seat));
    const shown = r.hands ? SEATS.split("").filter((w) => !winners.has(w) && r.hands[w] && r.hands[w].length) : [];
    if (shown.length) {
      box.append(el("h3", { text: t("t_hands") }));
      const list = el("div", { class: "hands", "data-testid": "hands" });
      for (const w of shown) {
        const row = el("div", { class: "handrow" }, el("span", { class: "who", text: `${t(`wind_${w}`)} ${nameAt(B, w)}` }));
        const tiles = el("span", { class: "tiles" });
        for (const x of sortTiles(r.hands[w])) tiles.append(tileImg(x, "tile-xs"));
        row.append(tiles);
        list.append(row);
      }
      box.append(list);
    }
    if (res.payments.length) {
      box.append(el("h3", { text: t("t_payments") }));
      const ul = el("ul", { "data-testid": "payments" });
      for (const p of res.payments) ul.append(el("li", { text: `${nameAt(B, p.from)} → ${nameAt(B, p.to)}  ${t("jade_n", { n: p.amount })}${t("colon")}${reason(p)}` }));
      box.append(ul);
    }
    if (r.standings) box.append(standingsTable(B, r.standings));
    if (r.seed) box.append(el("p", { class: "muted seed" }, el("small", { text: `${t("t_seed")}${t("colon")}${r.seed}` })));
    if (r.replay) box.append(el("p", {}, el("a", { href: r.replay, "data-testid": "replay-link", text: t("t_replay_hand") })));
    if (!m && !B.replay && !B.resultActions) box.append(el("p", { class: "waiting", text: t("t_next_hand") }));
  }
  if (m) {
    box.append(el("h2", { "data-testid": "match-over", text: t("t_match_over") }));
    if (B.resultActions) box.append(...B.resultActions());
    box.append(matchTable(B, m));
    const pays = m.settlement ? m.settlement.payments : [];
    if (pays.length) {
      box.append(el("h3", { text: t("t_settlement") }));
      const ul = el("ul", { "data-testid": "settlement" });
      for (const p of pays) ul.append(el("li", { text: `${nameAt(B, p.from)} → ${nameAt(B, p.to)}  ${t("jade_n", { n: p.amount })}${t("colon")}${reason(p)}` }));
      box.append(ul);
    }
    if (m.record) box.append(el("p", {}, el("a", { href: m.record, "data-testid": "record-link", text: t("t_record") })));
    if (r && r.replay) box.append(el("p", {}, el("a", { href: `${r.replay.replace(/hand=\d+/, "hand=1")}&review=1`, "data-testid": "review-link", text: t("rvw_match_link") })));
  }
}

/** 全場完: each player's final total and, at a staked table, the jade the match moved. */
function matchTable(B, m) {
  const table = el("table", { class: "grid", "data-testid": "match-standings" });
  table.append(el("caption", { text: t("t_standings") }));
  const deltas = m.settlement ? m.settlement.deltas : null;
  const head = el("tr", {}, el("th", { text: t("t_player") }), el("th", { text: t("t_total") }));
  if (deltas) head.append(el("th", { text: t("t_jade_moved") }));
  table.append(head);
  const rows = B.table ? B.table.players.map((p) => ({ player: p.player, name: p.name })) : [];
  rows.sort((a, b) => m.totals[b.player] - m.totals[a.player]);
  for (const r of rows) {
    const you = r.player === youOf(B);
    const tr = el("tr", { "data-player": String(r.player), class: you ? "you" : null },
      el("td", { text: you ? `${r.name} (${t("t_you")})` : r.name }),
      el("td", { text: signed(m.totals[r.player]) }));
    if (deltas) tr.append(el("td", { "data-testid": `jade-moved-${r.player}`, text: t("jade_n", { n: signed(deltas[r.player]) }) }));
    table.append(tr);
  }
  return table;
}

function standingsTable(B, rows) {
  const table = el("table", { class: "grid", "data-testid": "standings" });
  table.append(el("caption", { text: t("t_standings") }));
  table.append(el("tr", {}, el("th", { text: t("t_player") }), el("th", { text: t("t_this_hand") }), el("th", { text: t("t_total") })));
  const sorted = [...rows].sort((a, b) => b.total - a.total);
  for (const s of sorted) {
    const you = s.player === youOf(B);
    table.append(el("tr", {}, el("td", { text: you ? `${s.name} (${t("t_you")})` : s.name }), el("td", { text: s.delta === null ? "" : signed(s.delta) }), el("td", { text: signed(s.total) })));
  }
  return table;
}
