// The page's words: translations and plural forms, card, rating and preset names,
// all from the server (/api/i18n), in the player's language.

import { api } from "./api.js";
import { app } from "./state.js";

export const LANGUAGE_NAMES = { en: "English", fr: "Français", da: "Dansk", es: "Español", hu: "Magyar" };

// ------------------------------------------------------------ translations
export let strings = {};
export let plurals = {};
export let pluralRule = "n!=1";
export let cardLabels = {};
export let ratingLabels = {};
export let presetLabels = {};
export let presets = {}; // name -> {label, options}: the server's presets, for the settings form
export let languages = ["en", "fr", "da", "es", "hu"];

export function t(key, params) {
  let text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
  return text;
}

// Plural forms: tn("{count} card", "{count} cards", n, params). The server sends each
// plural entry's forms and the language's rule ("n!=1" or "n>1"); English falls back
// to the two forms written here.
export function tn(singular, plural, n, params) {
  const forms = Object.prototype.hasOwnProperty.call(plurals, singular) ? plurals[singular] : null;
  const index = pluralRule === "n>1" ? (n > 1 ? 1 : 0) : (n !== 1 ? 1 : 0);
  let text = forms && forms[index] !== undefined ? forms[index] : (index === 0 ? singular : plural);
  const values = Object.assign({ n }, params || {});
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// card, rating and preset names come from the server (/api/i18n), in the player's language
export function cardName(code) {
  return cardLabels[code] || code;
}

export function ratingName(value) {
  return ratingLabels[value] || value;
}

export function speedName(value) {
  if (value === "off") return t("Off");
  if (value === "fast") return t("Fast");
  if (value === "slow") return t("Slow");
  return t("Normal");
}

export function presetName(value) {
  return presetLabels[value] || (presets[value] && presets[value].label) || value;
}


export async function loadStrings() {
  try {
    const data = await api("GET", "/api/i18n");
    strings = data.strings || {};
    plurals = data.plurals || {};
    pluralRule = data.plural_rule || "n!=1";
    cardLabels = data.cards || {};
    ratingLabels = data.ratings || {};
    presetLabels = data.presets || {};
    if (Array.isArray(data.languages) && data.languages.length) {
      languages = data.languages.map((l) => (typeof l === "string" ? l : l.code));
    }
    if (data.names) Object.assign(LANGUAGE_NAMES, data.names);
    if (data.lang) app.settings.lang = data.lang;
  } catch {
    strings = {};
    plurals = {};
  }
}

// the server's presets (GET /api/settings), for the settings form
export function setPresets(value) {
  presets = value;
}
