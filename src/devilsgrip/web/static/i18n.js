// The page's words: translations and plural forms, card, rating, preset and language
// names, all as the server sent them (state.js keeps them), in the player's language;
// and the play time as text.

import { app } from "./state.js";

const has = (table, key) => Object.prototype.hasOwnProperty.call(table, key);

export function t(key, params) {
  const strings = app.words.strings;
  let text = has(strings, key) ? strings[key] : key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
  return text;
}

// Plural forms: tn("{count} card", "{count} cards", n, params). The server sends each
// plural entry's forms and the language's rule ("n!=1" or "n>1"); English falls back
// to the two forms written here.
export function tn(singular, plural, n, params) {
  const { plurals, pluralRule } = app.words;
  const forms = has(plurals, singular) ? plurals[singular] : null;
  const index = pluralRule === "n>1" ? (n > 1 ? 1 : 0) : (n !== 1 ? 1 : 0);
  const text = forms && forms[index] !== undefined ? forms[index] : (index === 0 ? singular : plural);
  const values = Object.assign({ n }, params || {});
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export function cardName(code) {
  return app.words.cards[code] || code;
}

export function ratingName(value) {
  return app.words.ratings[value] || value;
}

export function speedName(value) {
  if (value === "off") return t("Off");
  if (value === "fast") return t("Fast");
  if (value === "slow") return t("Slow");
  return t("Normal");
}

export function presetName(value) {
  const { presetLabels, presets } = app.words;
  return presetLabels[value] || (presets[value] && presets[value].label) || value;
}

export function languageName(code) {
  return app.words.names[code] || code;
}

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
