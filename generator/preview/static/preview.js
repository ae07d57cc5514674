// scratchpress preview: the documents, their pages as images, refreshed when the server
// says a document changed (server-sent events), with each number's source a click away.
"use strict";

const base = location.pathname.replace(/[^/]*$/, ""); // "/TOKEN/": every request goes under it
const $ = (id) => document.getElementById(id);
let state = null;
let shown = null; // the document on screen
// What the pages on screen show: the document, the version of its images and the
// version of the number boxes laid over them (read a moment after the images).
let drawn = { name: null, version: null, anchored: null };

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}

function problemItem(problem) {
  const li = el("li", problem.severity, problem.text);
  if (problem.file && problem.line) {
    li.title = "show the source";
    li.style.cursor = "pointer";
    li.addEventListener("click", () => openSource(problem.file, problem.line, ""));
  }
  return li;
}

function fill(list, problems) {
  list.replaceChildren(...problems.map(problemItem));
}

function render(next) {
  state = next;
  const docs = state.documents;
  const status = $("status");
  status.className = state.stale ? "stale" : "";
  status.textContent = state.stale
    ? "The campaign no longer builds: the pages below are the last good ones (stale)."
    : state.building
      ? "building…"
      : `${docs.length} documents, up to date`;
  document.body.dataset.stale = state.stale ? "yes" : "no";
  fill($("problems"), state.problems);
  $("list").replaceChildren(
    ...docs.map((doc) => {
      const li = el("li", "", doc.title);
      li.dataset.name = doc.name;
      li.title = doc.name;
      li.classList.toggle("shown", doc.name === shown);
      li.classList.toggle("has-problems", doc.problems.length > 0);
      li.classList.toggle("waiting", !doc.ready);
      li.addEventListener("click", () => choose(doc.name));
      return li;
    }),
  );
  const wanted = hashParams().get("doc");
  if (!docs.some((d) => d.name === shown)) {
    const first = docs.find((d) => d.name === wanted) || docs[0];
    if (first) choose(first.name);
    else $("pages").replaceChildren();
    return;
  }
  draw();
}

function choose(name) {
  shown = name;
  drawn = { name: null, version: null, anchored: null };
  fetch(base + "showing?doc=" + encodeURIComponent(name), { method: "POST" });
  if (!hashParams().get("src")) history.replaceState(null, "", "#doc=" + encodeURIComponent(name));
  for (const li of $("list").children) li.classList.toggle("shown", li.dataset.name === name);
  draw();
}

function current() {
  return state && state.documents.find((d) => d.name === shown);
}

// Draw the shown document's pages, or refresh them in place when its version moved:
// each new image is loaded first, then swapped in, so the page never flashes blank.
async function draw() {
  const doc = current();
  if (!doc) return;
  const pages = $("pages");
  if (drawn.name !== doc.name) {
    pages.replaceChildren();
    drawn = { name: doc.name, version: null, anchored: null };
  }
  if (doc.pages === 0) {
    pages.replaceChildren(el("p", "", "making the pages…"));
    return;
  }
  if (doc.version !== drawn.version) {
    const version = doc.version;
    drawn.version = version;
    const rows = [...pages.querySelectorAll(".pagerow")];
    while (rows.length > doc.pages) rows.pop().remove();
    const loads = [];
    for (let index = 0; index < doc.pages; index++) {
      let row = rows[index];
      if (!row) {
        row = el("div", "pagerow");
        const page = el("div", "page");
        const img = el("img");
        img.loading = "lazy"; // pages are made as they are asked for: the ones in view
        page.append(img);
        row.append(page, el("div", "beside"));
        pages.append(row);
      }
      const [width, height] = doc.sizes[index];
      const page = row.querySelector(".page");
      page.style.aspectRatio = `${width} / ${height}`;
      const img = row.querySelector("img");
      img.alt = `${doc.title}, page ${index + 1}`;
      const src = `${base}page/${encodeURIComponent(doc.name)}/${index + 1}.png?v=${version}`;
      if (nearView(row)) {
        // Loaded first, then swapped in: the page on screen never flashes blank.
        loads.push(
          new Promise((done) => {
            const next = new Image();
            next.onload = next.onerror = () => {
              img.src = src;
              done();
            };
            next.src = src;
          }),
        );
      } else {
        img.src = src;
      }
    }
    await Promise.all(loads);
    if (drawn.version === version && shown === doc.name) {
      document.body.dataset.loaded = `${doc.name}@${version}`;
    }
  }
  if (doc.ready && doc.version !== drawn.anchored && drawn.version === doc.version) {
    // The boxes come once the server has read the new PDF's links.
    const version = doc.version;
    drawn.anchored = version;
    const response = await fetch(`${base}anchors/${encodeURIComponent(doc.name)}?v=${version}`);
    const anchors = response.ok ? await response.json() : [];
    if (drawn.anchored !== version || shown !== doc.name) return;
    pages.querySelectorAll(".page").forEach((page, index) => boxes(page, anchors[index] || []));
    document.body.dataset.anchored = `${doc.name}@${version}`;
    highlight();
  }
  // Problems beside the first page; every page marked stale when the campaign is broken.
  // Read afresh: a newer state may have come while the images loaded.
  const now = current();
  if (!now || now.name !== doc.name) return;
  const rows = pages.querySelectorAll(".pagerow");
  rows.forEach((row, index) => {
    row.querySelector(".page").classList.toggle("stale", state.stale);
    const beside = row.querySelector(".beside");
    const list = el("ul", "problems");
    if (index === 0) fill(list, now.problems);
    beside.replaceChildren(list);
  });
}

function nearView(row) {
  const box = row.getBoundingClientRect();
  return box.top < 2 * window.innerHeight && box.bottom > -window.innerHeight;
}

function boxes(page, found) {
  page.querySelectorAll(".sp-box").forEach((box) => box.remove());
  for (const a of found) {
    const box = el("a", "sp-box");
    box.style.left = `${a.x * 100}%`;
    box.style.top = `${a.y * 100}%`;
    box.style.width = `${a.width * 100}%`;
    box.style.height = `${a.height * 100}%`;
    box.dataset.file = a.file;
    box.dataset.line = a.line ?? "";
    box.dataset.entry = a.entry || "";
    box.dataset.field = a.field || "";
    box.dataset.trace = a.trace || "";
    box.addEventListener("mouseenter", (event) => tip(box, event));
    box.addEventListener("mousemove", (event) => tip(box, event));
    box.addEventListener("mouseleave", () => ($("tooltip").hidden = true));
    box.addEventListener("click", (event) => {
      event.preventDefault();
      openSource(a.file, a.line, box.dataset.trace);
    });
    page.append(box);
  }
}

function label(box) {
  const where = `${box.dataset.file}:${box.dataset.line}`;
  const what = [box.dataset.entry, box.dataset.field].filter(Boolean).join(", ");
  return `${box.dataset.trace || what}  (${where})`;
}

function tip(box, event) {
  const tooltip = $("tooltip");
  tooltip.textContent = label(box);
  tooltip.hidden = false;
  tooltip.style.left = `${event.clientX + 12}px`;
  tooltip.style.top = `${event.clientY + 14}px`;
}

async function openSource(file, line, trace) {
  const panel = $("source");
  const query = new URLSearchParams({ file, line: String(line) });
  const response = await fetch(base + "source?" + query);
  panel.hidden = false;
  $("source-trace").textContent = trace || "";
  if (!response.ok) {
    $("source-name").textContent = `${file}:${line}`;
    $("source-lines").textContent = await response.text();
    $("source-editor").hidden = true;
    return;
  }
  const source = await response.json();
  $("source-name").textContent = `${source.file}:${source.line}`;
  const editor = $("source-editor");
  editor.hidden = false;
  editor.href = source.editor;
  $("source-lines").replaceChildren(
    ...source.lines.map((item) => {
      const row = el("span", item.n === source.line ? "line target" : "line");
      row.append(el("span", "n", String(item.n)), document.createTextNode(item.text + "\n"));
      return row;
    }),
  );
}

// #src=party.yaml:12 marks every number that line produced, in the document shown, or
// else in the first document that has one.
async function highlight() {
  const src = hashParams().get("src");
  document.querySelectorAll(".sp-box.highlight").forEach((b) => b.classList.remove("highlight"));
  if (!src || src.lastIndexOf(":") < 0) return;
  const file = src.slice(0, src.lastIndexOf(":"));
  const line = src.slice(src.lastIndexOf(":") + 1);
  const hits = [...document.querySelectorAll(".sp-box")].filter(
    (b) => b.dataset.file === file && b.dataset.line === line,
  );
  hits.forEach((b) => b.classList.add("highlight"));
  if (hits.length) {
    hits[0].scrollIntoView({ block: "center" });
    return;
  }
  const response = await fetch(base + "find?" + new URLSearchParams({ file, line }));
  const holders = response.ok ? await response.json() : [];
  if (holders.length && holders[0] !== shown) choose(holders[0]);
}

$("source-close").addEventListener("click", () => ($("source").hidden = true));
window.addEventListener("hashchange", () => {
  const wanted = hashParams().get("doc");
  if (wanted && wanted !== shown && state && state.documents.some((d) => d.name === wanted)) {
    choose(wanted);
  } else {
    highlight();
  }
});

const events = new EventSource(base + "events");
events.onmessage = (event) => render(JSON.parse(event.data));
