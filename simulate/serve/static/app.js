// The pokerjit workbench: plain JavaScript, no library, no build step. Every number comes
// from the JSON API (/api/v1/...); the page only draws, combines Monte Carlo rounds and
// counts combos.
"use strict";

const RANKS = "AKQJT98765432";          // grid order: A top left
const SUITS = "cdhs";
const SUIT_SIGN = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const NPLAYERS = 10;
const EXAMPLE = ["AhKh", "QsQd"];        // players 1 and 2's placeholders: Run with no hand runs it
const TOKEN = (location.hash.match(/token=([^&]+)/) || [])[1] || null;

const $ = (id) => document.getElementById(id);
const state = { active: 1, order: [], combos: 1326, controller: null, lastRange: null, sortKey: "equity",
                sortDesc: true, dragging: false, dragOn: true };

// ----------------------------------------------------------------------------- cards
const RANK_CHAR = { "10": "T" };
function parseCards(text, what) {
  // "AhKh", "Ah Kh", "ah,kh", "A♥K♥", "10h" -> {cards: ["Ah","Kh"], error}
  const cards = [];
  const s = text.replace(/[\s,]+/g, "");
  let i = 0;
  while (i < s.length) {
    let r = s[i], k = 1;
    if (s.slice(i, i + 2) === "10") { r = "T"; k = 2; }
    const u = s[i + k];
    const rank = (RANK_CHAR[r] || r).toUpperCase();
    let suit = u === undefined ? undefined : u.toLowerCase();
    for (const [c, sign] of Object.entries(SUIT_SIGN)) if (u === sign) suit = c;
    if (!RANKS.includes(rank) || suit === undefined || !SUITS.includes(suit)) {
      const bad = s.slice(i, i + k + 1);
      return { cards, error: `'${bad}' in ${what} is not a card` };
    }
    cards.push(rank + suit);
    i += k + 1;
  }
  return { cards, error: null };
}
const isExact = (text) => {
  const t = text.trim();
  return t !== "" && !parseCards(t, "hand").error;
};

// ----------------------------------------------------------------------------- ranges
function gridName(i, j) {
  if (i === j) return RANKS[i] + RANKS[i];
  return i < j ? RANKS[i] + RANKS[j] + "s" : RANKS[j] + RANKS[i] + "o";
}
function classKind(name) { return name.length === 2 ? "pair" : name[2] === "s" ? "suited" : "offsuit"; }
function classCombos(name) {
  // every combo of a class as two cards
  const a = name[0], b = name[1], out = [];
  for (let x = 0; x < 4; x++) for (let y = 0; y < 4; y++) {
    if (name.length === 2) { if (x < y) out.push([a + SUITS[x], b + SUITS[y]]); }
    else if (name[2] === "s") { if (x === y) out.push([a + SUITS[x], b + SUITS[y]]); }
    else if (x !== y) out.push([a + SUITS[x], b + SUITS[y]]);
  }
  return out;
}
const ri = (r) => RANKS.indexOf(r);
function expandItem(item) {
  // one range item (no weight) -> class names, or null when the page cannot show it
  const t = item.trim();
  if (t === "random") return allClasses();
  let m = t.match(/^top\s*([0-9.]+)%$/i);
  if (m) return topClasses(parseFloat(m[1]));
  const cls = (a, b, s) => (a === b ? a + b : ri(a) < ri(b) ? a + b + s : b + a + s);
  m = t.match(/^([AKQJT2-9])([AKQJT2-9])([so]?)(\+?)$/i);
  if (m) {
    const a = m[1].toUpperCase(), b = m[2].toUpperCase(), s = m[3].toLowerCase(), plus = m[4];
    const sfx = s ? [s] : ["s", "o"];
    if (a === b) {
      if (s) return null;
      if (!plus) return [a + a];
      return RANKS.slice(0, ri(a) + 1).split("").map((r) => r + r);
    }
    const hi = ri(a) < ri(b) ? a : b, lo = hi === a ? b : a;
    const kickers = plus ? RANKS.slice(ri(hi) + 1, ri(lo) + 1).split("") : [lo];
    return kickers.flatMap((k) => sfx.map((x) => cls(hi, k, x)));
  }
  m = t.match(/^([AKQJT2-9])([AKQJT2-9])([so]?)-([AKQJT2-9])([AKQJT2-9])([so]?)$/i);
  if (m) {
    const [a1, b1, s1, a2, b2] = [m[1], m[2], m[3], m[4], m[5]].map((x) => x.toUpperCase());
    const s = m[3].toLowerCase();
    if (a1 === b1 && a2 === b2) {   // 99-66
      const [x, y] = [ri(a1), ri(a2)].sort((p, q) => p - q);
      return RANKS.slice(x, y + 1).split("").map((r) => r + r);
    }
    if (a1 !== a2 || s1.toLowerCase() !== m[6].toLowerCase()) return null;
    const [x, y] = [ri(b1), ri(b2)].sort((p, q) => p - q);
    const sfx = s ? [s] : ["s", "o"];
    return RANKS.slice(x, y + 1).split("").flatMap((k) => sfx.map((q) => cls(a1, k, q)));
  }
  return null;
}
function allClasses() {
  const out = [];
  for (let i = 0; i < 13; i++) for (let j = 0; j < 13; j++) out.push(gridName(i, j));
  return out;
}
function topClasses(pct) {
  // the selected game's shipped order, classes until their combos reach pct% of the
  // game's combos (1326; short deck 630), as the server does
  const need = (pct / 100) * state.combos;
  const out = [];
  let total = 0;
  for (const h of state.order) {
    if (total >= need - 1e-9) break;
    out.push(h);
    total += classCombos(h).length;
  }
  return out;
}
async function loadOrder() {
  // "top N%" follows the selected game's own order (short deck: its 81 classes of 630)
  const game = $("game").value;
  const classes = await getJSON(`/api/v1/classes?game=${encodeURIComponent(game)}`);
  if (classes && $("game").value === game) {
    state.order = classes.order;
    state.combos = classes.combos;
    refresh();
  }
}
function parseRange(text) {
  // "QQ+,AKs:0.5" -> Map(class -> weight), or null when the page cannot show it
  const map = new Map();
  const t = text.trim();
  if (!t) return map;
  for (const part of t.split(",")) {
    if (!part.trim()) continue;
    let item = part, w = 1;
    const m = part.match(/^(.*):\s*([0-9.]+)\s*$/);
    if (m) { item = m[1]; w = parseFloat(m[2]); }
    const classes = expandItem(item);
    if (!classes || !(w >= 0 && w <= 1)) return null;
    for (const c of classes) map.set(c, w);
  }
  return map;
}
function rangeText(map) {
  const parts = [];
  for (const name of allClasses()) {
    if (!map.has(name)) continue;
    const w = map.get(name);
    parts.push(w >= 1 ? name : `${name}:${+w.toFixed(3)}`);
  }
  return parts.join(",");
}
function usedCards(except) {
  const used = new Set();
  const add = (id) => {
    if (id === except) return;
    const v = $(id).value;
    if (id.startsWith("player") && !isExact(v)) return;
    for (const c of parseCards(v, "").cards) used.add(c);
  };
  ["board", "dead"].forEach(add);
  for (let p = 1; p <= NPLAYERS; p++) add(`player-${p}`);
  return used;
}
function comboCount(text) {
  // weighted live combos of one player's field (card removal by board and dead cards)
  if (isExact(text)) return 1;
  const map = parseRange(text);
  if (!map) return null;
  const out = new Set([...parseCards($("board").value, "").cards,
                       ...parseCards($("dead").value, "").cards]);
  let n = 0;
  for (const [name, w] of map) {
    n += w * classCombos(name).filter(([a, b]) => !out.has(a) && !out.has(b)).length;
  }
  return n;
}

// ----------------------------------------------------------------------------- page parts
function buildPlayers() {
  const box = $("players");
  for (let p = 1; p <= NPLAYERS; p++) {
    const row = document.createElement("div");
    row.className = "player";
    row.innerHTML = `<label for="player-${p}">player ${p}</label>` +
      `<input id="player-${p}" type="text" autocomplete="off" spellcheck="false">` +
      `<span class="combos" id="player-${p}-combos"></span>` +
      `<span class="error" id="player-${p}-error" hidden></span>`;
    box.appendChild(row);
    const input = row.querySelector("input");
    input.addEventListener("focus", () => setActive(p));
    input.addEventListener("input", () => { clearError(`player-${p}`); refresh(); });
  }
  // the example is a placeholder, not a value: a hand typed into the field is the hand
  for (const [p, hand] of EXAMPLE.entries()) $(`player-${p + 1}`).placeholder = hand;
}
function setActive(p) {
  state.active = p;
  for (let q = 1; q <= NPLAYERS; q++) $(`player-${q}`).classList.toggle("active", q === p);
  $("grid-target").textContent = `(player ${p})`;
  drawGrid();
}
function buildGrid() {
  const g = $("grid");
  for (let i = 0; i < 13; i++) for (let j = 0; j < 13; j++) {
    const name = gridName(i, j);
    const cell = document.createElement("div");
    cell.className = `cell ${classKind(name)}`;
    cell.id = `cell-${name}`;
    cell.dataset.name = name;
    cell.textContent = name;
    g.appendChild(cell);
  }
  g.addEventListener("mousedown", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell) return;
    e.preventDefault();
    const map = parseRange($(`player-${state.active}`).value) || new Map();
    state.dragging = true;
    state.dragOn = !map.has(cell.dataset.name);
    toggleCell(cell.dataset.name, state.dragOn);
  });
  g.addEventListener("mouseover", (e) => {
    const cell = e.target.closest(".cell");
    if (state.dragging && cell) toggleCell(cell.dataset.name, state.dragOn);
  });
  document.addEventListener("mouseup", () => { state.dragging = false; });
}
function toggleCell(name, on) {
  const input = $(`player-${state.active}`);
  const map = (isExact(input.value) ? null : parseRange(input.value)) || new Map();
  if (on) map.set(name, Math.min(1, Math.max(0.05, parseFloat($("weight").value) || 1)));
  else map.delete(name);
  input.value = rangeText(map);
  clearError(`player-${state.active}`);
  refresh();
}
function drawGrid() {
  const text = $(`player-${state.active}`).value;
  const map = isExact(text) ? new Map() : parseRange(text) || new Map();
  const eq = state.lastRange && state.active === 1 ? state.lastRange : null;
  for (const cell of document.querySelectorAll(".cell")) {
    const name = cell.dataset.name;
    const on = map.has(name);
    cell.classList.toggle("on", on);
    cell.style.opacity = on ? String(0.35 + 0.65 * map.get(name)) : "";
    const e = eq && eq.get(name);
    cell.style.background = e == null ? "" : `hsl(${Math.round(120 * e)}, 65%, 42%)`;
    cell.title = e == null ? name : `${name}: ${(100 * e).toFixed(1)}%`;
  }
  const n = comboCount(text);
  $("combo-count").textContent = n == null ? "?" : fmtCombos(n);
}
const fmtCombos = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
function buildPicker() {
  const box = $("picker");
  for (const s of "shdc") for (const r of RANKS) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `card s-${s}`;
    b.id = `card-${r}${s}`;
    b.textContent = r + SUIT_SIGN[s];
    b.addEventListener("click", () => pickCard(r + s));
    box.appendChild(b);
  }
}
function pickCard(card) {
  const where = document.querySelector("input[name=pick]:checked").value;
  const id = where === "player" ? `player-${state.active}` : where;
  const input = $(id);
  const have = isExact(input.value) || where !== "player" ? input.value.trim() : "";
  input.value = have + card;
  clearError(id);
  refresh();
}
function refresh() {
  // everything that follows from the fields, without a round trip
  const used = usedCards(null);
  for (const b of document.querySelectorAll(".card")) b.disabled = used.has(b.id.slice(5));
  for (const id of ["board", "dead"]) {
    const e = parseCards($(id).value, id).error;
    if (e) showError(id, e); else clearError(id);
  }
  for (let p = 1; p <= NPLAYERS; p++) {
    const v = $(`player-${p}`).value;
    const n = v.trim() ? comboCount(v) : null;
    $(`player-${p}-combos`).textContent =
      n == null ? "" : isExact(v) ? "hand" : `${fmtCombos(n)} combos`;
  }
  state.lastRange = null;
  drawGrid();
}

// ----------------------------------------------------------------------------- errors
function showError(field, msg) {
  const el = $(`${field}-error`) || $("run-error");
  el.textContent = msg;
  el.hidden = false;
}
function clearError(field) {
  const el = $(`${field}-error`);
  if (el) { el.textContent = ""; el.hidden = true; }
}
function clearErrors() { for (const el of document.querySelectorAll(".error")) { el.textContent = ""; el.hidden = true; } }
function errorField(msg, seats) {
  // which field a server message is about: (player N) / hand N / board / dead
  let m = msg.match(/\(player (\d+)\)/) || msg.match(/\bhand (\d+)\b/) || msg.match(/\bseat (\d+)\b/);
  if (/\bin board\b|\band board\b|\bboard\b/.test(msg) && !/\(player/.test(msg)) return "board";
  if (/\bdead\b/.test(msg) && !/\(player/.test(msg)) return "dead";
  if (m && seats) return `player-${seats[parseInt(m[1], 10) - 1] || 1}`;
  return "run";
}

// ----------------------------------------------------------------------------- API
async function api(kind, body, signal) {
  const headers = { "Content-Type": "application/json" };
  if (TOKEN) headers.Authorization = `Bearer ${TOKEN}`;
  const r = await fetch(`/api/v1/${kind}`, { method: "POST", headers, body: JSON.stringify(body), signal });
  let doc = null;
  try { doc = await r.json(); } catch (e) { doc = null; }
  if (!r.ok) throw new ApiError((doc && doc.error) || `HTTP ${r.status}`);
  return doc;
}
class ApiError extends Error {}
async function getJSON(path) {
  const headers = TOKEN ? { Authorization: `Bearer ${TOKEN}` } : {};
  const r = await fetch(path, { headers });
  return r.ok ? r.json() : null;
}

// ----------------------------------------------------------------------------- running
const pct = (x) => `${(100 * x).toFixed(2)}%`;
function topCategories(cats) {
  return Object.entries(cats || {}).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1])
    .slice(0, 3).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`).join(", ");
}
function showResults(doc, seats) {
  const body = $("results").querySelector("tbody");
  body.innerHTML = "";
  doc.players.forEach((p, k) => {
    const tr = document.createElement("tr");
    const se = doc.exact ? "exact" : p.std_error == null ? "?" : `\u00b1${(100 * p.std_error).toFixed(3)}%`;
    for (const [text, cls] of [[`player ${seats[k]}`, "l"], [p.hand, "l"], [pct(p.equity), ""],
      [pct(p.win), ""], [pct(p.tie), ""], [se, ""], [topCategories(p.categories), "l"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
  const how = doc.exact ? `exact: ${doc.samples.toLocaleString()} runouts`
    : `Monte Carlo: ${doc.samples.toLocaleString()} deals`;
  $("summary").textContent = `${how}${doc.board ? `, board ${doc.board}` : ""}` +
    `${doc.dead ? `, dead ${doc.dead}` : ""}, ${doc.elapsed_s.toFixed(3)} s`;
}
function combine(acc, doc) {
  // Monte Carlo rounds of the same spot: weighted means; std errors of independent rounds
  if (!acc) return { ...doc, players: doc.players.map((p) => ({ ...p, categories: { ...p.categories } })),
                     _var: doc.players.map((p) => (p.std_error || 0) ** 2 * doc.samples ** 2) };
  const n0 = acc.samples, n1 = doc.samples, n = n0 + n1;
  acc.players.forEach((p, k) => {
    const q = doc.players[k];
    for (const key of ["equity", "win", "tie"]) p[key] = (p[key] * n0 + q[key] * n1) / n;
    for (const c of Object.keys(q.categories)) p.categories[c] = ((p.categories[c] || 0) * n0 + q.categories[c] * n1) / n;
    acc._var[k] += (q.std_error || 0) ** 2 * n1 ** 2;
    p.std_error = Math.sqrt(acc._var[k]) / n;
  });
  acc.samples = n;
  acc.elapsed_s += doc.elapsed_s;
  return acc;
}
function sampling() {
  const mode = $("mode").value;
  const seedText = $("seed").value.trim();
  const out = {};
  if (mode === "exact") out.exact = true;
  if (mode === "mc") out.samples = Math.max(1, parseInt($("samples").value, 10) || 1000000);
  if (seedText) out.seed = parseInt(seedText, 10);
  return out;
}
function setBusy(busy) {
  $("run").disabled = busy;
  $("allin-run").disabled = busy;
  $("cancel").disabled = !busy;
}
async function run() {
  clearErrors();
  const seats = [], hands = [];
  for (let p = 1; p <= NPLAYERS; p++) {
    const v = $(`player-${p}`).value.trim();
    if (v) { seats.push(p); hands.push(v); }
  }
  if (hands.length === 0) {  // nothing typed: the example the empty fields show
    EXAMPLE.forEach((hand, i) => { seats.push(i + 1); hands.push(hand); });
  }
  if (hands.length < 2) { showError("run", "give at least two players a hand or a range"); return; }
  for (const id of ["board", "dead"]) {
    const e = parseCards($(id).value, id).error;
    if (e) { showError(id, e); return; }
  }
  const game = $("game").value;
  const base = { hands, board: $("board").value, dead: $("dead").value };
  const opts = sampling();
  const ranged = game === "holdem" && hands.some((h) => !isExact(h));
  const controller = new AbortController();
  state.controller = controller;
  setBusy(true);
  $("status").textContent = "running";
  $("breakdown").hidden = true;
  const bar = $("progress");
  try {
    if (ranged) {
      bar.removeAttribute("value");
      const doc = await api("range", { ...base, ...opts }, controller.signal);
      showResults(doc, seats);
      showBreakdown(doc);
    } else if (opts.samples) {
      // Monte Carlo in rounds: progress and Cancel between rounds, one seed per round
      const total = opts.samples;
      const round = Math.max(20000, Math.ceil(total / 20));
      const seed0 = opts.seed != null ? opts.seed : Math.floor(Math.random() * 2 ** 31);
      let acc = null, done = 0, k = 0;
      bar.max = total;
      bar.value = 0;
      while (done < total) {
        const n = Math.min(round, total - done);
        const doc = await api("equity", { ...base, game, samples: n, seed: seed0 + k }, controller.signal);
        acc = combine(acc, doc);
        done += n;
        k += 1;
        bar.value = done;
        $("status").textContent = `${done.toLocaleString()} / ${total.toLocaleString()} deals`;
        showResults(acc, seats);
      }
    } else {
      bar.removeAttribute("value");
      const doc = await api("equity", { ...base, game, ...opts }, controller.signal);
      showResults(doc, seats);
    }
    bar.max = 1;
    bar.value = 1;
    $("status").textContent = "done";
  } catch (e) {
    bar.max = 1;
    bar.value = 0;
    if (e.name === "AbortError") $("status").textContent = "cancelled";
    else if (e instanceof ApiError) { $("status").textContent = ""; showError(errorField(e.message, seats), e.message); }
    else { $("status").textContent = ""; showError("run", `the server cannot be reached (${e.message})`); }
  } finally {
    state.controller = null;
    setBusy(false);
  }
}
function cancel() { if (state.controller) state.controller.abort(); }

// ----------------------------------------------------------------------------- breakdown
function showBreakdown(doc) {
  const r = doc.ranges && doc.ranges[0];
  if (!r) return;
  $("breakdown").hidden = false;
  state.combos = r.combos;
  const eq = new Map();
  for (const row of r.grid) for (const c of row) if (c && c.equity != null) eq.set(c.hand, c.equity);
  drawCombos();
  drawCurve(r.combos);
  setActive(1);
  state.lastRange = eq;
  drawGrid();
}
function drawCombos() {
  const key = state.sortKey, sign = state.sortDesc ? -1 : 1;
  const rows = [...state.combos].sort((a, b) => {
    const x = a[key], y = b[key];
    if (x == null) return 1;
    if (y == null) return -1;
    return (x < y ? -1 : x > y ? 1 : 0) * sign;
  });
  const body = $("combos").querySelector("tbody");
  body.innerHTML = "";
  for (const c of rows) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${c.combo}</td><td class="l">${c.hand}</td><td>${+c.weight.toFixed(3)}</td>` +
      `<td>${pct(c.share)}</td><td>${c.equity == null ? "-" : pct(c.equity)}</td>`;
    body.appendChild(tr);
  }
}
function drawCurve(combos) {
  // the equity distribution: combos best first, x = share of the range, y = equity
  const cv = $("curve"), g = cv.getContext("2d");
  const W = cv.width, H = cv.height, L = 40, B = 24;
  g.clearRect(0, 0, W, H);
  g.strokeStyle = "#999";
  g.fillStyle = "#555";
  g.font = "11px sans-serif";
  g.beginPath(); g.moveTo(L, 8); g.lineTo(L, H - B); g.lineTo(W - 8, H - B); g.stroke();
  for (const y of [0, 0.5, 1]) g.fillText(`${100 * y}%`, 4, H - B - y * (H - B - 8) + 4);
  g.fillText("share of the range", W / 2 - 40, H - 6);
  const rows = combos.filter((c) => c.equity != null).sort((a, b) => b.equity - a.equity);
  const total = rows.reduce((s, c) => s + c.share, 0) || 1;
  g.strokeStyle = "#2f6fb0";
  g.lineWidth = 2;
  g.beginPath();
  let x = 0;
  rows.forEach((c, k) => {
    const px = L + (x / total) * (W - L - 8), py = H - B - c.equity * (H - B - 8);
    if (k === 0) g.moveTo(px, py); else g.lineTo(px, py);
    x += c.share;
    g.lineTo(L + (x / total) * (W - L - 8), py);
  });
  g.stroke();
  cv.dataset.points = String(rows.length);
}

// ----------------------------------------------------------------------------- all-in
async function runAllin() {
  clearErrors();
  const specs = $("allin-specs");
  const players = (specs.value.trim() || specs.placeholder).split(/\s+/).filter(Boolean);
  const body = { players, board: $("board").value, dead: $("dead").value, game: $("game").value,
                 button: parseInt($("allin-button").value, 10) || 0, ...sampling() };
  setBusy(true);
  const controller = new AbortController();
  state.controller = controller;
  try {
    const r = await api("allin", body, controller.signal);
    const t = $("allin-results");
    const pots = r.pots.map((_, i) => (i === 0 ? "main eq" : `side ${i} eq`));
    t.querySelector("thead").innerHTML = "<tr>" + ["seat", "hand", "committed", "expected", "EV", ...pots]
      .map((h) => `<th>${h}</th>`).join("") + "</tr>";
    t.querySelector("tbody").innerHTML = r.players.map((p) => "<tr>" + [p.seat, p.hand, p.committed,
      p.expected_payout.toFixed(2), p.ev.toFixed(2),
      ...p.pot_equity.map((e, i) => (r.pots[i].eligible.includes(p.seat) ? pct(e) : "-"))]
      .map((x) => `<td>${x}</td>`).join("") + "</tr>").join("");
  } catch (e) {
    if (e.name !== "AbortError") showError("allin", e.message);
  } finally {
    state.controller = null;
    setBusy(false);
  }
}

// ----------------------------------------------------------------------------- start
async function start() {
  buildPlayers();
  buildGrid();
  buildPicker();
  setActive(1);
  refresh();
  $("run").addEventListener("click", run);
  $("cancel").addEventListener("click", cancel);
  $("allin-run").addEventListener("click", runAllin);
  $("board").addEventListener("input", refresh);
  $("dead").addEventListener("input", refresh);
  $("grid-clear").addEventListener("click", () => { $(`player-${state.active}`).value = ""; refresh(); });
  $("top").addEventListener("input", () => {
    const v = parseFloat($("top").value);
    $("top-value").textContent = `${v}%`;
    $(`player-${state.active}`).value = v > 0 ? `top ${v}%` : "";
    refresh();
  });
  for (const th of $("combos").querySelectorAll("th")) {
    th.addEventListener("click", () => {
      const key = th.dataset.key;
      state.sortDesc = state.sortKey === key ? !state.sortDesc : true;
      state.sortKey = key;
      drawCombos();
    });
  }
  const [games, classes] = await Promise.all([getJSON("/api/v1/games"), getJSON("/api/v1/classes")]);
  if (games) {
    $("game").innerHTML = games.games.map((g) => `<option value="${g.name}">${g.label}</option>`).join("");
  }
  if (classes) { state.order = classes.order; state.combos = classes.combos; refresh(); }
  $("game").addEventListener("change", loadOrder);
  document.body.dataset.ready = "1";
}
start();
