// agentodyssey_pz replay viewer. Reads the run from <script type="application/json" id="run-data">
// and builds the page with DOM calls: every string from the run goes in through textContent or
// setAttribute, never through innerHTML, so nothing in a run can become markup or script.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const PALETTE = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"];
  const DARK_TEXT = new Set([3, 1]); // light swatches get dark numbers (yellow, sky blue)
  const SLOTS = [0, -40, 40, 180, 220, 140, -80, 260, -120, 120];
  const data = JSON.parse(document.getElementById("run-data").textContent);
  const run = data.run, S = run.strings, agents = run.agents, parts = run.parts;
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function colour(i) { return PALETTE[i % PALETTE.length]; }

  // ------------------------------------------------------------------ decoding the deltas
  const frames = [];  // {tick, states[agent], steps (array or 0), lines[agent], locked Set, events}
  const events = [];  // {frame, agent, kind, text}
  (function decode() {
    const base = run.base;
    let states = base.agents.map((s) => Object.assign({}, s));
    let lines = base.obs.map((l) => l.slice());
    let locked = new Set(base.locked.map(([a, b]) => S[a] + "\u0000" + S[b]));
    frames.push({tick: base.tick, states: states, steps: 0, lines: lines, locked: locked});
    const addEvents = (list, index) => {
      for (const [a, k, t] of list || []) events.push({frame: index, agent: a, kind: S[k], text: S[t]});
    };
    addEvents(base.events, 0);
    run.deltas.forEach((d, n) => {
      if (d.a) {
        states = states.slice();
        for (const [i, fields] of d.a) states[i] = Object.assign({}, states[i], fields);
      }
      if (d.o) {
        lines = lines.slice();
        for (const [i, ops] of d.o) {
          const next = lines[i].slice();
          for (let k = ops.length - 1; k >= 0; k--) {
            const [from, to, ids] = ops[k];
            next.splice(from, to - from, ...ids);
          }
          lines[i] = next;
        }
      }
      if (d["l+"] || d["l-"]) {
        locked = new Set(locked);
        for (const [a, b] of d["l+"] || []) locked.add(S[a] + "\u0000" + S[b]);
        for (const [a, b] of d["l-"] || []) locked.delete(S[a] + "\u0000" + S[b]);
      }
      frames.push({tick: d.t, states: states, steps: d.s || 0, lines: lines, locked: locked});
      addEvents(d.e, n + 1);
    });
  })();

  // ------------------------------------------------------------------ the dependency graph
  // nodes: [tick, agent index or -1, rule, hint]; for each node, what it used and what used it.
  const deps = data.deps, depsAt = new Map(), usedBy = [], uses = [];
  if (deps) {
    deps.nodes.forEach((n, k) => {
      const key = n[0] + "/" + n[1];
      if (!depsAt.has(key)) depsAt.set(key, []);
      depsAt.get(key).push(k);
      usedBy.push([]); uses.push([]);
    });
    for (const [p, c] of deps.edges) { usedBy[p].push(c); uses[c].push(p); }
  }

  // ------------------------------------------------------------------ view state
  const view = {frame: 0, agent: 0, shown: agents.map(() => true), playing: false, speed: 4, timer: null};
  const layout = data.layout;
  const areaById = new Map(layout.areas.map((a) => [a.id, a]));
  const placeName = new Map(layout.places.map((p) => [p.id, p.name]));

  // ------------------------------------------------------------------ header
  document.title = data.title;
  $("title").textContent = data.title;
  $("meta").textContent = data.subtitle;
  for (const note of data.notes) $("notes").appendChild(el("li", {}, note));
  if (data.part) {
    const part = data.part, box = $("part");
    box.appendChild(document.createTextNode(part.message + " "));
    part.files.forEach((name, i) => {
      if (i === part.index) { box.appendChild(el("strong", {}, "part " + (i + 1))); }
      else {
        const link = el("a", {}, "part " + (i + 1));
        link.setAttribute("href", "./" + encodeURIComponent(name));
        box.appendChild(link);
      }
      box.appendChild(document.createTextNode(i + 1 < part.files.length ? " · " : ""));
    });
  }

  // ------------------------------------------------------------------ the map
  const map = $("map");
  map.setAttribute("viewBox", layout.view.join(" "));
  // Zoom (wheel, + and -) and pan (drag) by moving the view box; 0 fits the world again.
  let box = layout.view.slice();
  function setBox(next) { box = next; map.setAttribute("viewBox", box.map((v) => v.toFixed(1)).join(" ")); }
  function zoom(factor, fx, fy) {
    const w = box[2] * factor, h = box[3] * factor;
    if (w < layout.view[2] / 20 || w > layout.view[2] * 4) return;
    setBox([fx - (fx - box[0]) * factor, fy - (fy - box[1]) * factor, w, h]);
  }
  function pointer(e) {
    const r = map.getBoundingClientRect(), s = Math.max(box[2] / r.width, box[3] / r.height);
    const ox = (r.width * s - box[2]) / 2, oy = (r.height * s - box[3]) / 2;  // "meet" letterboxing
    return [box[0] - ox + (e.clientX - r.left) * s, box[1] - oy + (e.clientY - r.top) * s, s];
  }
  map.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, y] = pointer(e);
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, x, y);
  }, {passive: false});
  let drag = null;
  map.addEventListener("pointerdown", (e) => { drag = {x: e.clientX, y: e.clientY, box: box.slice(), s: pointer(e)[2]}; });
  window.addEventListener("pointerup", () => { drag = null; });
  map.addEventListener("pointermove", (e) => {
    if (!drag) return;
    setBox([drag.box[0] - (e.clientX - drag.x) * drag.s, drag.box[1] - (e.clientY - drag.y) * drag.s, box[2], box[3]]);
  });
  const gPlaces = svg("g"), gPaths = svg("g"), gAreas = svg("g"), gAgents = svg("g");
  map.append(gPlaces, gPaths, gAreas, gAgents);
  for (const p of layout.places) {
    const g = svg("g", {"class": "place", "data-place": p.id});
    g.appendChild(svg("rect", {"class": "place-box" + (p.locked ? " locked" : ""), x: p.box[0], y: p.box[1],
      width: p.box[2], height: p.box[3], rx: 12}));
    g.appendChild(svg("text", {"class": "place-label", x: p.box[0] + 8, y: p.box[1] + 16},
      p.name + (p.locked ? " (locked at the start)" : "")));
    gPlaces.appendChild(g);
  }
  const pathLines = [];
  for (const p of layout.paths) {
    const a = areaById.get(p.a), b = areaById.get(p.b);
    const line = svg("line", {"class": "path-line" + (p.personal ? " personal" : ""), x1: a.x, y1: a.y,
      x2: b.x, y2: b.y, "data-from": p.a, "data-to": p.b});
    gPaths.appendChild(line);
    let label = null;
    if (!p.personal) {
      label = svg("text", {"class": "key-label", x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 4,
        "text-anchor": "middle"}, p.key === null ? "locked" : p.key);
      gPaths.appendChild(label);
    }
    const key = [p.a, p.b].sort().join("\u0000");
    pathLines.push({line: line, label: label, key: key, personal: p.personal, a: p.a, b: p.b});
  }
  const areaNodes = new Map(), placeBoxes = new Map();
  for (const g of gPlaces.children) placeBoxes.set(g.getAttribute("data-place"), g);
  const LEVELS = ["#e8f4ea", "#d6ecd9", "#fbeccd", "#f8dcb8", "#f3c7b4", "#ecb5c8", "#dccbe8"];
  for (const a of layout.areas) {
    const g = svg("g", {"class": "area-node" + (a.dark ? " dark" : ""), "data-area": a.id, tabindex: -1});
    g.appendChild(svg("title", {}, a.name + (a.dark ? " (dark)" : "") + " - " + (placeName.get(a.place) || "")));
    if (a.spawn) g.appendChild(svg("circle", {cx: a.x, cy: a.y, r: layout.radius + 4, fill: "none",
      stroke: "#222", "stroke-width": 2}));
    g.appendChild(svg("circle", {"class": "body", cx: a.x, cy: a.y, r: layout.radius,
      fill: LEVELS[(Math.max(a.level, 1) - 1) % LEVELS.length]}));
    g.appendChild(svg("text", {"class": "level", x: a.x, y: a.y + 4, "font-size": 10, "text-anchor": "middle"},
      "L" + a.level));
    g.appendChild(svg("text", {"class": "area-label", x: a.x, y: a.y + layout.radius + 15, "text-anchor": "middle"},
      a.name));
    gAreas.appendChild(g);
    areaNodes.set(a.id, g);
  }
  // Areas a world expansion added: hidden before the tick they appeared, with their paths and
  // any place box left empty.
  const lateAreas = layout.areas.filter((a) => a.since > frames[0].tick);
  function showAreasAt(tick) {
    if (!lateAreas.length) return;
    const hidden = new Set(lateAreas.filter((a) => a.since > tick).map((a) => a.id));
    for (const a of lateAreas) areaNodes.get(a.id).classList.toggle("hidden", hidden.has(a.id));
    for (const p of pathLines) {
      const gone = hidden.has(p.a) || hidden.has(p.b);
      p.line.style.display = gone ? "none" : "";
      if (p.label && gone) p.label.style.display = "none";
    }
    for (const [id, box] of placeBoxes) {
      const areas = layout.areas.filter((a) => a.place === id);
      box.style.display = areas.length && areas.every((a) => hidden.has(a.id)) ? "none" : "";
    }
  }
  $("legend").textContent = "boxes: places (dashed: locked at the start) · orange dashed: locked path with its key · " +
    "dotted: personal path" + (layout.darkness ? " · dark grey: unlit area" : "") + " · ringed: spawn · " +
    "numbered dots: agents · wheel or +/- zooms, drag pans, 0 fits, f finds the agent";
  const markers = agents.map((id, i) => {
    const g = svg("g", {"class": "agent-marker", "data-agent": id});
    g.appendChild(svg("title", {}, id));
    g.appendChild(svg("circle", {r: 7, fill: colour(i), stroke: "#fff", "stroke-width": 1.2}));
    const t = svg("text", {y: 3.2, "text-anchor": "middle"}, String(i));
    if (DARK_TEXT.has(i % PALETTE.length)) t.style.fill = "#000";
    g.appendChild(t);
    g.addEventListener("click", () => selectAgent(i));
    gAgents.appendChild(g);
    return g;
  });

  // ------------------------------------------------------------------ agents: chips and filter
  const chips = agents.map((id, i) => {
    const chip = el("span", {"class": "agent-chip", "aria-pressed": "false"});
    const box = el("input", {type: "checkbox", "aria-label": "show " + id});
    box.checked = true;
    box.addEventListener("change", () => { view.shown[i] = box.checked; render(); });
    const pick = el("button", {type: "button", "data-agent": id, title: "show this agent's panel (key " + (i + 1) + ")"});
    const swatch = el("span", {"class": "swatch"});
    swatch.style.background = colour(i);
    pick.append(swatch, document.createTextNode(" " + id + (data.policies[id] ? " · " + data.policies[id] : "")));
    pick.addEventListener("click", () => selectAgent(i));
    chip.append(box, pick);
    $("agent-list").appendChild(chip);
    return chip;
  });

  // ------------------------------------------------------------------ score chart
  const chart = $("chart");
  const lastTick = frames[frames.length - 1].tick, firstTick = frames[0].tick;
  let maxScore = 1, minScore = 0;
  for (const f of frames) for (const s of f.states) { maxScore = Math.max(maxScore, s.score); minScore = Math.min(minScore, s.score); }
  const W = 420, H = 250, L = 30, R = 8, T = 8, B = 20;
  chart.setAttribute("viewBox", "0 0 " + W + " " + H);
  const cx = (tick) => L + (W - L - R) * (tick - firstTick) / Math.max(1, lastTick - firstTick);
  const cy = (score) => T + (H - T - B) * (1 - (score - minScore) / Math.max(1, maxScore - minScore));
  chart.appendChild(svg("line", {x1: L, y1: cy(minScore), x2: W - R, y2: cy(minScore), stroke: "#999"}));
  chart.appendChild(svg("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#999"}));
  chart.appendChild(svg("text", {x: L - 4, y: cy(maxScore) + 4, "text-anchor": "end", "font-size": 10}, String(maxScore)));
  chart.appendChild(svg("text", {x: L - 4, y: cy(minScore) + 4, "text-anchor": "end", "font-size": 10}, String(minScore)));
  chart.appendChild(svg("text", {x: L, y: H - 5, "font-size": 10}, "tick " + firstTick));
  chart.appendChild(svg("text", {x: W - R, y: H - 5, "font-size": 10, "text-anchor": "end"}, "tick " + lastTick));
  const curves = agents.map((id, i) => {
    const pts = [];
    let last = null;
    frames.forEach((f, n) => {
      const s = f.states[i].score;
      if (s !== last || n === frames.length - 1) { pts.push(cx(f.tick).toFixed(1) + "," + cy(s).toFixed(1)); last = s; }
    });
    // steps: hold each score until it changes
    const stepped = [];
    let prevY = null;
    for (const p of pts) { const [x, y] = p.split(","); if (prevY !== null) stepped.push(x + "," + prevY); stepped.push(p); prevY = y; }
    const line = svg("polyline", {"class": "curve", points: stepped.join(" "), stroke: colour(i), "data-agent": id});
    line.appendChild(svg("title", {}, id + " (" + (data.policies[id] || "?") + ")"));
    chart.appendChild(line);
    return line;
  });
  // A policy played by several agents also gets its mean curve (dashed, in its first agent's colour).
  const byPolicy = new Map();
  agents.forEach((id, i) => {
    const name = data.policies[id];
    if (name === undefined) return;
    if (!byPolicy.has(name)) byPolicy.set(name, []);
    byPolicy.get(name).push(i);
  });
  const policyCurves = [];
  for (const [name, members] of byPolicy) {
    if (members.length < 2) continue;
    const pts = frames.map((f) => {
      const mean = members.reduce((sum, k) => sum + f.states[k].score, 0) / members.length;
      return cx(f.tick).toFixed(1) + "," + cy(mean).toFixed(1);
    });
    const line = svg("polyline", {"class": "curve policy-curve", points: pts.join(" "), stroke: colour(members[0]),
      "stroke-dasharray": "5 3", "data-policy": name});
    line.appendChild(svg("title", {}, name + ": mean of " + members.length + " agents"));
    chart.appendChild(line);
    policyCurves.push({line: line, members: members});
  }
  const cursor = svg("line", {y1: T, y2: H - B, stroke: "#333", "stroke-dasharray": "3 3"});
  chart.appendChild(cursor);
  chart.addEventListener("click", (e) => {
    const box = chart.getBoundingClientRect();
    const x = (e.clientX - box.left) * W / box.width;
    const tick = firstTick + (x - L) / (W - L - R) * (lastTick - firstTick);
    go(frameOfTick(Math.round(tick)));
  });

  // ------------------------------------------------------------------ timeline
  const timeline = $("timeline");
  timeline.max = String(frames.length - 1);
  timeline.addEventListener("input", () => go(Number(timeline.value)));
  $("prev").addEventListener("click", () => go(view.frame - 1));
  $("next").addEventListener("click", () => go(view.frame + 1));
  $("play").addEventListener("click", () => setPlaying(!view.playing));
  $("speed").addEventListener("change", () => { view.speed = Number($("speed").value); if (view.playing) setPlaying(true); });
  function setPlaying(on) {
    view.playing = on;
    clearInterval(view.timer);
    view.timer = null;
    $("play").textContent = on ? "❚❚ Pause" : "▶ Play";
    $("play").setAttribute("aria-pressed", on ? "true" : "false");
    if (on) {
      if (view.frame >= frames.length - 1) go(0);
      view.timer = setInterval(() => {
        if (view.frame >= frames.length - 1) setPlaying(false); else go(view.frame + 1);
      }, 1000 / view.speed);
    }
  }
  function frameOfTick(tick) {
    let lo = 0, hi = frames.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (frames[mid].tick <= tick) lo = mid; else hi = mid - 1; }
    return lo;
  }
  function go(index) {
    view.frame = Math.max(0, Math.min(frames.length - 1, index | 0));
    render();
  }
  function selectAgent(i) {
    if (i < 0 || i >= agents.length) return;
    view.agent = i;
    render();
  }
  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "SELECT" || (tag === "INPUT" && e.target.type !== "range" && e.target.type !== "checkbox")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const big = e.shiftKey ? 10 : 1;
    if (e.key === "ArrowLeft") { go(view.frame - big); e.preventDefault(); }
    else if (e.key === "ArrowRight") { go(view.frame + big); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(frames.length - 1); e.preventDefault(); }
    else if (e.key === " " && tag !== "BUTTON") { setPlaying(!view.playing); e.preventDefault(); }
    else if (/^[1-9]$/.test(e.key)) { selectAgent(Number(e.key) - 1); }
    else if (e.key === "+" || e.key === "=") { zoom(1 / 1.25, box[0] + box[2] / 2, box[1] + box[3] / 2); }
    else if (e.key === "-") { zoom(1.25, box[0] + box[2] / 2, box[1] + box[3] / 2); }
    else if (e.key === "0") { setBox(layout.view.slice()); }
    else if (e.key === "f") { focusAgent(); }
    else if (e.key === "[") { selectAgent((view.agent + agents.length - 1) % agents.length); }
    else if (e.key === "]") { selectAgent((view.agent + 1) % agents.length); }
  });

  // ------------------------------------------------------------------ URL fragment
  function readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (params.has("a")) { const i = agents.indexOf(params.get("a")); if (i >= 0) view.agent = i; }
    if (params.has("t")) { const t = Number(params.get("t")); if (Number.isFinite(t)) view.frame = frameOfTick(t); }
  }
  let lastHash = "";
  function writeHash() {
    const hash = "#t=" + frames[view.frame].tick + "&a=" + encodeURIComponent(agents[view.agent]);
    if (hash !== location.hash) { lastHash = hash; history.replaceState(null, "", hash); }
  }
  window.addEventListener("hashchange", () => { if (location.hash !== lastHash) { readHash(); render(); } });

  // ------------------------------------------------------------------ rendering one tick
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function row(dl, term, value, cls) {
    dl.appendChild(el("dt", {}, term));
    const dd = el("dd", cls ? {"class": cls} : {}, value);
    dl.appendChild(dd);
    return dd;
  }
  function items(list) {
    return list.length ? list.map(([n, c]) => c + " " + S[n]).join(", ") : "nothing";
  }
  function render() {
    const f = frames[view.frame], i = view.agent, id = agents[i];
    timeline.value = String(view.frame);
    timeline.setAttribute("aria-valuetext", "tick " + f.tick);
    $("tick-label").textContent = "tick " + f.tick + " of " + lastTick;
    // map: agents where they stand, paths locked as they are, areas that exist
    const byArea = new Map();
    f.states.forEach((s, k) => {
      if (!view.shown[k]) return;
      const area = S[s.area];
      if (!byArea.has(area)) byArea.set(area, []);
      byArea.get(area).push(k);
    });
    markers.forEach((m, k) => {
      const s = f.states[k], a = areaById.get(S[s.area]);
      m.classList.toggle("filtered", !view.shown[k] || !a);
      m.classList.toggle("selected", k === i);
      m.setAttribute("data-area", S[s.area]);
      if (!a || !view.shown[k]) return;
      const slot = byArea.get(S[s.area]).indexOf(k);
      const ring = Math.floor(slot / SLOTS.length), angle = (SLOTS[slot % SLOTS.length] + 17 * ring) * Math.PI / 180;
      const r = layout.radius + 11 + 15 * ring;
      m.setAttribute("transform", "translate(" + (a.x + r * Math.cos(angle)).toFixed(1) + "," + (a.y + r * Math.sin(angle)).toFixed(1) + ")");
    });
    gAgents.appendChild(markers[i]);  // the selected agent on top
    for (const p of pathLines) {
      if (p.personal) continue;
      const locked = f.locked.has(p.key);
      p.line.classList.toggle("locked", locked);
      p.label.style.display = locked ? "" : "none";
    }
    showAreasAt(f.tick);
    // chips, curves
    chips.forEach((c, k) => c.setAttribute("aria-pressed", k === i ? "true" : "false"));
    curves.forEach((c, k) => c.classList.toggle("filtered", !view.shown[k]));
    for (const p of policyCurves) p.line.classList.toggle("filtered", !p.members.some((k) => view.shown[k]));
    cursor.setAttribute("x1", cx(f.tick)); cursor.setAttribute("x2", cx(f.tick));
    renderAgent(f, i, id);
    renderFeed();
    writeHash();
  }
  function renderAgent(f, i, id) {
    const box = $("agent-detail");
    clear(box);
    const s = f.states[i], area = areaById.get(S[s.area]);
    box.appendChild(el("h2", {}, id + (data.policies[id] ? " (" + data.policies[id] + ")" : "")));
    const status = el("dl", {id: "agent-status"});
    row(status, "area", area ? area.name + ", " + (placeName.get(area.place) || "") : S[s.area]).setAttribute("data-area", S[s.area]);
    row(status, "HP", s.hp + " of " + s.max_hp);
    row(status, "level", s.level + " (xp " + s.xp + ")");
    row(status, "score", String(s.score));
    if (s.dark) row(status, "sight", "in the dark", "bad");
    box.appendChild(status);
    const step = f.steps ? f.steps[i] : 0;
    box.appendChild(el("h2", {}, "Tick " + f.tick));
    const act = el("dl", {id: "agent-step"});
    if (step) {
      row(act, "command", step[0] < 0 ? "(none)" : S[step[0]]).id = "step-command";
      const ok = step[2] & 1, invalid = step[2] & 2;
      row(act, "action_ok", ok ? "yes" : invalid ? "no (invalid action)" : "no", ok ? "ok" : "bad").id = "step-ok";
      const reward = [];
      for (let k = 0; k < step[3].length; k += 2) reward.push(parts[step[3][k]] + " " + step[3][k + 1]);
      row(act, "reward", reward.length ? reward.join(", ") : "none").id = "step-reward";
      act.appendChild(el("dt", {}, "feedback"));
      const dd = el("dd", {});
      dd.appendChild(el("pre", {id: "step-feedback"}, S[step[1]]));
      act.appendChild(dd);
      if (step[4]) {
        const llm = step[4];
        const text = (k) => (llm[k] === undefined ? null : S[llm[k]]);
        row(act, "prompt", (llm.prompt_chars || 0).toLocaleString() + " characters, " + (llm.input_tokens ?? "?") + " tokens in, " + (llm.output_tokens ?? "?") + " out");
        row(act, "format error", llm.format_error ? "yes" + (llm.reasked ? " (re-asked)" : "") : "no", llm.format_error ? "bad" : "");
        if (text("waited")) row(act, "waited", text("waited"), "bad");
        if (llm.cost !== undefined) row(act, "cost", String(llm.cost));
        for (const k of ["answer", "reasoning", "errors"]) {
          if (text(k) === null) continue;
          act.appendChild(el("dt", {}, k));
          const d = el("dd", {});
          d.appendChild(el("pre", {"class": "llm-" + k}, text(k)));
          act.appendChild(d);
        }
      }
    } else {
      row(act, "command", f === frames[0] ? "(the start: no command yet)" : "(no step logged)");
    }
    box.appendChild(act);
    if (deps) renderDeps(box, f, i);
    const carry = el("dl", {id: "agent-items"});
    row(carry, "holding", items(s.hands));
    row(carry, "equipped", items(s.equipped));
    row(carry, "inventory", items(s.inventory));
    box.appendChild(carry);
    const before = frames[Math.max(0, view.frame - 1)];
    box.appendChild(el("h2", {}, view.frame ? "What it read before this command" : "What it read at the start"));
    box.appendChild(el("pre", {id: "agent-observation"}, before.lines[i].map((k) => S[k]).join("\n")));
  }
  function describeNode(k) {
    const [tick, actor, rule, hint] = deps.nodes[k];
    return "tick " + tick + " · " + (actor >= 0 ? agents[actor] : "world") + " · " + (hint || rule);
  }
  function depList(box, title, list, cls) {
    if (!list.length) return;
    box.appendChild(el("h3", {}, title));
    const ul = el("ul", {"class": "deps " + cls});
    for (const k of list) {
      const li = el("li", {});
      const button = el("button", {type: "button"}, describeNode(k));
      button.addEventListener("click", () => {
        const actor = deps.nodes[k][1];
        if (actor >= 0) view.agent = actor;
        go(frameOfTick(deps.nodes[k][0]));
      });
      li.appendChild(button);
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }
  function renderDeps(box, f, i) {
    const mine = depsAt.get(f.tick + "/" + i) || [];
    const section = el("div", {id: "agent-deps"});
    section.appendChild(el("h2", {}, "Dependencies of this action"));
    if (!mine.length) section.appendChild(el("p", {}, "none tracked (nothing it used came from an earlier action, and nothing it made was used later)"));
    for (const k of mine) {
      depList(section, "used what these made", uses[k], "uses");
      depList(section, "what it made was used by", usedBy[k], "used-by");
    }
    box.appendChild(section);
  }
  const FEED_LIMIT = 150;
  function renderFeed() {
    const feed = $("feed");
    clear(feed);
    const shown = [];
    for (let k = events.length - 1; k >= 0 && shown.length < FEED_LIMIT; k--) {
      const e = events[k];
      if (e.frame > view.frame) continue;
      if (e.agent >= 0 && !view.shown[e.agent]) continue;
      shown.push(e);
    }
    for (const e of shown) {
      const who = e.agent >= 0 ? agents[e.agent] : "world";
      const li = el("li", {"class": e.frame === view.frame ? "now" : "", tabindex: 0}, "tick " + frames[e.frame].tick + " · " + who + " · " + e.kind.replace(/_/g, " ") + (e.text ? ": " + e.text : ""));
      const jump = () => { if (e.agent >= 0) view.agent = e.agent; go(e.frame); };
      li.addEventListener("click", jump);
      li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") jump(); });
      feed.appendChild(li);
    }
    if (!shown.length) feed.appendChild(el("li", {}, "no events yet"));
  }

  // Centre the map on the chosen agent's area, close enough to read (f; at the start in a big world).
  const CLOSE = 700;  // layout units across the view when focused
  function focusAgent() {
    const a = areaById.get(S[frames[view.frame].states[view.agent].area]);
    if (!a) return;
    const w = Math.min(layout.view[2], CLOSE), h = w * layout.view[3] / layout.view[2];
    setBox([a.x - w / 2, a.y - h / 2, w, h]);
  }

  readHash();
  render();
  if (layout.view[2] > 3 * CLOSE) focusAgent();
  document.body.setAttribute("data-ready-ms", performance.now().toFixed(1));
  document.body.setAttribute("data-ready", "1");
})();
