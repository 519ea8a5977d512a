// The dialogs as the page draws them: the end of a game and its best line, the menu,
// help, new game, rules, statistics, settings and the confirmations.  They draw and
// read forms; what a button does is given to them (actions.js and menus.js).

import { renderMarkdown } from "./markdown.js";
import { formatTime, languageName, presetName, ratingName, speedName, t, tn } from "./i18n.js";
import { $, app, applies } from "./state.js";

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

// ------------------------------------------------------------------ the end
export function showEnd() {
  const st = app.state;
  const v = st.view;
  const game = st.game || {};
  $("end-title").textContent = v.won ? t("You won!") : v.given_up ? t("Game given up") : t("Game over");
  $("dlg-end").classList.toggle("won", Boolean(v.won));
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
  // a win faster than every earlier one under these rules says so
  const fastest = $("end-fastest");
  fastest.hidden = !(v.won && game.new_fastest);
  fastest.textContent = fastest.hidden ? ""
    : t("Your fastest win yet! The fastest before took {time}.", { time: formatTime(Number(game.fastest_before) || 0) });
  $("end-solution").hidden = true;
  $("end-solution").replaceChildren();
  // a win is its own best line: the button is there only where the controller offers one
  $("end-best-line").hidden = !applies("best_line");
  openDialog("dlg-end");
}

// The solver's line in the end dialog: while it is searched, why it could not be had, or
// the line (onStep: the player asks to step through it).
export function showSolutionSearching() {
  const box = $("end-solution");
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Searching for the best line…") }));
}

export function showSolutionError(message) {
  $("end-solution").replaceChildren(Object.assign(document.createElement("p"), { textContent: message, className: "form-error" }));
}

export function showSolutionLine(sol, onStep) {
  const box = $("end-solution");
  box.hidden = false;
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
  step.addEventListener("click", () => { closeDialog("dlg-end"); onStep(); });
  const keep = Object.assign(document.createElement("p"), {
    className: "note", textContent: t("Watching the line leaves your game and its result as they are."),
  });
  box.replaceChildren(head, note, line, step, keep);
  $("end-best-line").hidden = true;
}

// ------------------------------------------------------------ menu and help
// items: [label, action] in order; a choice closes the menu, then acts.
export function buildMenu(items) {
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
  const touch = window.matchMedia("(pointer: coarse)").matches;
  body.append(
    h(t("The aim")),
    p(t("Build the piles of the grid up in suit along 2-5-8-J, 3-6-9-Q and 4-7-10-K. Your score is the number of cards left in the stock and the talon: lower is better, 0 wins.")),
    // a screen played by finger (a phone, a tablet) is told of taps; one with a mouse, of clicks
    h(touch ? t("Touch") : t("Mouse and touch")),
    ul([
      t("Drag a card from the talon or the grid onto a pile that takes it."),
      ...(touch ? [
        t("Or tap a card, then tap where it should go."),
        t("Tap a card twice to move it when it has exactly one place to go."),
        t("Tap the stock to deal; when it is empty, tap it to redeal."),
        t("Swaps: drag a pile onto an empty cell and the two cells exchange places. To swap two piles, hold your finger on one until it lifts, then drag it onto the other, or take the offer to swap shown after a drop that does not build. Swaps never change the score."),
      ] : [
        t("Or click a card, then click where it should go."),
        t("Double-click a card to move it when it has exactly one place to go."),
        t("Click the stock to deal; when it is empty, click it to redeal."),
        t("Swaps: drag a pile onto an empty cell and the two cells exchange places. To swap two piles, hold Shift while you drop one on the other, or take the offer to swap shown after a drop that does not build. Swaps never change the score."),
        t("On a touch screen, to swap two piles, hold your finger on one until it lifts, then drag it onto the other."),
      ]),
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

// ---------------------------------------------------------------- new game
export function showNew(typed = "", error = "") {
  $("new-error").textContent = error;
  $("new-number").value = typed;
  $("new-winnable-field").hidden = !app.settings.winnable_available;
  $("new-winnable").checked = Boolean(app.settings.winnable);
  openDialog("dlg-new");
  $("new-number").focus();
}

// ------------------------------------------------------------ rules, statistics
function showText(box, text, className = "") {
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: text, className }));
}

export function showRulesLoading() {
  showText($("rules-text"), t("Loading…"));
  openDialog("dlg-rules");
}

export function showRulesError(message) {
  showText($("rules-text"), message);
}

export function showRules(text) {
  const box = $("rules-text");
  const doc = renderMarkdown(text || "");
  // the text's own first heading is the dialog's one title
  const first = doc.firstElementChild;
  if (first && /^H[1-3]$/.test(first.tagName)) {
    $("rules-title").textContent = first.textContent;
    first.remove();
  }
  box.replaceChildren(doc);
}

export function showStatsLoading() {
  showText($("stats-body"), t("Loading…"));
  if (!$("dlg-stats").open) openDialog("dlg-stats");
}

export function showStatsError(message) {
  showText($("stats-body"), message);
}

// onChoose(rules): the player chose the statistics of other rules.
export function showStats(s, onChoose) {
  const select = $("stats-rules");
  fillOptions(select, s.choices || [], s.rules);
  select.disabled = !(s.choices && s.choices.length > 1);
  select.onchange = () => onChoose(select.value);
  const box = $("stats-body");
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
    [t("Fastest win"), s.fastest_win === null || s.fastest_win === undefined ? "–" : formatTime(s.fastest_win)],
    [t("Time played"), formatTime(Number(s.time_played) || 0)],
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
  box.replaceChildren(...parts);
}

// ---------------------------------------------------------------- settings
// The rules text of the form: the preset, then every option written out (the
// server turns it into its canonical text).
export function composeRules() {
  const preset = $("set-preset").value;
  const presets = app.words.presets;
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

export function showSettings() {
  $("settings-error").textContent = "";
  const s = app.settings;
  const presets = app.words.presets;
  fillOptions($("set-lang"), app.words.languages.map((code) => [code, languageName(code)]), s.lang);
  $("set-four").checked = Boolean(s.four_colour);
  $("set-sounds").checked = s.sounds !== false;
  fillOptions($("set-anim"), ["off", "fast", "normal", "slow"].map((v) => [v, speedName(v)]), s.animation || "normal");
  const parts = s.rules_parts || { preset: "classic", options: (presets.classic || {}).options || {} };
  fillOptions($("set-preset"), Object.keys(presets).map((p) => [p, presetName(p)]), parts.preset);
  setRuleFields(parts.options);
  // a browser on another computer may join this computer's player with the server's code
  $("set-pair").hidden = !(s.pairing && s.player === "guest");
  $("set-pair-code").value = "";
  openDialog("dlg-settings");
}

// The preset chosen in the form: its options are shown.
export function showPresetOptions() {
  const preset = app.words.presets[$("set-preset").value];
  if (preset) setRuleFields(preset.options);
}

export function readPairingCode() {
  return $("set-pair-code").value;
}

export function readSettings() {
  return {
    lang: $("set-lang").value,
    four_colour: $("set-four").checked,
    sounds: $("set-sounds").checked,
    animation: $("set-anim").value,
    rules: composeRules(),
  };
}

export function showSettingsError(message) {
  $("settings-error").textContent = message;
}
