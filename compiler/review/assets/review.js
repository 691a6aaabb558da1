// The review page: draws the documents, lists and figure from the embedded data; when
// served by `rulec review --serve`, posts the engineer's decisions to the local server.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("review-data").textContent);
  const SERVE = DATA.serve === true;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const esc = (s) => String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const slug = (cls) => (cls || "none").replace(/\s+/g, "-");
  const rules = new Map(DATA.rules.map((r) => [r.id, r]));
  const statements = DATA.statements;
  const byId = new Map(statements.map((s, i) => [s.id, i]));
  const where = (s) => `${s.file}:${s.page ? "p" + s.page + ":" : ""}${s.line}`;

  // ------------------------------------------------------------------ header & filters
  function header() {
    const counts = {};
    for (const s of statements) counts[s.class || "other"] = (counts[s.class || "other"] || 0) + 1;
    $("#title").textContent = `Review: ${DATA.title || "manuals"}`;
    $("#bundle").textContent = `bundle ${DATA.bundle_id} · ${DATA.rules.length} rule(s) · ` +
      `${DATA.findings.length} knowledge-base finding(s)` +
      (DATA.stale ? ` · ${DATA.stale} decision(s) on changed statements` : "");
    $("#counts").innerHTML = DATA.classes.map((c) =>
      `<span><span class="badge b-${slug(c)}">${esc(c)}</span> ${counts[c] || 0}</span>`).join("") +
      (counts.other ? `<span class="muted">other ${counts.other}</span>` : "");
    $("#classes").innerHTML = DATA.classes.map((c) =>
      `<label><input type="checkbox" name="class" value="${esc(c)}" checked> ${esc(c)}</label>`).join(" ");
    const params = new Set();
    for (const s of statements) for (const p of s.params) params.add(p);
    $("#param").innerHTML = `<option value="">any parameter</option>` +
      Array.from(params).sort().map((p) => `<option value="${esc(p)}">${esc(p)}</option>`).join("");
    for (const el of $$("#toolbar input, #toolbar select")) {
      el.addEventListener("input", applyFilters);
      el.addEventListener("change", applyFilters);
    }
  }

  function filterState() {
    return {
      classes: new Set($$("#classes input:checked").map((el) => el.value)),
      sev: $("#severity").value,
      param: $("#param").value,
      q: $("#search").value.trim().toLowerCase(),
    };
  }

  function matches(s, f) {
    if (!f.classes.has(s.class)) return false;
    if (f.sev && !s.severities.includes(f.sev)) return false;
    if (f.param && !s.params.includes(f.param)) return false;
    if (f.q) {
      if (s.hay === undefined) {
        s.hay = [s.text, s.reason, s.file, ...s.rules,
          ...s.rules.map((id) => (rules.get(id) || {}).words || "")].join(" ").toLowerCase();
      }
      if (!s.hay.includes(f.q)) return false;
    }
    return true;
  }

  let marked = null; // statement index -> its span(s) in the text and its row in the list
  function applyFilters() {
    if (marked === null) {
      marked = statements.map(() => []);
      for (const el of $$("#docs [data-i], #statements tr[data-i]")) marked[+el.dataset.i].push(el);
    }
    const f = filterState();
    let shown = 0;
    const visible = new Set();
    statements.forEach((s, i) => {
      const ok = matches(s, f);
      if (ok) {
        shown += 1;
        for (const r of s.rules) visible.add(r);
      }
      for (const el of marked[i]) {
        if (el.tagName === "TR") el.hidden = !ok; else el.classList.toggle("dim", !ok);
      }
    });
    $("#shown").textContent = `${shown} of ${statements.length} statement(s) shown`;
    for (const card of $$("#rules .card")) card.hidden = !visible.has(card.dataset.rule);
  }

  // ------------------------------------------------------------------ documents
  function documents() {
    const out = [];
    for (const doc of DATA.documents) {
      out.push(`<section class="doc"><h2>${esc(doc.file)}</h2>`);
      for (const page of doc.pages) {
        out.push(`<div class="page">${page.number ? `<h3>Page ${page.number}</h3>` : ""}<pre class="text">`);
        for (const seg of page.segments) {
          if (typeof seg === "string") { out.push(esc(seg)); continue; }
          const s = statements[seg.s];
          out.push(`<span class="st c-${slug(s.class)}" id="s-${esc(s.id)}" data-i="${seg.s}" ` +
            `title="${esc(s.class || "other")}${s.rules.length ? ": " + esc(s.rules.join(", ")) : ""}">` +
            `${esc(seg.text)}</span>`);
        }
        out.push(`</pre></div>`);
      }
      if (doc.unplaced.length) {
        out.push(`<div class="page"><h3>Statements read from tables and lists</h3><pre class="text">`);
        for (const i of doc.unplaced) {
          const s = statements[i];
          out.push(`<span class="st c-${slug(s.class)}" id="s-${esc(s.id)}" data-i="${i}">${esc(s.text)}</span>\n`);
        }
        out.push(`</pre></div>`);
      }
      out.push(`</section>`);
    }
    $("#docs").innerHTML = out.join("");
    for (const el of $$("#docs .st")) el.addEventListener("click", () => select(+el.dataset.i, false));
  }

  // ------------------------------------------------------------------ lists
  function statementList() {
    const rows = statements.map((s, i) => `<tr class="row" data-i="${i}"><td>` +
      `<span class="badge b-${slug(s.class)}">${esc(s.class || "other")}</span></td>` +
      `<td>${esc(where(s))}</td><td>${esc(s.text)}<div class="muted">${esc(s.reason)}</div></td>` +
      `<td>${s.rules.map((r) => `<a href="#r-${esc(r)}" class="rule-link">${esc(r)}</a>`).join(" ")}</td></tr>`);
    $("#statements").innerHTML = `<table><colgroup><col class="c-class"><col class="c-where"><col>` +
      `<col class="c-rules"></colgroup><thead><tr><th>class</th><th>where</th><th>statement</th>` +
      `<th>rules</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
    for (const tr of $$("#statements tr.row")) tr.addEventListener("click", (ev) => {
      if (ev.target.tagName !== "A") select(+tr.dataset.i, true);
    });
    wireCards($("#statements"));
  }

  function ruleCard(r, inDetail) {
    const dl = [
      ["condition as read", esc(r.words) + (r.duration_s !== null ? ` for more than ${r.duration_s} s` : "")],
      ["as boxes (sensor units)", r.boxes.map((b) => esc(b)).join("<br><b>or</b> ")],
      ["converted units", r.converted.map(esc).join("<br>")],
      ["advisory (template: {condition} is filled with the live values)", esc(r.advisory)],
      [r.kind === "procedure" ? "steps" : "action", r.steps.length ?
        "<ol>" + r.steps.map((t) => `<li>${esc(t)}</li>`).join("") + "</ol>" : esc(r.action)],
      ["knowledge-base findings", DATA.findings.filter((f) => f.rules.includes(r.id))
        .map((f) => `<b>${esc(f.kind.replace(/_/g, " "))}</b>: ${esc(f.message)}`).join("<br>")],
      ["notes", r.notes.map(esc).join("<br>")],
    ].filter(([, v]) => v).map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
    const anchor = inDetail ? "" : ` id="r-${esc(r.id)}"`;
    return `<div class="card sev-${esc(r.severity)}"${anchor} data-rule="${esc(r.id)}">` +
      `<b>${esc(r.id)}</b> <span class="badge b-${esc(r.severity)}">${esc(r.severity)}</span> ` +
      `<span class="muted">${esc(r.kind)}</span> · <a href="#s-${esc(r.statement)}" class="source-link" ` +
      `data-statement="${esc(r.statement)}">${esc(r.file)}:${r.page ? "p" + r.page + ":" : ""}${esc(r.line)}</a>` +
      `<dl>${dl}</dl>${SERVE ? ruleForms(r) : ""}</div>`;
  }

  function ruleList() {
    $("#rules").innerHTML = DATA.rules.map((r) => ruleCard(r, false)).join("") || "<p>No rules.</p>";
    wireCards($("#rules"));
  }

  function wireCards(root) {
    for (const a of $$(".source-link", root)) a.addEventListener("click", (ev) => {
      ev.preventDefault();
      const i = byId.get(a.dataset.statement);
      if (i !== undefined) select(i, true);
    });
    for (const a of $$(".rule-link", root)) a.addEventListener("click", (ev) => {
      ev.preventDefault(); showRule(a.getAttribute("href").slice(3));
    });
    if (SERVE) wireForms(root);
  }

  function showRule(id) {
    tab("rules");
    const card = document.getElementById("r-" + id);
    if (card) { card.hidden = false; card.scrollIntoView({ block: "center" }); card.classList.add("selected"); }
  }

  function findings() {
    const rows = DATA.findings.map((f) => `<div class="finding"><b>${esc(f.kind.replace(/_/g, " "))}</b>: ` +
      `${f.rules.map((r) => `<a href="#r-${esc(r)}" class="rule-link">${esc(r)}</a>`).join(", ")}` +
      `<div>${esc(f.message)}</div></div>`);
    $("#findings").innerHTML = rows.join("") || "<p>No findings: no rule is unsatisfiable, never fires, " +
      "is shadowed, or overlaps an exclusion.</p>";
    wireCards($("#findings"));
  }

  function decisionLog() {
    const rows = DATA.decisions.map((d) => `<tr><td>${esc(d.when)}</td><td>${esc(d.who)}</td>` +
      `<td>${esc(d.action)}</td><td>${esc(d.rule_id)}</td><td>${esc(d.file)}:${esc(d.line)}</td><td>${esc(d.why)}</td></tr>`);
    $("#decisions").innerHTML = rows.length ? `<table><thead><tr><th>when</th><th>who</th><th>decision</th>` +
      `<th>rule</th><th>statement</th><th>why</th></tr></thead><tbody>${rows.join("")}</tbody></table>` :
      `<p>No decisions yet.${SERVE ? "" : " Run <code>rulec review --serve</code> to make them."}</p>`;
  }

  // ------------------------------------------------------------------ selection
  function select(i, scrollDoc) {
    const s = statements[i];
    for (const el of $$(".selected")) el.classList.remove("selected");
    for (const el of $$(`[data-i="${i}"]`)) el.classList.add("selected");
    const span = document.getElementById("s-" + s.id);
    if (span && scrollDoc) span.scrollIntoView({ block: "center" });
    const row = $(`#statements tr[data-i="${i}"]`);
    if (row && !scrollDoc) row.scrollIntoView({ block: "nearest" });
    const parts = [`<div><span class="badge b-${slug(s.class)}">${esc(s.class || "other")}</span> ` +
      `<b>${esc(where(s))}</b></div><p>${esc(s.text)}</p>`];
    if (s.reason) parts.push(`<p class="muted">reason: ${esc(s.reason)}</p>`);
    for (const d of s.decisions) parts.push(`<p class="muted">${esc(d.action)} by ${esc(d.who)} ` +
      `(${esc(d.when)}): ${esc(d.why)}</p>`);
    for (const id of s.rules) if (rules.has(id)) parts.push(ruleCard(rules.get(id), true));
    if (SERVE && (s.class === "needs review" || s.class === "unreadable" || s.class === "descriptive")
        && s.kind !== "changed") parts.push(createForm(s));
    const detail = $("#detail");
    detail.innerHTML = `<button type="button" id="close-detail" title="close">×</button>` + parts.join("");
    $("#close-detail").addEventListener("click", () => {
      detail.innerHTML = "";
      for (const el of $$(".selected")) el.classList.remove("selected");
    });
    wireCards(detail);
  }

  function tab(name) {
    for (const b of $$("nav.tabs button")) b.classList.toggle("active", b.dataset.tab === name);
    for (const t of $$(".tab")) t.classList.toggle("active", t.id === "tab-" + name);
  }

  // ------------------------------------------------------------------ the figure
  function plotControls() {
    const numeric = DATA.parameters.filter((p) => !p.states.length);
    const opts = numeric.map((p) => `<option value="${esc(p.name)}">${esc(p.name)}</option>`).join("");
    $("#plot-x").innerHTML = opts; $("#plot-y").innerHTML = opts;
    if (numeric.length > 1) $("#plot-y").selectedIndex = 1;
    for (const el of [$("#plot-x"), $("#plot-y")]) {
      el.addEventListener("input", plot);
      el.addEventListener("change", plot);
    }
    plot();
  }

  function plot() {
    const x = $("#plot-x").value, y = $("#plot-y").value, svg = $("#plot");
    if (!x || !y || x === y) { svg.innerHTML = `<text x="20" y="30">Choose two different parameters.</text>`; return; }
    const W = 640, H = 440, L = 70, B = 50, T = 20, R = 20;
    const shown = DATA.boxes.filter((b) => b.sides[x] || b.sides[y]);
    const limits = (name) => {
      const p = DATA.parameters.find((q) => q.name === name);
      const vals = [];
      for (const b of shown) if (b.sides[name]) for (const v of b.sides[name].slice(0, 2)) if (v !== null) vals.push(v);
      let lo = vals.length ? Math.min(...vals) : (p.range[0] ?? 0), hi = vals.length ? Math.max(...vals) : (p.range[1] ?? 1);
      const span = hi > lo ? hi - lo : Math.max(Math.abs(lo), 1);
      lo -= 0.2 * span; hi += 0.2 * span;
      // the sensor's range, where it is near, is where the axis starts or stops (0 psi)
      if (p.range[0] !== null && p.range[0] > lo - 0.4 * span && p.range[0] < hi) lo = p.range[0];
      if (p.range[1] !== null && p.range[1] < hi + 0.4 * span && p.range[1] > lo) hi = p.range[1];
      return [lo, hi, p];
    };
    const [x0, x1, px] = limits(x), [y0, y1, py] = limits(y);
    const sx = (v) => L + (Math.min(Math.max(v, x0), x1) - x0) / (x1 - x0) * (W - L - R);
    const sy = (v) => H - B - (Math.min(Math.max(v, y0), y1) - y0) / (y1 - y0) * (H - B - T);
    const colors = { warning: "#c62828", caution: "#ef8a17", advisory: "#1f6fb4" };
    const parts = [`<line class="axis" x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}"/>`,
      `<line class="axis" x1="${L}" y1="${T}" x2="${L}" y2="${H - B}"/>`];
    for (let k = 0; k <= 4; k++) {
      const vx = x0 + (x1 - x0) * k / 4, vy = y0 + (y1 - y0) * k / 4;
      parts.push(`<text x="${sx(vx)}" y="${H - B + 16}" text-anchor="middle">${+vx.toPrecision(4)}</text>`);
      parts.push(`<text x="${L - 6}" y="${sy(vy) + 4}" text-anchor="end">${+vy.toPrecision(4)}</text>`);
    }
    parts.push(`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">${esc(x)}${px.unit ? " (" + esc(px.unit) + ")" : ""}</text>`);
    parts.push(`<text transform="translate(14 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${esc(y)}${py.unit ? " (" + esc(py.unit) + ")" : ""}</text>`);
    for (const b of shown) {
      const [xl, xh] = b.sides[x] || [null, null], [yl, yh] = b.sides[y] || [null, null];
      const left = sx(xl ?? x0), right = sx(xh ?? x1), top = sy(yh ?? y1), bottom = sy(yl ?? y0);
      const c = colors[b.severity] || "#555";
      parts.push(`<g class="plotted" data-rule="${esc(b.rule)}"><rect class="box" x="${left}" y="${top}" ` +
        `width="${Math.max(right - left, 1)}" height="${Math.max(bottom - top, 1)}" fill="${c}" stroke="${c}">` +
        `<title>${esc(b.rule)} (${esc(b.severity)})</title></rect>` +
        `<text x="${left + 3}" y="${top + 12}" fill="${c}">${esc(b.rule)}</text></g>`);
    }
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.innerHTML = parts.join("");
    $("#plot-note").textContent = `${shown.length} box(es) on ${x} or ${y}; a rule on one of them only is a band across the other.`;
    for (const g of $$("g.plotted", svg)) g.addEventListener("click", () => showRule(g.dataset.rule));
  }

  // ------------------------------------------------------------------ decisions (served)
  function atomsOf(cond, path, out) {
    if (cond.all || cond.any) (cond.all || cond.any).forEach((c, k) => atomsOf(c, path.concat([cond.all ? "all" : "any", k]), out));
    else if (cond.not) atomsOf(cond.not, path.concat(["not"]), out);
    else if (cond.value !== undefined) out.push([path, cond]);
    return out;
  }

  function ruleForms(r) {
    if (r.kind !== "if_then" && r.kind !== "constraint") return "";
    const atoms = atomsOf(r.object.condition, [], []);
    const fields = atoms.map(([, a], k) => `<div>${esc(a.param)} ${esc(a.op)} ` +
      `<input name="value-${k}" size="14" value="${esc(Array.isArray(a.value) ? a.value.join(", ") : a.value)}"> ` +
      `<input name="unit-${k}" size="7" value="${esc(a.unit || "")}"></div>`).join("");
    const sev = ["warning", "caution", "advisory"].map((v) =>
      `<option${v === r.severity ? " selected" : ""}>${v}</option>`).join("");
    return `<form class="decide" data-rule="${esc(r.id)}" data-statement="${esc(r.statement)}">` +
      `<div>why <input type="text" name="why" placeholder="why (kept in the decisions log)"></div>` +
      `<button type="button" data-act="accept">Accept</button> <button type="button" data-act="reject">Reject</button>` +
      `<details><summary>Correct</summary>${fields}<div>severity <select name="severity">${sev}</select></div>` +
      `<div>action <input type="text" name="action" value="${esc(r.object.action)}"></div>` +
      `<button type="button" data-act="correct">Save correction</button></details>` +
      `<div class="error" role="alert"></div></form>`;
  }

  function createForm(s) {
    const params = DATA.parameters.filter((p) => !p.states.length);
    const opts = params.map((p) => `<option value="${esc(p.name)}" data-unit="${esc(p.unit)}">${esc(p.name)}</option>`).join("");
    return `<form class="decide" data-statement="${esc(s.id)}" data-create="1"><b>Make a rule of this statement</b>` +
      `<div>kind <select name="kind"><option value="if_then">if then</option><option value="constraint">constraint (fires when violated)</option></select></div>` +
      `<div><select name="param">${opts}</select> <select name="op">` +
      [">", ">=", "<", "<=", "==", "between", "outside"].map((o) => `<option>${esc(o)}</option>`).join("") +
      `</select> <input name="value" size="12" placeholder="value (A, B for a range)"> <input name="unit" size="7" placeholder="unit"></div>` +
      `<div>severity <select name="severity"><option>warning</option><option selected>caution</option><option>advisory</option></select></div>` +
      `<div>action <input type="text" name="action"></div>` +
      `<div>why <input type="text" name="why"></div>` +
      `<button type="button" data-act="create">Make rule</button><div class="error" role="alert"></div></form>`;
  }

  // One number, or two ("A, B") for a range: never a thousands separator, which would
  // read 1,800 as the range 1 to 800.
  function number(text, ranged) {
    const parts = String(text).split(",").map((t) => t.trim());
    const nums = parts.map((t) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN));
    if (nums.some((n) => !Number.isFinite(n))) throw new Error(`not a number: ${text} (write 1800, not 1,800)`);
    if (ranged && nums.length !== 2) throw new Error(`a range needs two numbers "A, B": ${text}`);
    if (!ranged && nums.length !== 1) throw new Error(`one number, without thousands separators: ${text}`);
    return ranged ? nums : nums[0];
  }
  const RANGED = new Set(["between", "outside"]);

  function wireForms(root) {
    for (const form of $$("form[data-create]", root)) {
      // a blank unit is the sensor's own: say which it is
      const unitHint = () => {
        const opt = form.elements.param.selectedOptions[0];
        form.elements.unit.placeholder = opt && opt.dataset.unit ? `${opt.dataset.unit} (sensor's)` : "unit";
      };
      form.elements.param.addEventListener("change", unitHint);
      unitHint();
    }
    for (const form of $$("form.decide", root)) for (const b of $$("button[data-act]", form)) {
      b.addEventListener("click", () => {
        const err = $(".error", form);
        try { send(form, b.dataset.act); } catch (e) { err.textContent = e.message; }
      });
    }
  }

  function send(form, act) {
    const who = $("#who").value.trim();
    if (!who) throw new Error("give your name (who) at the top of the page first");
    const body = { action: act, statement: form.dataset.statement, who, why: form.elements.why.value };
    if (act === "create") {
      const f = form.elements;
      const cond = { param: f.param.value, op: f.op.value, value: number(f.value.value, RANGED.has(f.op.value)) };
      if (f.unit.value.trim()) cond.unit = f.unit.value.trim();
      const action = f.action.value.trim();
      if (!action) throw new Error("give the action text");
      body.rule = { schema: 1, id: "", kind: f.kind.value, severity: f.severity.value, condition: cond, action };
    } else {
      const r = rules.get(form.dataset.rule);
      body.rule_id = r.id;
      if (act === "correct") {
        const obj = JSON.parse(JSON.stringify(r.object));
        atomsOf(obj.condition, [], []).forEach(([, a], k) => {
          a.value = number(form.elements["value-" + k].value, RANGED.has(a.op));
          const unit = form.elements["unit-" + k].value.trim();
          if (unit) a.unit = unit; else delete a.unit;
        });
        obj.severity = form.elements.severity.value;
        const action = form.elements.action.value.trim();
        if (action !== obj.action) { obj.action = action; delete obj.template; }
        body.rule = obj;
      }
    }
    fetch("api/decision", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then((resp) => resp.json().then((answer) => [resp.ok, answer]))
      .then(([ok, answer]) => {
        if (!ok) { $(".error", form).textContent = answer.error || "refused"; return; }
        sessionStorage.setItem("rulec-review-select", body.statement);
        location.reload();
      }, (e) => { $(".error", form).textContent = `the server did not answer: ${e}`; });
  }

  // ------------------------------------------------------------------ start
  header();
  documents();
  statementList();
  ruleList();
  findings();
  decisionLog();
  plotControls();
  for (const b of $$("nav.tabs button")) b.addEventListener("click", () => tab(b.dataset.tab));
  $("#serve-only").hidden = !SERVE;
  if (SERVE) {
    $("#who").value = localStorage.getItem("rulec-review-who") || DATA.who || "";
    $("#who").addEventListener("input", () => localStorage.setItem("rulec-review-who", $("#who").value));
    const again = sessionStorage.getItem("rulec-review-select");
    if (again && byId.has(again)) { sessionStorage.removeItem("rulec-review-select"); select(byId.get(again), true); }
  }
  applyFilters();
  document.body.dataset.ready = "1";
})();
