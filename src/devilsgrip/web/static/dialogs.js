// The dialogs: menu, new game, rules, statistics, settings, help, the end and
// the confirmations.

import { renderMarkdown } from "./markdown.js";
import { api } from "./api.js";
import { LANGUAGE_NAMES, languages, loadStrings, presetName, presets, ratingName, setPresets, speedName, t, tn } from "./i18n.js";
import { newGame, playAgain, select, simple } from "./play.js";
import { applyStrings, formatTime, preload, render } from "./render.js";
import { $, app, ended, gameIdentity } from "./state.js";
import { openHistory } from "./history.js";
import { openReview } from "./review.js";
import { fetchSolution, openViewer } from "./viewer.js";

export function openEnd() {
  const st = app.state;
  const v = st.view;
  const game = st.game || {};
  $("end-title").textContent = v.won ? t("You won!") : v.given_up ? t("Game given up") : t("Game over");
  $("end-score").textContent = t("Score: {score}", { score: v.score });
  // a win needs no rating line: the title says it
  $("end-rating").hidden = Boolean(v.won);
  $("end-rating").textContent = v.won ? "" : (st.labels && st.labels.rating_line) || "";
  $("end-played").textContent = tn("{n} move in {time}", "{n} moves in {time}", v.moves,
    { time: formatTime(Number(game.elapsed) || 0) });
  const best = game.best_score;
  $("end-best").classList.toggle("new-best", Boolean(game.new_best));
  if (game.new_best) $("end-best").textContent = t("New best on this deal! The best before was {best}.", { best });
  else if (best === null || best === undefined) $("end-best").textContent = t("This is the first finished game on this deal.");
  else $("end-best").textContent = t("Best score ever on this deal: {best}", { best });
  $("end-solution").hidden = true;
  $("end-solution").replaceChildren();
  $("end-best-line").hidden = false;
  openDialog("dlg-end");
  // the line already fetched for this game is shown again at once
  if (app.solutionCache && app.solutionCache.key === gameIdentity()) showSolution();
}

// The solver's line, fetched once the game has ended (the server refuses it
// before).  It comes with the view of every position along the line, so the
// viewer only shows them: it never sends a move and never touches the


export async function showSolution() {
  const box = $("end-solution");
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Searching for the best line…") }));
  let sol;
  try {
    sol = await fetchSolution();
  } catch (error) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: error.message, className: "form-error" }));
    return;
  }
  const head = document.createElement("p");
  head.className = "best-score";
  head.textContent = t("Best possible score: {score}", { score: sol.score });
  const note = document.createElement("p");
  note.textContent = sol.proven ? t("Proven best for this deal.")
    : t("The best line found in the time allowed; it may be beaten.");
  const line = document.createElement("p");
  line.className = "line";
  line.textContent = sol.moves.join(" ");
  line.setAttribute("aria-label", t("The moves of the line"));
  line.tabIndex = 0; // it scrolls: the keyboard reaches it too
  const step = document.createElement("button");
  step.type = "button";
  step.className = "primary";
  step.textContent = t("Step through it");
  step.addEventListener("click", () => { closeDialog("dlg-end"); openViewer(sol); });
  const keep = Object.assign(document.createElement("p"), {
    className: "note", textContent: t("Watching the line leaves your game and its result as they are."),
  });
  box.replaceChildren(head, note, line, step, keep);
  $("end-best-line").hidden = true;
}

// ----------------------------------------------------------------- dialogs
export function openDialog(id) {
  const dlg = $(id);
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dlg) d.close();
  if (!dlg.open) dlg.showModal();
}

export function closeDialog(id) {
  const dlg = $(id);
  if (dlg.open) dlg.close();
}

export function confirmThen(title, text, action) {
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  const yes = $("confirm-yes");
  const fresh = yes.cloneNode(true);
  yes.replaceWith(fresh);
  fresh.addEventListener("click", () => { closeDialog("dlg-confirm"); action(); });
  openDialog("dlg-confirm");
}



export function buildMenu() {
  const items = [
    [t("New game or deal number…"), () => openNew()],
    [t("Restart this deal"), () => restartAsk()],
    ended() ? [t("Result"), () => openEnd()] : [t("Give up"), () => giveUpAsk()],
    ...(ended() ? [[t("Review this game"), () => openReview(null, "menu")]] : []),
    [t("Game history"), () => openHistory()],
    [t("Rules"), () => openRules()],
    [t("Statistics"), () => openStats()],
    [t("Settings"), () => openSettings()],
    [t("Help and keys"), () => openDialog("dlg-help")],
  ];
  const list = $("menu-list");
  list.replaceChildren();
  for (const [label, action] of items) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", () => { closeDialog("dlg-menu"); action(); });
    list.append(b);
  }
}

export function buildHelp() {
  const body = $("help-body");
  body.replaceChildren();
  const h = (text) => Object.assign(document.createElement("h3"), { textContent: text });
  const p = (text) => Object.assign(document.createElement("p"), { textContent: text });
  const ul = (items) => {
    const list = document.createElement("ul");
    for (const item of items) list.append(Object.assign(document.createElement("li"), { textContent: item }));
    return list;
  };
  body.append(
    h(t("The aim")),
    p(t("Build the piles of the grid up in suit along 2-5-8-J, 3-6-9-Q and 4-7-10-K. Your score is the number of cards left in the stock and the talon: lower is better, 0 wins.")),
    h(t("Mouse and touch")),
    ul([
      t("Drag a card from the talon or the grid onto a pile that takes it."),
      t("Or click a card, then click where it should go."),
      t("Double-click a card to move it when it has exactly one place to go."),
      t("Click the stock to deal; when it is empty, click it to redeal."),
      t("Swaps: drag a pile onto an empty cell and the two cells exchange places. To swap two piles, hold Shift while you drop one on the other, or take the offer to swap shown after a drop that does not build. Swaps never change the score."),
      t("A card dropped where it may not go returns, and the reason is shown."),
    ]),
    h(t("Keyboard")),
  );
  const keys = [
    [t("Arrow keys or Tab"), t("move between the stock, the talon and the cells")],
    [t("Enter or Space"), t("pick up the card in focus, then drop it on the cell in focus")],
    [t("Esc"), t("put the card back")],
    ["x", t("swap the picked-up pile with the cell in focus")],
    ["d", t("deal")],
    ["r", t("redeal")],
    ["u", t("undo")],
    [t("Shift+U"), t("redo")],
    [t("h or ?"), t("hint")],
  ];
  const table = document.createElement("table");
  table.className = "keys";
  for (const [key, what] of keys) {
    const tr = document.createElement("tr");
    const k = document.createElement("th");
    k.append(Object.assign(document.createElement("kbd"), { textContent: key }));
    tr.append(k, Object.assign(document.createElement("td"), { textContent: what }));
    table.append(tr);
  }
  body.append(table);
}

export function openNew(typed = "") {
  $("new-error").textContent = "";
  $("new-number").value = typed;
  openDialog("dlg-new");
  $("new-number").focus();
}

// The number goes to the server as the text typed (exact however large); a number the
// game does not take comes back with the game's own reason, shown under the field.
export async function submitNew(random) {
  const raw = $("new-number").value.trim();
  const body = !random && raw ? { game: raw } : {};
  closeDialog("dlg-new");
  await newGame(body, true, (error) => {
    openNew(raw);
    $("new-error").textContent = error.message;
  });
}

export function restartAsk() {
  playAgain(true);
}

export function giveUpAsk() {
  confirmThen(t("Give up"), t("End this game now? It is scored as it stands."), () => {
    simple("/api/giveup", { animate: false });
  });
}

export async function openRules() {
  const box = $("rules-text");
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Loading…") }));
  openDialog("dlg-rules");
  try {
    const data = await api("GET", "/api/rules");
    const doc = renderMarkdown(data.text || "");
    // the text's own first heading is the dialog's one title
    const first = doc.firstElementChild;
    if (first && /^H[1-3]$/.test(first.tagName)) {
      $("rules-title").textContent = first.textContent;
      first.remove();
    }
    box.replaceChildren(doc);
  } catch (error) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: error.message }));
  }
}

export async function openStats() {
  const box = $("stats-body");
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Loading…") }));
  openDialog("dlg-stats");
  let s;
  try {
    s = await api("GET", "/api/stats");
  } catch (error) {
    box.replaceChildren(Object.assign(document.createElement("p"), { textContent: error.message }));
    return;
  }
  const value = (x, digits = 0) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
  const rows = [
    [t("Games finished"), value(s.played)],
    [t("Won"), value(s.won)],
    [t("Win rate"), s.played ? `${Math.round((s.win_rate || 0) * 100)} %` : "–"],
    [t("Given up"), value(s.given_up)],
    [t("Best score"), value(s.best_score)],
    [t("Average score"), value(s.average_score, 1)],
    [t("Current streak"), value(s.current_streak)],
    [t("Longest streak"), value(s.longest_streak)],
    [t("Hints used"), value(s.hints)],
    [t("Unfinished games"), value(s.unfinished)],
  ];
  if ("best" in s) rows.push([t("Best on this deal"), value(s.best)]);
  const table = document.createElement("table");
  table.className = "stats";
  for (const [label, v] of rows) {
    const tr = document.createElement("tr");
    tr.append(Object.assign(document.createElement("th"), { textContent: label }),
      Object.assign(document.createElement("td"), { textContent: v }));
    table.append(tr);
  }
  const parts = [table];
  if (s.ratings && s.played) {
    parts.push(Object.assign(document.createElement("h3"), { textContent: t("Ratings") }));
    const chart = document.createElement("div");
    chart.className = "bars";
    const max = Math.max(1, ...Object.values(s.ratings));
    for (const [rating, n] of Object.entries(s.ratings)) {
      const row = document.createElement("div");
      row.className = "bar-row";
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${(100 * n) / max}%`;
      const track = document.createElement("span");
      track.className = "track";
      track.append(bar);
      row.append(Object.assign(document.createElement("span"), { textContent: ratingName(rating) }),
        track, Object.assign(document.createElement("span"), { textContent: String(n), className: "n" }));
      chart.append(row);
    }
    parts.push(chart);
  }
  if (s.rules) parts.push(Object.assign(document.createElement("p"), { className: "note", textContent: t("Rules: {rules}", { rules: s.rules }) }));
  box.replaceChildren(...parts);
}

// ---------------------------------------------------------------- settings
// The rules text of the form: the preset, then every option written out (the
// server turns it into its canonical text).
export function composeRules() {
  const preset = $("set-preset").value;
  const base = (presets[preset] && presets[preset].options) || {};
  const chosen = {
    draw: $("set-draw").value || base.draw,
    redeals: $("set-redeals").value,
    move_unit: $("set-unit").value,
    fill_from_talon: $("set-fill").checked ? "true" : "false",
  };
  return [preset, ...Object.entries(chosen).map(([name, value]) => `${name}=${value}`)].join(",");
}

export function fillOptions(select, entries, current) {
  select.replaceChildren();
  for (const [value, label] of entries) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.append(option);
  }
  if (current !== undefined) select.value = String(current);
}

export function setRuleFields(options) {
  $("set-draw").value = String(options.draw);
  const redeals = [["unlimited", t("Unlimited")], ["0", t("None")], ["1", "1"], ["2", "2"], ["3", "3"]];
  if (!redeals.some(([v]) => v === String(options.redeals))) redeals.push([String(options.redeals), String(options.redeals)]);
  fillOptions($("set-redeals"), redeals, options.redeals);
  fillOptions($("set-unit"), [["run", t("a card and all cards above it")], ["card", t("the top card only")]], options.move_unit);
  $("set-fill").checked = String(options.fill_from_talon) === "true";
}

export async function openSettings() {
  $("settings-error").textContent = "";
  try {
    const s = await api("GET", "/api/settings");
    Object.assign(app.settings, s);
  } catch {
    // keep what we have
  }
  const s = app.settings;
  fillOptions($("set-lang"), languages.map((code) => [code, LANGUAGE_NAMES[code] || code]), s.lang);
  $("set-four").checked = Boolean(s.four_colour);
  fillOptions($("set-anim"), ["off", "fast", "normal", "slow"].map((v) => [v, speedName(v)]), s.animation || "normal");
  if (s.presets) setPresets(s.presets);
  const parts = s.rules_parts || { preset: "classic", options: (presets.classic || {}).options || {} };
  fillOptions($("set-preset"), Object.keys(presets).map((p) => [p, presetName(p)]), parts.preset);
  setRuleFields(parts.options);
  openDialog("dlg-settings");
}

export async function saveSettings() {
  const body = {
    lang: $("set-lang").value,
    four_colour: $("set-four").checked,
    animation: $("set-anim").value,
    rules: composeRules(),
  };
  try {
    const saved = await api("POST", "/api/settings", body);
    Object.assign(app.settings, body, saved && typeof saved === "object" && !saved.view ? saved : {});
  } catch (error) {
    $("settings-error").textContent = error.message;
    return;
  }
  closeDialog("dlg-settings");
  await loadStrings();
  applyStrings();
  preload();
  try {
    const next = await api("GET", "/api/game");
    app.state = next;
  } catch {
    // the old state is still right apart from its language
  }
  render();
}
