// The game history as the page draws it: this browser's finished games, the latest
// first, each with its date, deal, rules, score, rating, moves and time, and a button to
// its review (what it does is given: onReview(id)).

import { closeDialog, openDialog } from "./dialogs.js";
import { formatTime, t, tn } from "./i18n.js";
import { $, app } from "./state.js";

function formatDate(text) {
  const when = new Date(text);
  if (Number.isNaN(when.getTime())) return text || "–";
  try {
    return new Intl.DateTimeFormat(app.settings.lang || "en", { dateStyle: "medium", timeStyle: "short" }).format(when);
  } catch {
    return when.toLocaleString();
  }
}

export function showHistoryLoading() {
  $("history-title").textContent = t("Game history");
  $("history-body").replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Loading…") }));
  openDialog("dlg-history");
}

export function showHistoryError(message) {
  $("history-body").replaceChildren(Object.assign(document.createElement("p"), { className: "form-error", textContent: message }));
}

export function showHistory(data, onReview) {
  const box = $("history-body");
  if (!data.saving) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Games are not being saved, so there is no history.") }));
    return;
  }
  const games = data.games || [];
  if (!games.length) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("No finished game yet. A game counts here once it is won, given up or over.") }));
    return;
  }
  const columns = [t("Date"), t("Deal"), t("Rules"), t("Score"), t("Rating"), t("Moves"), t("Time")];
  const table = document.createElement("table");
  table.className = "history";
  const caption = Object.assign(document.createElement("caption"), { className: "sr-only", textContent: t("Your finished games, the latest first") });
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  for (const name of [...columns, t("Review")]) {
    const th = Object.assign(document.createElement("th"), { textContent: name, scope: "col" });
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement("tbody");
  for (const g of games) {
    const row = document.createElement("tr");
    row.dataset.id = String(g.id);
    const dateId = "history-date-" + g.id;
    const cells = [
      formatDate(g.ended || g.started),
      g.number ? "#" + g.number : g.deal,
      g.rules,
      String(g.score),
      g.rating_label,
      String(g.moves),
      g.seconds === null || g.seconds === undefined ? "–" : formatTime(Number(g.seconds)),
    ];
    cells.forEach((text, k) => {
      const cell = document.createElement(k === 0 ? "th" : "td");
      if (k === 0) {
        cell.scope = "row";
        cell.id = dateId;
      }
      cell.dataset.label = columns[k];
      cell.className = ["date", "deal", "rules", "score", "rating", "moves", "time"][k];
      cell.textContent = text;
      row.append(cell);
    });
    const action = document.createElement("td");
    action.className = "action";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = g.reviewed ? t("See the review") : t("Review");
    button.setAttribute("aria-describedby", dateId);
    button.addEventListener("click", () => {
      closeDialog("dlg-history");
      onReview(g.id);
    });
    action.append(button);
    row.append(action);
    body.append(row);
  }
  table.append(caption, head, body);
  const parts = [table];
  if (data.total > games.length) {
    parts.push(Object.assign(document.createElement("p"), { className: "note", textContent: tn("The latest {shown} of your {n} finished game.", "The latest {shown} of your {n} finished games.", data.total, { shown: games.length }) }));
  }
  const wrap = Object.assign(document.createElement("div"), { className: "history-wrap" });
  wrap.append(...parts);
  box.replaceChildren(wrap);
}
