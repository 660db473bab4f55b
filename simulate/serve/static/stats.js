// The statistics page: GET /api/v1/stats (the table) and /api/v1/graph (one player's graph).
"use strict";

const TOKEN = (location.hash.match(/token=([^&]+)/) || [])[1] || null;
const COLUMNS = [
  ["player", "player", "text"], ["hands", "hands", "int"], ["vpip", "VPIP", "pct"],
  ["pfr", "PFR", "pct"], ["three_bet", "3-bet", "pct"], ["fold_to_three_bet", "F3B", "pct"],
  ["cbet", "c-bet", "pct"], ["fold_to_cbet", "FCB", "pct"], ["af", "AF", "num"],
  ["afq", "AFq", "pct"], ["wtsd", "WTSD", "pct"], ["wsd", "W$SD", "pct"],
  ["wwsf", "W$WSF", "pct"], ["net", "net", "num"], ["bb_per_100", "bb/100", "num"],
  ["allin_adjusted_net", "EV net", "num"], ["allin_adjusted_bb_per_100", "EV bb/100", "num"],
  ["showdown_net", "SD net", "num"], ["non_showdown_net", "non-SD net", "num"],
];
const LINES = [["net", "net won", "#2a8a3a", ""], ["allin_adjusted", "all-in EV adjusted", "#e08a1e", "6 4"],
               ["showdown", "showdown", "#2f6fb0", ""], ["non_showdown", "non-showdown", "#c01f1f", ""]];
let rows = [];
let sortKey = "hands", sortDown = true, chosen = null;

function query(extra) {
  const q = new URLSearchParams();
  const players = document.getElementById("f-player").value.split(",").map(s => s.trim()).filter(Boolean);
  for (const p of (extra && extra.player ? [extra.player] : players)) q.append("player", p);
  for (const [id, key] of [["f-site", "site"], ["f-game", "game"], ["f-stakes", "stakes"],
                           ["f-position", "position"], ["f-since", "since"], ["f-until", "until"],
                           ["f-min-hands", "min_hands"]]) {
    const v = document.getElementById(id).value.trim();
    if (v && !(key === "min_hands" && extra && extra.player)) q.set(key, v);
  }
  return q.toString();
}

async function getJSON(path) {
  const headers = TOKEN ? { Authorization: `Bearer ${TOKEN}` } : {};
  const r = await fetch(path, { headers });
  const doc = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(doc.error || `HTTP ${r.status}`);
  return doc;
}

function showError(text) {
  const e = document.getElementById("stats-error");
  e.textContent = text || "";
  e.hidden = !text;
}

function cell(v, kind) {
  if (v === null || v === undefined) return "-";
  if (kind === "pct") return (100 * v).toFixed(1);
  if (kind === "num") return v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (kind === "int") return v.toLocaleString("en-US");
  return String(v);
}

function render() {
  const table = document.getElementById("stats");
  const head = table.tHead, body = table.tBodies[0];
  head.innerHTML = "";
  const tr = head.insertRow();
  for (const [key, label] of COLUMNS) {
    const th = document.createElement("th");
    th.textContent = label + (key === sortKey ? (sortDown ? " ▼" : " ▲") : "");
    th.dataset.key = key;
    th.style.cursor = "pointer";
    th.addEventListener("click", () => {
      sortDown = key === sortKey ? !sortDown : key !== "player";
      sortKey = key;
      render();
    });
    tr.appendChild(th);
  }
  const sorted = rows.slice().sort((a, b) => {
    const x = a[sortKey], y = b[sortKey];
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (sortDown ? -1 : 1);
  });
  body.innerHTML = "";
  for (const r of sorted) {
    const row = body.insertRow();
    for (const [key, , kind] of COLUMNS) {
      const td = row.insertCell();
      td.textContent = cell(r[key], kind);
      if (key === "player") {
        td.className = "l player-name";
        td.style.cursor = "pointer";
        td.addEventListener("click", () => drawGraph(r.player));
      }
    }
  }
}

async function load() {
  showError("");
  try {
    rows = (await getJSON(`/api/v1/stats?${query()}`)).players;
  } catch (e) {
    rows = [];
    render();
    showError(e.message);
    return;
  }
  render();
  if (rows.length && (!chosen || !rows.some(r => r.player === chosen))) chosen = rows[0].player;
  if (chosen) drawGraph(chosen);
}

async function drawGraph(player) {
  chosen = player;
  const svg = document.getElementById("graph");
  let g;
  try {
    g = await getJSON(`/api/v1/graph?${query({ player })}`);
  } catch (e) {
    showError(e.message);
    return;
  }
  document.getElementById("graph-title").textContent = `${g.player}: ${g.hands.toLocaleString("en-US")} hands`;
  const W = +svg.getAttribute("width"), H = +svg.getAttribute("height"), pad = 50;
  let lo = 0, hi = 0;
  for (const [key] of LINES) for (const v of g[key]) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (hi === lo) hi = lo + 1;
  const n = Math.max(g.hands, 2);
  const sx = x => pad + (W - 2 * pad) * (x - 1) / (n - 1);
  const sy = y => H - pad + (H - 2 * pad) * (lo - y) / (hi - lo);
  const ns = "http://www.w3.org/2000/svg";
  svg.innerHTML = "";
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.appendChild(el);
    return el;
  };
  add("line", { x1: pad, x2: W - pad, y1: sy(0), y2: sy(0), stroke: "#999" });
  add("text", { x: 4, y: sy(hi) + 4, "font-size": 11 }, cell(hi, "num"));
  add("text", { x: 4, y: sy(lo) + 4, "font-size": 11 }, cell(lo, "num"));
  add("text", { x: W - pad, y: H - pad + 16, "font-size": 11, "text-anchor": "end" }, `${g.hands} hands`);
  for (const [key, , color, dash] of LINES) {
    const pts = g.x.map((x, i) => `${sx(x).toFixed(1)},${sy(g[key][i]).toFixed(1)}`).join(" ");
    add("polyline", { points: pts, fill: "none", stroke: color, "stroke-width": 1.5,
                      "stroke-dasharray": dash, "data-line": key });
  }
  document.getElementById("graph-legend").innerHTML = LINES.map(([key, label, color]) =>
    `<span style="color:${color}">&#9644; ${label} ${cell(g[key][g[key].length - 1], "num")}</span>`).join(" &nbsp; ");
}

document.getElementById("filter-form").addEventListener("submit", ev => {
  ev.preventDefault();
  load();
});
load();
