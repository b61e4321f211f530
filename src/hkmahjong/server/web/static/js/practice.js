// 練習 practice setup: create a practice table (POST /api/tables) and go to it. The lengths are
// the ones the chosen ruleset offers a practice table (GET /api/table-options?kind=practice).
import { el, lang, postJSON, t } from "./app.js";

const form = document.getElementById("practice-form");
const err = document.getElementById("practice-error");
const lengthBox = document.getElementById("practice-lengths");
const presetSelect = form.querySelector("select[name=preset]");

function fail(why) {
  err.textContent = t("create_error", { why });
  err.hidden = false;
}

/** Rebuild the length choices for the ruleset now chosen (keeping the choice when it is offered). */
async function loadLengths() {
  const preset = presetSelect.value;
  let res;
  try {
    res = await fetch(`/api/table-options?kind=practice&preset=${encodeURIComponent(preset)}`, { credentials: "same-origin" });
  } catch { fail(t("t_reconnecting")); return; }
  if (!res.ok) { fail(`HTTP ${res.status}`); return; }
  const opts = await res.json();
  const was = new FormData(form).get("length");
  const values = opts.lengths.map((x) => x.value);
  const pick = values.includes(was) ? was : (opts.lengths.find((x) => x.default) || opts.lengths[0]).value;
  const legend = lengthBox.querySelector("legend");
  lengthBox.replaceChildren(legend);
  for (const x of opts.lengths) {
    const input = el("input", { type: "radio", name: "length", value: x.value, checked: x.value === pick });
    lengthBox.append(el("label", { class: "choice" }, input, ` ${x.labels[lang()] || x.value}`));
  }
  err.hidden = true;
}
presetSelect.addEventListener("change", loadLengths);

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const fd = new FormData(form);
  const level = fd.get("bots");
  const body = {
    kind: "practice",
    rules: { preset: fd.get("preset") },
    length: fd.get("length"),
    bots: [level, level, level],
  };
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  const res = await postJSON("/api/tables", body);
  button.disabled = false;
  if (res.ok && res.data && res.data.url) {
    location.assign(res.data.url);
    return;
  }
  const d = res.data && res.data.detail;
  fail(d && typeof d === "object" && d.message ? d.message : `HTTP ${res.status}`);
});
