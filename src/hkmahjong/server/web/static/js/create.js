// 開檯 open an online table: every choice comes from GET /api/table-options?kind=online&preset=…
// (the lengths the ruleset offers an online table, the levels and their stakes, the house-rule
// switches people change), so the page never offers what the server would refuse. The stake is
// shown before anything is created; POST /api/tables creates it and the page opens the table
// (with its invite when private).
import { el, lang, postJSON, t, words } from "./app.js";

const form = document.getElementById("create-form");
const $ = (id) => document.getElementById(id);
let opts = null;

function fail(why) { const e = $("create-error"); e.textContent = t("create_error", { why }); e.hidden = false; }

function apiError(res) {
  const d = res.data && res.data.detail;
  const code = d && typeof d === "object" && !Array.isArray(d) ? d.code : null;
  if (code && `werr_${code}` in words()) return t(`werr_${code}`) + (d.field ? ` (${d.field})` : "");
  if (d && typeof d === "object" && d.message) return d.message;
  return `HTTP ${res.status}`;
}

const label = (labels) => labels[lang()] || labels.en || "";
const shown = (v) => (v === true ? "✓" : v === false ? "✗" : v === "none" ? "—" : String(v));

function radio(name, value, checked, text, testid) {
  const input = el("input", { type: "radio", name, value: String(value), checked, "data-testid": testid });
  return el("label", { class: "choice" }, input, ` ${text}`);
}

function renderOptions() {
  const was = new FormData(form);
  // lengths
  const lengths = $("create-lengths");
  lengths.replaceChildren(lengths.querySelector("legend"));
  const keepLen = opts.lengths.some((x) => x.value === was.get("length")) ? was.get("length") : (opts.lengths.find((x) => x.default) || opts.lengths[0]).value;
  for (const x of opts.lengths) lengths.append(radio("length", x.value, x.value === keepLen, label(x.labels), `length-${x.value}`));
  // levels and their stakes
  $("stake-note").textContent = t("stake_note", { v: opts.table_value });
  const list = $("level-list");
  list.replaceChildren();
  const keepLevel = opts.levels.some((x) => String(x.level) === was.get("level")) ? was.get("level") : String((opts.levels.find((x) => x.default) || opts.levels[0]).level);
  for (const x of opts.levels) {
    const text = x.level === 0 ? t("level_free") : t("level_stake", { n: x.level, stake: x.stake });
    list.append(radio("level", x.level, String(x.level) === keepLevel, text, `level-${x.level}`));
  }
  // house-rule switches, at the preset's values
  const sw = $("switch-list");
  sw.replaceChildren();
  for (const s of opts.switches) {
    const select = el("select", { name: `sw_${s.key}`, "data-testid": `switch-${s.key}`, "data-default": JSON.stringify(s.default) });
    for (const c of s.choices) select.append(el("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(s.default), text: shown(c) }));
    sw.append(el("label", {}, label(s.labels), select));
  }
  showStake();
}

function showStake() {
  const level = Number(new FormData(form).get("level"));
  const x = opts.levels.find((l) => l.level === level);
  $("stake-chosen").textContent = x ? (x.level === 0 ? t("level_free") : t("stake_chosen", { n: x.stake })) : "";
}

async function load() {
  const preset = form.elements.preset.value;
  let res;
  try {
    res = await fetch(`/api/table-options?kind=online&preset=${encodeURIComponent(preset)}`, { credentials: "same-origin" });
  } catch { fail(t("t_reconnecting")); return; }
  if (!res.ok) { fail(`HTTP ${res.status}`); return; }
  opts = await res.json();
  $("create-error").hidden = true;
  renderOptions();
}

/** The switches changed from the preset's values, nested by their path (rules.switches). */
function changedSwitches() {
  const out = {};
  for (const s of opts.switches) {
    const select = form.elements[`sw_${s.key}`];
    if (!select || select.value === JSON.stringify(s.default)) continue;
    let node = out;
    s.path.slice(0, -1).forEach((part) => { node[part] = node[part] || {}; node = node[part]; });
    node[s.path[s.path.length - 1]] = JSON.parse(select.value);
  }
  return out;
}

if (form) {
  form.elements.preset.addEventListener("change", load);
  form.addEventListener("change", (e) => { if (e.target.name === "level") showStake(); });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!opts) return;
    const fd = new FormData(form);
    const nbots = Number(fd.get("nbots") || 0);
    const switches = changedSwitches();
    const body = {
      kind: "online",
      rules: Object.keys(switches).length ? { preset: fd.get("preset"), switches } : { preset: fd.get("preset") },
      length: fd.get("length"),
      level: Number(fd.get("level")),
      private: fd.get("private") === "on",
      bots: Array(nbots).fill(fd.get("bot_level")),
    };
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const res = await postJSON("/api/tables", body);
    button.disabled = false;
    if (res.ok && res.data && res.data.url) {
      location.assign(res.data.invite ? `${res.data.url}?invite=${encodeURIComponent(res.data.invite)}` : res.data.url);
      return;
    }
    fail(apiError(res));
  });
  load();
}
