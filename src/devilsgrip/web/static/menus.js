// The actions of the menu and its dialogs: a new game or deal number, the rules,
// statistics, settings, the game history and the review of a finished game.  Each asks
// the server (transport.js), hands what changes to state.js and draws the answer
// (dialogs.js, history.js, review.js).

import { applyState, enqueue, giveUp, loadWords, newGame, openEnd, openReviewViewer, playAgain, playDaily } from "./actions.js";
import { localDay, showDaily, showDailyError, showDailyLoading, showShare, showShareStatus } from "./daily.js";
import {
  buildMenu, closeDialog, openDialog, readPairingCode, readSettings, showNew, showRules, showRulesError, showRulesLoading,
  showSettings, showSettingsError, showStats, showStatsError, showStatsLoading,
} from "./dialogs.js";
import { showHistory, showHistoryError, showHistoryLoading } from "./history.js";
import { t } from "./i18n.js";
import { say, showMessage } from "./messages.js";
import { recordsMenu } from "./records.js";
import { applyStrings, preload, render } from "./render.js";
import { showDone, showProgress, showReviewError, showReviewOpening } from "./review.js";
import {
  $, app, applies, chooseDay, forgetReview, keepReview, reviewKey, setDaily, setGameState, setPresets, setReviewDoc,
  setReviewFocus, setSettings, setShare, showReviewOf,
} from "./state.js";
import { request } from "./transport.js";

// The menu, built as it opens (what it offers is what the server says applies now: a game
// in play may be given up, one that has ended shows its result again, is reviewed, shared).
export function openMenu() {
  buildMenu([
    [t("New game or deal number…"), () => openNew()],
    [t("Restart this deal"), () => playAgain(true)],
    [t("Daily deal"), () => openDaily()],
    applies("give_up") ? [t("Give up"), () => giveUp()] : [t("Result"), () => openEnd()],
    ...(applies("review") ? [[t("Review this game"), () => openReview(null, "menu")]] : []),
    ...(applies("share") ? [[t("Share"), () => openShare()]] : []),
    [t("Game history"), () => openHistory()],
    ...recordsMenu(),
    [t("Rules"), () => openRules()],
    [t("Statistics"), () => openStats()],
    [t("Settings"), () => openSettings()],
    [t("Help and keys"), () => openDialog("dlg-help")],
  ]);
  openDialog("dlg-menu");
}

export function openNew(typed = "") {
  showNew(typed);
}

// The number goes to the server as the text typed (exact however large); a number the
// game does not take comes back with the game's own reason, shown under the field.
// "Winnable deals only" is the player's setting (kept by the server) for random deals.
export async function submitNew(random) {
  const raw = $("new-number").value.trim();
  const body = !random && raw ? { game: raw } : {};
  if (app.settings.winnable_available) {
    const winnable = $("new-winnable").checked;
    if (winnable !== Boolean(app.settings.winnable)) {
      try {
        setSettings(await request("POST", "/api/settings", { winnable }));
      } catch (error) {
        showNew(raw, error.message);
        return;
      }
    }
    if (!body.game) body.winnable = winnable;
  }
  closeDialog("dlg-new");
  await newGame(body, true, (error) => showNew(raw, error.message));
}

// ------------------------------------------------------------------- daily
// The calendar of the player's daily deals for a preset (the player's rules by default),
// counted in the player's own days.
export async function openDaily(rules = null) {
  showDailyLoading();
  const chosen = app.daily ? app.daily.chosen : null;
  const preset = rules || (app.daily && app.daily.rules) || app.settings.rules || "classic";
  try {
    const doc = await request("GET", "/api/daily?" + new URLSearchParams({ date: localDay(), rules: preset }));
    setDaily(doc, chosen && doc.days.some((d) => d.date === chosen) ? chosen : null);
  } catch (error) {
    showDailyError(error.message);
    return;
  }
  drawDaily();
}

function drawDaily() {
  showDaily((day) => { chooseDay(day); drawDaily(); }, (preset) => openDaily(preset));
}

export function playChosenDaily() {
  const d = app.daily;
  if (!d) return;
  closeDialog("dlg-daily");
  playDaily({ date: d.chosen || d.date, rules: d.rules });
}

// ------------------------------------------------------------------- share
// The text of the game that ended, with a link that opens its deal: on a phone the
// system's share sheet (Web Share API), elsewhere the clipboard.
export async function openShare() {
  let doc;
  try {
    doc = await request("GET", "/api/share");
  } catch (error) {
    showMessage(error.message, "error");
    return;
  }
  let url = "";
  if (doc.game !== null && doc.game !== undefined) {
    url = window.location.origin + window.location.pathname + "?"
      + new URLSearchParams({ game: String(doc.game), rules: doc.rules });
  }
  const phone = window.matchMedia("(pointer: coarse)").matches;
  setShare({ ...doc, url, native: Boolean(phone && navigator.share) });
  showShare();
}

export async function sendShare() {
  const s = app.share;
  if (!s) return;
  if (s.native) {
    try {
      await navigator.share({ title: t("Devil's Grip"), text: s.text, ...(s.url ? { url: s.url } : {}) });
      showShareStatus(t("Shared."));
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return;
      // no share sheet after all: the clipboard instead
    }
  }
  try {
    await navigator.clipboard.writeText(s.url ? `${s.text}\n${s.url}` : s.text);
    showShareStatus(t("Copied to the clipboard."));
  } catch {
    showShareStatus(t("It could not be copied: select the text and copy it."));
  }
}

export async function openRules() {
  showRulesLoading();
  try {
    const data = await request("GET", "/api/rules");
    showRules(data.text);
  } catch (error) {
    showRulesError(error.message);
  }
}

// rules: the rules whose statistics are shown ("all": every rules together; none: the
// game's own), chosen again in the dialog.
export async function openStats(rules) {
  showStatsLoading();
  try {
    const query = rules ? `?rules=${encodeURIComponent(rules)}` : "";
    showStats(await request("GET", `/api/stats${query}`), openStats);
  } catch (error) {
    showStatsError(error.message);
  }
}

// ---------------------------------------------------------------- settings
export async function openSettings() {
  try {
    setSettings(await request("GET", "/api/settings"));
  } catch {
    // keep what we have
  }
  if (app.settings.presets) setPresets(app.settings.presets);
  showSettings();
}

export async function saveSettings() {
  const body = readSettings();
  try {
    const saved = await request("POST", "/api/settings", body);
    setSettings({ ...body, ...(saved && typeof saved === "object" && !saved.view ? saved : {}) });
  } catch (error) {
    showSettingsError(error.message);
    return;
  }
  closeDialog("dlg-settings");
  await loadWords();
  applyStrings();
  preload();
  try {
    setGameState(await request("GET", "/api/game"));
  } catch {
    // the old state is still right apart from its language
  }
  render();
}

// The code the server printed, typed in a browser on another computer: from now on it
// plays as this computer's player (its game, settings, history and statistics).
export async function pairBrowser() {
  let state;
  try {
    state = await request("POST", "/api/pair", { code: readPairingCode() });
  } catch (error) {
    showSettingsError(error.message);
    return;
  }
  closeDialog("dlg-settings");
  try {
    setSettings(await request("GET", "/api/settings"));
  } catch {
    // the game below is right; the settings come with the next opening of the dialog
  }
  await loadWords();
  applyStrings();
  preload();
  setGameState(state);
  render();
  say(t("This browser now plays as this computer's player."));
}

// ------------------------------------------------------------------ history
export async function openHistory() {
  showHistoryLoading();
  let data;
  try {
    data = await request("GET", "/api/history");
  } catch (error) {
    showHistoryError(error.message);
    return;
  }
  showHistory(data, (id) => openReview(id, "history"));
}

// ------------------------------------------------------------------- review
// The server works the review out in a worker thread while the page shows how far it is.
const POLL_MS = 350;
const sleep = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });

// Open the review of a game that has ended: id null for the game in play, else a finished
// game of the history.  from: "end", "menu" or "history" (the dialog offers the way back
// to the history).  longer: review it anew with more time (its review left values open).
export async function openReview(id = null, from = "end", { longer = false } = {}) {
  const own = app.state && app.state.game ? app.state.game.id : null;
  const current = id === null || id === own;
  const shownId = current ? null : id;
  const token = showReviewOf(shownId, from);
  showReviewOpening(from);
  if (longer) forgetReview(shownId);
  const cached = app.reviews.get(reviewKey(shownId));
  if (cached) {
    setReviewDoc(cached);
    showDone(showMove, lookLonger);
    return;
  }
  showProgress(null);
  const query = shownId === null ? "" : "?id=" + encodeURIComponent(shownId);
  const body = shownId === null ? {} : { id: shownId };
  if (longer) body.longer = true;
  let data;
  try {
    data = await request("POST", "/api/review", body);
    // the game in play is final from now on (undo can no longer reopen it): show that
    if (current) refreshState();
    while (data && data.status !== "done") {
      if (token !== app.review.token) return; // another review was asked for meanwhile
      if (data.status === "none") {
        data = await request("POST", "/api/review", body);
        continue;
      }
      if ($("dlg-review").open) showProgress(data);
      await sleep(POLL_MS);
      data = await request("GET", "/api/review" + query);
    }
  } catch (error) {
    if (token === app.review.token) showReviewError(error.message);
    return;
  }
  if (token !== app.review.token) return;
  keepReview(reviewKey(shownId), data);
  if ($("dlg-review").open) {
    setReviewDoc(data);
    showDone(showMove, lookLonger);
    say(data.story);
  }
}

// The review shown, made anew with more time.
function lookLonger() {
  openReview(app.review.id, app.review.from, { longer: true });
}

function refreshState() {
  enqueue(async () => {
    const next = await request("GET", "/api/game");
    await applyState(next, { animate: false, announce: false, quiet: true });
  });
}

// Open the viewer on the position before costly move n; closing it comes back here.
function showMove(n) {
  const doc = app.review.doc;
  if (!doc) return;
  setReviewFocus(n);
  closeDialog("dlg-review");
  openReviewViewer(doc, n, () => {
    openDialog("dlg-review");
    showDone(showMove, lookLonger);
  });
}

// From the review back to the history it was opened from.
export function backToHistory() {
  closeDialog("dlg-review");
  openHistory();
}
