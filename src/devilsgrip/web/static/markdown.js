// A small Markdown renderer for the rules text: headings, paragraphs, lists,
// tables, code, bold, italics.  It builds DOM nodes (never innerHTML), so
// nothing in the text can run.

function inline(parent, text) {
  // **bold**, *italic* or _italic_, `code`
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    const token = match[0];
    let el;
    if (token.startsWith("**")) {
      el = document.createElement("strong");
      el.textContent = token.slice(2, -2);
    } else if (token.startsWith("`")) {
      el = document.createElement("code");
      el.textContent = token.slice(1, -1);
    } else {
      el = document.createElement("em");
      el.textContent = token.slice(1, -1);
    }
    parent.append(el);
    last = match.index + token.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

function tableRow(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

export function renderMarkdown(text) {
  const root = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length + 1, 6);
      const h = document.createElement("h" + level);
      inline(h, heading[2]);
      root.append(h);
      i += 1;
      continue;
    }
    if (line.startsWith("```")) {
      const pre = document.createElement("pre");
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].startsWith("```")) { body.push(lines[i]); i += 1; }
      i += 1;
      pre.textContent = body.join("\n");
      root.append(pre);
      continue;
    }
    if (/^( {4}|\t)/.test(line)) {
      const pre = document.createElement("pre");
      const body = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i]) || !lines[i].trim())) {
        body.push(lines[i].replace(/^( {4}|\t)/, ""));
        i += 1;
      }
      pre.textContent = body.join("\n").trimEnd();
      root.append(pre);
      continue;
    }
    if (line.trim().startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) { rows.push(lines[i]); i += 1; }
      const table = document.createElement("table");
      const body = document.createElement("tbody");
      let head = null;
      rows.forEach((raw, n) => {
        const cells = tableRow(raw);
        if (cells.every((c) => /^:?-{2,}:?$/.test(c))) return;
        const tr = document.createElement("tr");
        const isHead = n === 0 && rows.length > 1 && /^\s*\|?\s*:?-{2,}/.test(rows[1]);
        for (const c of cells) {
          const cell = document.createElement(isHead ? "th" : "td");
          inline(cell, c);
          tr.append(cell);
        }
        if (isHead) {
          head = document.createElement("thead");
          head.append(tr);
        } else {
          body.append(tr);
        }
      });
      if (head) table.append(head);
      table.append(body);
      const wrap = document.createElement("div");
      wrap.className = "table-wrap";
      wrap.append(table);
      root.append(wrap);
      continue;
    }
    const bullet = /^\s*([-*+]|\d+[.)])\s+(.*)$/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = document.createElement(ordered ? "ol" : "ul");
      let item = null;
      while (i < lines.length && lines[i].trim()) {
        const m = bullet.exec(lines[i]);
        if (m) {
          item = document.createElement("li");
          inline(item, m[2]);
          list.append(item);
        } else if (item) {
          item.append(" ");
          inline(item, lines[i].trim());
        }
        i += 1;
      }
      root.append(list);
      continue;
    }
    const para = [line.trim()];
    i += 1;
    while (
      i < lines.length && lines[i].trim() && !/^(#{1,6}\s|```|\s*\||\s*([-*+]|\d+[.)])\s)/.test(lines[i])
    ) {
      para.push(lines[i].trim());
      i += 1;
    }
    const p = document.createElement("p");
    inline(p, para.join(" "));
    root.append(p);
  }
  return root;
}
