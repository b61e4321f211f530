// 練習 practice setup: create a practice table (POST /api/tables) and go to it.
import { postJSON, t } from "./app.js";

const form = document.getElementById("practice-form");
const err = document.getElementById("practice-error");

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
  const why = d && typeof d === "object" && d.message ? d.message : `HTTP ${res.status}`;
  err.textContent = t("create_error", { why });
  err.hidden = false;
});
