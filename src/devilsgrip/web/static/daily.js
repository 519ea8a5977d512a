// Drawing the daily deal's calendar and the share dialog (they read the state and change
// nothing in it): the days come from /api/daily, the text to share from /api/share.

import { fillOptions, openDialog } from "./dialogs.js";
import { presetName, t, tn } from "./i18n.js";
import { $, app } from "./state.js";

// The player's calendar date as YYYY-MM-DD: the daily deal follows the player's own day.
export function localDay(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function dayOf(text) {
  // YYYY-MM-DD, read by position
  return new Date(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
}

function longDate(text) {
  return dayOf(text).toLocaleDateString(app.settings.lang || "en", { weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

function resultText(result) {
  if (!result) return t("Not played yet.");
  if (result.won) return t("Won!");
  return t("Your result: score {score}, {status}", { score: result.score, status: result.status_label });
}

export function showDailyLoading() {
  $("daily-today").textContent = t("Loading…");
  $("daily-result").textContent = "";
  $("daily-streak").textContent = "";
  $("daily-months").textContent = "";
  $("daily-calendar").replaceChildren();
  $("daily-play").disabled = true;
  if (!$("dlg-daily").open) openDialog("dlg-daily");
}

export function showDailyError(message) {
  $("daily-today").textContent = message;
  $("daily-play").disabled = true;
}

// The calendar: five weeks ending today, Monday first; each day shows its result (a star
// for a win, the score otherwise); onPick(day) chooses a day, onChoose(rules) another preset.
export function showDaily(onPick, onChoose) {
  const d = app.daily;
  const presets = Object.keys(app.words.presetLabels || {});
  const select = $("daily-rules");
  fillOptions(select, (presets.length ? presets : [d.rules]).map((p) => [p, presetName(p)]), d.rules);
  if (select.value !== d.rules) {
    fillOptions(select, [[d.rules, d.rules_label], ...presets.map((p) => [p, presetName(p)])], d.rules);
  }
  select.onchange = () => onChoose(select.value);
  const chosen = d.days.find((day) => day.date === d.chosen) || d.days[d.days.length - 1];
  const today = chosen.date === d.date;
  const about = { date: longDate(chosen.date), number: chosen.game };
  $("daily-today").textContent = today ? t("Today, {date}: game {number}", about) : t("{date}: game {number}", about);
  $("daily-result").textContent = resultText(chosen.result);
  const s = d.streak;
  $("daily-streak").textContent = [
    tn("Daily streak: {n} day", "Daily streak: {n} days", s.current, { n: s.current }),
    tn("best: {n} day", "best: {n} days", s.best, { n: s.best }),
    tn("{n} day played", "{n} days played", d.played, { n: d.played }),
  ].join(" · ");
  $("daily-note").textContent = d.winnable
    ? t("The single-pass daily deal can always be won.") + " " + t("The first game of a day's deal to end is its result; later games are practice.")
    : t("The first game of a day's deal to end is its result; later games are practice.");
  $("daily-play").textContent = today ? t("Play today's deal") : t("Play this day's deal");
  $("daily-play").disabled = false;
  // the months the five weeks cover ("November – December 2026"), in the player's language
  const months = new Intl.DateTimeFormat(app.settings.lang || "en", { month: "long", year: "numeric" });
  $("daily-months").textContent = months.formatRange(dayOf(d.days[0].date), dayOf(d.days[d.days.length - 1].date));
  const grid = $("daily-calendar");
  grid.replaceChildren();
  const monday = new Date(2024, 0, 1); // a Monday: the weekdays' names in the player's language
  for (let i = 0; i < 7; i += 1) {
    const name = new Date(monday.getFullYear(), 0, 1 + i).toLocaleDateString(app.settings.lang || "en", { weekday: "short" });
    grid.append(Object.assign(document.createElement("span"), { className: "weekday", textContent: name, role: "columnheader" }));
  }
  const first = dayOf(d.days[0].date);
  for (let i = 0; i < (first.getDay() + 6) % 7; i += 1) {
    grid.append(Object.assign(document.createElement("span"), { className: "day blank" }));
  }
  for (const day of d.days) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "day";
    b.setAttribute("role", "gridcell");
    const r = day.result;
    if (r) b.classList.add(r.won ? "won" : "played");
    if (day.date === d.date) b.classList.add("today");
    if (day.date === chosen.date) b.setAttribute("aria-selected", "true");
    const num = Object.assign(document.createElement("span"), { className: "num", textContent: String(dayOf(day.date).getDate()) });
    const mark = Object.assign(document.createElement("span"), { className: "mark", textContent: r ? (r.won ? "★" : String(r.score)) : "·" });
    b.append(num, mark);
    const label = `${longDate(day.date)}: ${resultText(r)}`;
    b.title = label;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => onPick(day.date));
    grid.append(b);
  }
}

// ------------------------------------------------------------------- sharing
export function showShare() {
  const s = app.share;
  $("share-text").textContent = s.text;
  $("share-link").textContent = s.url || "";
  $("share-status").textContent = "";
  $("share-send").textContent = s.native ? t("Share…") : t("Copy");
  if (!$("dlg-share").open) openDialog("dlg-share");
}

export function showShareStatus(text) {
  $("share-status").textContent = text;
}
