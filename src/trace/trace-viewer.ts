/**
 * The trace page's own script: draws the timeline from the data embedded in the page (axis
 * ticks, zoom with the wheel or the buttons, pan by dragging, a minimum width for short
 * steps, every attempt its own segment, replan markers with their reasons) and shows a
 * step's details on click. It writes text only through `textContent` and attributes, never
 * markup, so nothing from an events file can run.
 */
export const viewerScript = String.raw`
(() => {
  const started = performance.now();
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const colours = { succeeded: "#3b8f5a", failed: "#c0392b", skipped: "#9aa0a6", cancelled: "#8e6c3a", waiting: "#d4a017", running: "#4a90d9", interrupted: "#e67e22", deadline_exceeded: "#8e6c3a", budget_exceeded: "#8e6c3a" };
  const svgNs = "http://www.w3.org/2000/svg";
  const host = document.getElementById("timeline");
  const details = document.getElementById("details");
  const left = 76, laneHeight = 26, axisHeight = 26, minWidth = 3;
  const duration = Math.max(1, data.durationMs);
  let view = [0, duration];

  const el = (name, attributes, parent) => {
    const node = document.createElementNS(svgNs, name);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
    if (parent) parent.appendChild(node);
    return node;
  };
  const text = (parent, x, y, content, attributes) => {
    const node = el("text", Object.assign({ x, y }, attributes || {}), parent);
    node.textContent = content;
    return node;
  };
  const niceStep = (span, count) => {
    const raw = span / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const factor of [1, 2, 5, 10]) if (raw <= factor * power) return factor * power;
    return 10 * power;
  };
  const ms = (value) => (value >= 1000 ? (value / 1000).toFixed(value >= 10000 ? 1 : 2) + " s" : (Math.round(value * 10) / 10) + " ms");

  function render() {
    const width = Math.max(480, host.clientWidth || 960);
    const plot = width - left - 12;
    const scale = plot / (view[1] - view[0]);
    const x = (time) => left + (time - view[0]) * scale;
    const modelTop = axisHeight + 6;
    const lanesTop = modelTop + laneHeight + 8;
    const height = lanesTop + Math.max(1, data.lanes) * laneHeight + 12 + Math.min(3, data.replans.length) * 12;
    const svg = el("svg", { width, height, role: "img", "aria-label": "timeline" });
    el("defs", {}, svg).appendChild(clip(width, height));
    // Axis and grid.
    const step = niceStep(view[1] - view[0], Math.max(2, Math.floor(plot / 90)));
    for (let tick = Math.ceil(view[0] / step) * step; tick <= view[1]; tick += step) {
      el("line", { class: "tick", x1: x(tick), x2: x(tick), y1: axisHeight - 6, y2: height - 8, stroke: "#eaeef2" }, svg);
      text(svg, x(tick) + 2, axisHeight - 10, ms(tick), { class: "tick-label", fill: "#57606a" });
    }
    text(svg, 4, modelTop + 17, "model");
    for (let lane = 0; lane < data.lanes; lane += 1) text(svg, 4, lanesTop + lane * laneHeight + 17, "lane " + (lane + 1));
    const body = el("g", { "clip-path": "url(#plot)" }, svg);
    for (const call of data.modelCalls) {
      const start = x(call.startedAt), w = Math.max(minWidth, x(call.endedAt) - start);
      const g = el("g", { class: "model-call" }, body);
      el("rect", { x: start, y: modelTop + 3, width: w, height: laneHeight - 6, fill: "#6f42c1", opacity: 0.8 }, g);
      text(el("title", {}, g), 0, 0, call.purpose + " call, " + ms(call.endedAt - call.startedAt));
      if (w > 40) text(g, start + 3, modelTop + 17, call.purpose, { fill: "#fff" });
    }
    data.bars.forEach((bar, index) => {
      const top = lanesTop + bar.lane * laneHeight;
      const g = el("g", { class: "step", "data-step-id": bar.stepId, "data-version": bar.version, "data-status": bar.status, "data-index": index, tabindex: 0 }, body);
      bar.segments.forEach((segment, attempt) => {
        const start = x(segment.startedAt), w = Math.max(minWidth, x(segment.endedAt) - start);
        const last = attempt === bar.segments.length - 1;
        el("rect", { class: "attempt", x: start, y: top + 3, width: w, height: laneHeight - 6, rx: 2, fill: last ? colours[bar.status] || "#555" : "#e8a09a" }, g);
        if (!last) el("line", { x1: start + w, x2: x(bar.segments[attempt + 1].startedAt), y1: top + laneHeight / 2, y2: top + laneHeight / 2, stroke: "#c0392b", "stroke-dasharray": "2 2" }, g);
      });
      const start = x(bar.startedAt), w = x(bar.endedAt) - start;
      if (w > 24) text(g, start + 4, top + 17, bar.stepId, { fill: "#fff" });
      text(el("title", {}, g), 0, 0, "step " + bar.stepId + " (plan " + bar.version + "): " + bar.task + " — " + bar.status + ", " + ms(bar.endedAt - bar.startedAt) + (bar.attempts > 1 ? ", " + bar.attempts + " attempts" : ""));
      g.addEventListener("click", () => show(index));
      g.addEventListener("keydown", (event) => event.key === "Enter" && show(index));
    });
    data.replans.forEach((replan, index) => {
      const g = el("g", { class: "replan" }, body);
      const colour = replan.dropped ? "#959da5" : "#e36209";
      el("line", { x1: x(replan.at), x2: x(replan.at), y1: axisHeight - 4, y2: height - 8, stroke: colour, "stroke-dasharray": "4 3", "stroke-width": 1.5 }, g);
      const label = "replan " + replan.replans + (replan.dropped ? " (dropped)" : "") + ": " + replan.reason;
      // Labels of nearby replans take turns on three rows; the whole reason is in the list below.
      const next = data.replans[index + 1];
      const room = next ? Math.max(60, x(next.at) - x(replan.at) - 6) * 3 : width - x(replan.at);
      const chars = Math.max(8, Math.floor(room / 6));
      text(g, x(replan.at) + 3, height - 6 - (index % 3) * 12, label.length > chars ? label.slice(0, chars - 1) + "…" : label, { fill: colour, class: "replan-label" });
      text(el("title", {}, g), 0, 0, label);
    });
    // A pause: the gap from where the run stopped to where a later process went on, shaded.
    data.pauses.forEach((pause) => {
      const g = el("g", { class: "pause" }, body);
      const end = pause.resumedAt === undefined ? data.durationMs : pause.resumedAt;
      el("rect", { x: x(pause.at), y: axisHeight, width: Math.max(2, x(end) - x(pause.at)), height: height - axisHeight - 8, fill: "#d4a017", "fill-opacity": 0.15 }, g);
      text(el("title", {}, g), 0, 0, "paused (" + pause.status + ")" + (pause.resumedAt === undefined ? "" : ", went on after " + ms(end - pause.at)));
    });
    host.replaceChildren(svg);
  }

  function clip(width, height) {
    const path = document.createElementNS(svgNs, "clipPath");
    path.setAttribute("id", "plot");
    el("rect", { x: left, y: 0, width: width - left, height }, path);
    return path;
  }

  function show(index) {
    const bar = data.bars[index];
    const rows = [
      ["step", bar.stepId + " (plan " + bar.version + ")"],
      ["task", bar.task],
      ["tool", bar.tool || (bar.model ? "agent (model " + bar.model + ")" : "agent")],
      ["arguments", bar.args === undefined ? "" : JSON.stringify(bar.args, null, 1)],
      ["status", bar.status],
      ["started, took", ms(bar.startedAt) + ", " + ms(bar.endedAt - bar.startedAt)],
      ["attempts", bar.segments.map((segment, attempt) => "#" + (attempt + 1) + " " + ms(segment.startedAt) + "–" + ms(segment.endedAt) + (segment.error ? ": " + segment.error : "")).join("\n")],
      ["error", bar.error || ""],
      ["output", bar.preview || ""],
      ["model calls", bar.modelCalls.map((call) => call.purpose + " " + ms(call.endedAt - call.startedAt)).join(", ")],
      ["tool calls", bar.toolCalls.map((call) => call.name + (call.ok ? "" : " (failed)") + " at " + ms(call.at)).join(", ")],
    ];
    const table = document.createElement("table");
    for (const [name, value] of rows) {
      if (value === "") continue;
      const row = table.insertRow();
      const head = document.createElement("th");
      head.textContent = name;
      row.appendChild(head);
      const cell = row.insertCell();
      cell.textContent = value;
    }
    details.replaceChildren(table);
    details.dataset.stepId = bar.stepId;
    for (const node of document.querySelectorAll(".selected")) node.classList.remove("selected");
    for (const node of document.querySelectorAll('[data-step-id="' + CSS.escape(bar.stepId) + '"][data-version="' + bar.version + '"]')) node.classList.add("selected");
  }

  function zoom(factor, around) {
    const span = view[1] - view[0];
    const next = Math.min(duration, Math.max(duration / 10000, span * factor));
    const anchor = around === undefined ? view[0] + span / 2 : around;
    const ratio = (anchor - view[0]) / span;
    let start = anchor - ratio * next;
    start = Math.max(0, Math.min(duration - next, start));
    view = [start, start + next];
    render();
  }

  host.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = host.getBoundingClientRect();
    const plot = box.width - left - 12;
    const at = view[0] + ((event.clientX - box.left - left) / plot) * (view[1] - view[0]);
    zoom(event.deltaY < 0 ? 0.8 : 1.25, at);
  }, { passive: false });
  let drag;
  host.addEventListener("mousedown", (event) => (drag = { x: event.clientX, view: view.slice() }));
  window.addEventListener("mouseup", () => (drag = undefined));
  window.addEventListener("mousemove", (event) => {
    if (!drag) return;
    const plot = host.clientWidth - left - 12;
    const shift = ((drag.x - event.clientX) / plot) * (drag.view[1] - drag.view[0]);
    const span = drag.view[1] - drag.view[0];
    const start = Math.max(0, Math.min(duration - span, drag.view[0] + shift));
    view = [start, start + span];
    render();
  });
  document.getElementById("zoom-in").addEventListener("click", () => zoom(0.5));
  document.getElementById("zoom-out").addEventListener("click", () => zoom(2));
  document.getElementById("zoom-reset").addEventListener("click", () => { view = [0, duration]; render(); });
  for (const node of document.querySelectorAll(".dag-node")) {
    node.addEventListener("click", () => {
      const index = data.bars.findIndex((bar) => bar.stepId === node.dataset.stepId && String(bar.version) === node.dataset.version);
      if (index >= 0) show(index);
    });
  }
  window.addEventListener("resize", render);
  render();
  document.body.dataset.renderedMs = String(Math.round(performance.now() - started));
})();
`;
