// Cards drawn as SVG (crisp at any size): le_dix playing cards, dix number/wild/currency cards,
// dix de suite numbered cards, and card backs. Every function returns a DOM element.

const NS = "http://www.w3.org/2000/svg";
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const DIX_COLOUR = { B: "#2f6fd6", G: "#2f9e44", O: "#f08c00", P: "#d6336c" };

function svg(w, h) {
  const s = document.createElementNS(NS, "svg");
  s.setAttribute("viewBox", `0 0 ${w} ${h}`);
  s.setAttribute("class", "card-svg");
  return s;
}

function el(parent, tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

function frame(s, fill, stroke) {
  el(s, "rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: fill || "#fff", stroke: stroke || "#555", "stroke-width": 1.5 });
}

function wrap(s, name, cls) {
  const d = document.createElement("div");
  d.className = "card " + (cls || "");
  d.dataset.card = name;
  d.setAttribute("title", name);
  d.appendChild(s);
  return d;
}

export function back(label) {
  const s = svg(60, 84);
  frame(s, "#35507a", "#223");
  el(s, "rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "none", stroke: "#9fb4d8", "stroke-width": 1.5, "stroke-dasharray": "3 3" });
  if (label !== undefined) el(s, "text", { x: 30, y: 50, "text-anchor": "middle", "font-size": 20, fill: "#fff" }, String(label));
  return wrap(s, "hidden card", "back");
}

export function leDixCard(name) {
  const s = svg(60, 84);
  frame(s);
  const suit = name.slice(-1), rank = name.slice(0, -1);
  const colour = suit === "H" || suit === "D" ? "#c92a2a" : "#212529";
  const r = RANK[rank] || rank;
  el(s, "text", { x: 6, y: 20, "font-size": 16, "font-weight": 700, fill: colour }, r);
  el(s, "text", { x: 6, y: 36, "font-size": 15, fill: colour }, SUIT[suit] || suit);
  el(s, "text", { x: 32, y: 62, "text-anchor": "middle", "font-size": 34, fill: colour }, SUIT[suit] || suit);
  return wrap(s, name, "le-dix");
}

export function dixCard(name) {
  const s = svg(60, 84);
  if (name.startsWith("$")) {
    frame(s, "#fff3bf", "#b08900");
    el(s, "circle", { cx: 30, cy: 42, r: 20, fill: "#fcc419", stroke: "#b08900", "stroke-width": 2 });
    el(s, "text", { x: 30, y: 50, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#5c3d00" }, name);
    return wrap(s, name, "dix currency");
  }
  if (name === "**") {
    frame(s, "#f8f0fc", "#7048e8");
    el(s, "text", { x: 30, y: 56, "text-anchor": "middle", "font-size": 38, fill: "#7048e8" }, "★");
    return wrap(s, name, "dix wild");
  }
  if (name.startsWith("W")) {  // number wild: any colour
    frame(s, "#fff");
    const cols = Object.values(DIX_COLOUR);
    cols.forEach((c, i) => el(s, "rect", { x: 4 + i * 13, y: 66, width: 13, height: 12, fill: c }));
    el(s, "text", { x: 30, y: 48, "text-anchor": "middle", "font-size": 30, "font-weight": 700, fill: "#333" }, name.slice(1));
    return wrap(s, name, "dix wild");
  }
  const colour = DIX_COLOUR[name[0]] || "#666";
  frame(s, colour, "#333");
  el(s, "rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "#fff", opacity: 0.9 });
  el(s, "text", { x: 30, y: 54, "text-anchor": "middle", "font-size": 32, "font-weight": 700, fill: colour }, name[1] === "#" ? "#" : name.slice(1));
  el(s, "text", { x: 10, y: 20, "font-size": 12, "font-weight": 700, fill: colour }, name[0]);
  return wrap(s, name, name[1] === "#" ? "dix wild" : "dix");
}

export function suiteCard(n, top) {
  const s = svg(60, 84);
  const hue = Math.round(((n - 1) / Math.max(1, (top || 60) - 1)) * 270);
  frame(s, `hsl(${hue} 70% 92%)`, `hsl(${hue} 60% 35%)`);
  el(s, "rect", { x: 1, y: 1, width: 58, height: 14, rx: 6, fill: `hsl(${hue} 65% 45%)` });
  el(s, "text", { x: 30, y: 56, "text-anchor": "middle", "font-size": 30, "font-weight": 700, fill: `hsl(${hue} 60% 25%)` }, String(n));
  return wrap(s, String(n), "suite");
}

export function card(kind, name, top) {
  if (name === null || name === undefined) return back();
  if (kind === "le_dix") return leDixCard(name);
  if (kind === "dix") return dixCard(name);
  if (kind === "dix_de_suite") return suiteCard(name, top);
  const d = document.createElement("div");
  d.className = "card text";
  d.textContent = String(name);
  return d;
}
