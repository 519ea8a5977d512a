// The player's games out of the page and into it, as a file of game records: the file
// "devilsgrip export" writes and "devilsgrip import" reads, so games go between the
// browser (or the installed app) and the desktop program.  Export downloads the file the
// server writes; import sends the text of a file the player chooses, and the server
// checks each record, keeps the good ones and tells what it did (how many came in,
// which were refused and why; a damaged file is refused whole).

import { localDay } from "./daily.js";
import { openDialog } from "./dialogs.js";
import { t } from "./i18n.js";
import { $ } from "./state.js";
import { request } from "./transport.js";

// The menu's entries: [label, action].
export function recordsMenu() {
  return [[t("Export games"), () => exportGames()], [t("Import games…"), () => chooseFile()]];
}

function paragraph(text, className = "") {
  return Object.assign(document.createElement("p"), { textContent: text, className });
}

function show(title, ...lines) {
  $("records-title").textContent = title;
  $("records-body").replaceChildren(...lines);
  openDialog("dlg-records");
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function exportGames() {
  const title = t("Export games");
  let doc;
  try {
    doc = await request("GET", "/api/export?" + new URLSearchParams({ date: localDay() }));
  } catch (error) {
    show(title, paragraph(error.message, "form-error"));
    return;
  }
  if (doc.count) download(doc.name, doc.text);
  show(title, paragraph(doc.said), ...(doc.count ? [paragraph(t("The desktop program reads this file with: devilsgrip import FILE"), "note")] : []));
}

// A file chooser, opened from the menu; the chosen file is imported.
function chooseFile() {
  const input = Object.assign(document.createElement("input"), { type: "file", accept: ".txt,text/plain", hidden: true });
  input.id = "records-file";
  input.setAttribute("aria-label", t("Import games…"));
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.remove();
    if (file) importFile(file);
  });
  input.addEventListener("cancel", () => input.remove());
  $("records-file")?.remove();
  document.body.append(input);
  input.click();
}

export async function importFile(file) {
  const title = t("Import games");
  show(title, paragraph(t("Reading {name}…", { name: file.name })));
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    show(title, paragraph(t("This file is damaged: it is not a text file of game records. Nothing was imported."), "form-error"));
    return;
  }
  let doc;
  try {
    doc = await request("POST", "/api/import", { records: text });
  } catch (error) {
    show(title, paragraph(error.message, "form-error"));
    return;
  }
  const refused = document.createElement("ul");
  refused.className = "records-refused";
  refused.append(...doc.refused.map((r) => Object.assign(document.createElement("li"), { textContent: r.text })));
  show(title, paragraph(doc.said), ...(doc.refused.length ? [refused] : []));
}
