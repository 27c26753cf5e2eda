/* studio.js — smalti studio's page: runs come as Server-Sent Events and are shown by the
   trace viewer; the controls ask the server for another run, and a field per model parameter
   re-runs it as it is edited; a model that fails to load has its file:line message shown and
   its line marked, while the last good run stays shown. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const V = window.smaltiViewer;
  /* What the browser test reads. */
  const studio = { runs: 0, failures: 0, error: null, end: null, note: "" };
  window.smaltiStudio = studio;
  document.querySelector(".brand span").textContent = "studio";

  function fill(id, value) {
    const el = $(id);
    if (document.activeElement !== el) el.value = value;
  }

  /* A field per parameter of the model (rebuilt when the names change), showing the value of the
     run; editing one re-runs the model a moment after the typing stops. */
  let paramNames = null, typing = 0;
  function showParams(list) {
    const box = $("st-params");
    const names = list.map((p) => p.name).join("\n");
    if (names !== paramNames) {
      paramNames = names;
      box.textContent = "";
      for (const p of list) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.id = "st-param-" + p.name; /* names are letters, digits and _ */
        input.dataset.name = p.name;
        input.addEventListener("input", () => {
          clearTimeout(typing);
          typing = setTimeout(() => rerun(), 250);
        });
        input.addEventListener("keydown", (e) => { if (e.key === "Enter") rerun(); });
        label.append(p.name + " ", input);
        box.append(label);
      }
      $("st-defaults").hidden = list.length === 0;
    }
    for (const p of list) {
      const input = $("st-param-" + p.name);
      input.dataset.default = p.default;
      input.title = "default: " + p.default;
      fill(input.id, p.value);
      input.classList.toggle("changed", input.value !== p.default);
    }
  }

  /* The fields that differ from their defaults, as the server's lines NAME=VALUE. */
  function paramLines() {
    return [...$("st-params").querySelectorAll("input")]
      .filter((i) => i.value !== i.dataset.default)
      .map((i) => i.dataset.name + "=" + i.value)
      .join("\n");
  }

  function onRun(ev) {
    const d = JSON.parse(ev.data);
    /* At the end (or before any run): show the new run's end; scrubbing: the same step. */
    const atEnd = studio.runs === 0 || V.step >= V.steps;
    V.show(V.base64Bytes(d.trace), atEnd ? Infinity : V.step);
    studio.runs++;
    studio.shownAt = Date.now(); /* when the new run was drawn (bench/studio_latency.js) */
    studio.error = null;
    studio.end = d.end;
    studio.note = d.note;
    $("st-error").hidden = true;
    fill("st-seed", d.seed);
    fill("st-steps", d.stepcap);
    fill("st-timeout", d.timecap);
    showParams(d.params || []);
    studio.params = d.params || [];
    const state = $("st-state");
    const size = d.size[2] > 1 ? d.size.join("×") : d.size[0] + "×" + d.size[1];
    /* A run a requirement made start again says how many attempts it took, and why (d.attempts_note). */
    const attempts = d.attempts > 1 ? ` · ${d.attempts_note}` : "";
    state.textContent = `run ${studio.runs} · ${size} · ${d.steps} steps${attempts} · ${Math.round(d.ms)} ms` + (d.note ? " · " + d.note : "");
    state.classList.toggle("capped", d.end !== "finished");
  }

  /* The model did not load: its message, and its current text with the line marked. */
  function onFailed(ev) {
    const d = JSON.parse(ev.data);
    studio.failures++;
    studio.error = d.message;
    const box = $("st-error");
    box.hidden = false;
    box.textContent = d.message + (studio.runs ? "\n(the picture is the last good run)" : "");
    const pre = $("source");
    pre.textContent = "";
    const lines = d.source.replace(/\r\n?/g, "\n").split("\n");
    let bad = null;
    lines.forEach((text, i) => {
      const el = document.createElement("span");
      el.className = "ln" + (i + 1 === d.line ? " err" : "");
      el.dataset.n = i + 1;
      el.textContent = text + "\n";
      if (i + 1 === d.line) bad = el;
      pre.append(el);
    });
    if (bad) pre.scrollTop = Math.max(0, bad.offsetTop - pre.offsetTop - pre.clientHeight / 3);
    $("st-state").textContent = "the model failed to load";
  }

  function rerun(seed) {
    const q = new URLSearchParams();
    q.set("seed", seed === undefined ? $("st-seed").value : seed);
    q.set("size", $("st-size").value || "0");
    if ($("st-steps").value) q.set("steps", $("st-steps").value);
    if ($("st-timeout").value) q.set("timeout", $("st-timeout").value);
    if (paramNames !== null && paramNames !== "") q.set("params", paramLines());
    $("st-state").textContent = "running…";
    fetch("api/run?" + q, { method: "POST" }).then((r) => {
      if (!r.ok) r.text().then((t) => { $("st-state").textContent = t.trim(); });
    });
  }

  $("st-run").addEventListener("click", () => rerun());
  $("st-defaults").addEventListener("click", () => {
    for (const i of $("st-params").querySelectorAll("input")) i.value = i.dataset.default;
    rerun();
  });
  $("st-newseed").addEventListener("click", () => {
    const seed = Math.floor(Math.random() * 2147483647);
    $("st-seed").value = seed;
    rerun(seed);
  });
  for (const id of ["st-seed", "st-size", "st-steps", "st-timeout"])
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") rerun(); });

  const events = new EventSource("events");
  events.addEventListener("run", onRun);
  events.addEventListener("failed", onFailed);
})();
