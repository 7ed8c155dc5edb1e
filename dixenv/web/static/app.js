// The page: a new-game form, the table (play or watch) and replays, routed by the URL's fragment:
//   #/                                   new game
//   #/game/ID?token=T&viewer=V           a running game (the token stays in the fragment: never sent as a URL)
//   #/replay/ID?token=T&pos=K&viewer=V   a replay at a position
//   #/replays                            open a record

import { api } from "./api.js";
import { renderTable, seatName } from "./table.js";

const $ = (id) => document.getElementById(id);
// seatLinks: the person seats' tokens of the game this tab started ({id, tokens: {seat: token}}), kept in memory only.
const S = { catalog: null, mode: null, id: null, token: null, seat: null, viewer: "", since: 0, view: null, timer: null, paused: false, _busy: false,
  seatLinks: null,
  get busy() { return this._busy; },
  set busy(v) { this._busy = v; document.body.dataset.busy = v ? "1" : "0"; } };  // body[data-busy] lets tests wait

function show(screen) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== `screen-${screen}`;
}

function stopTimer() {
  if (S.timer) clearTimeout(S.timer);
  S.timer = null;
}

function parseHash() {
  const h = location.hash.replace(/^#/, "") || "/";
  const [path, query] = h.split("?");
  return { parts: path.split("/").filter(Boolean), params: new URLSearchParams(query || "") };
}

function gameLink(id, token) {
  return `#/game/${id}?${new URLSearchParams({ token })}`;
}

// After starting a game with several person seats: one link per seat, each with that seat's token,
// so each person opens their own seat in another tab (or on another screen of this machine).
function drawSeatLinks() {
  const box = $("seat-links");
  const links = S.seatLinks;
  box.hidden = !(links && links.id === S.id && S.mode === "play");
  if (box.hidden) return box.replaceChildren();
  const items = Object.entries(links.tokens).map(([seat, token]) => {
    const a = Object.assign(document.createElement("a"), { href: gameLink(links.id, token), target: "_blank", rel: "noopener noreferrer",
      textContent: `player_${seat}` + (token === S.token ? " (this tab)" : "") });
    a.dataset.seat = seat;
    return a;
  });
  box.replaceChildren("Each person opens their own seat (the link holds that seat's token; give it only to them):", ...items);
}

function setLink() {
  const p = new URLSearchParams({ token: S.token });
  if (S.viewer !== "" && S.viewer !== null && S.viewer !== undefined) p.set("viewer", S.viewer);
  if (S.mode === "replay") p.set("pos", S.view ? S.view.position : 0);
  const hash = `#/${S.mode === "replay" ? "replay" : "game"}/${S.id}?${p}`;
  history.replaceState(null, "", hash);
  $("deep-link").href = hash;
}

// ------------------------------------------------------------------------------------------------
// new game

async function loadCatalog() {
  if (!S.catalog) S.catalog = (await api.catalog()).games;
  return S.catalog;
}

function optionInput(opt, game) {
  const label = document.createElement("label");
  label.textContent = opt.name + " ";
  let input;
  const def = game.default_table[opt.name] !== undefined ? game.default_table[opt.name] : opt.default;
  if (opt.name === "num_players") {
    input = document.createElement("select");
    for (const n of game.players) input.add(new Option(String(n), String(n), false, n === def));
  } else if (typeof opt.default === "boolean") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = def;
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.value = JSON.stringify(def);
  }
  input.name = `opt-${opt.name}`;
  input.id = `opt-${opt.name}`;
  input.dataset.option = opt.name;
  input.dataset.kind = typeof opt.default;
  input.addEventListener("change", drawSeats);
  label.appendChild(input);
  return label;
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") out[name] = input.checked;
    else if (name === "num_players") out[name] = Number(input.value);
    else {
      try { out[name] = JSON.parse(input.value); } catch (e) { out[name] = input.value; }
    }
  }
  return out;
}

function seatCount(game, options) {
  if (game.name === "dix" && options.solo) return 1;
  return options.num_players || game.default_table.num_players || game.players[0];
}

function drawForm() {
  const game = S.catalog.find((g) => g.name === $("game").value);
  const box = $("options");
  box.replaceChildren(box.querySelector("legend"));
  for (const opt of game.options) {
    if (opt.name === "hook") continue;
    box.appendChild(optionInput(opt, game));
  }
  $("agent-list").textContent = game.agents.join(", ");
  drawSeats();
}

function drawSeats() {
  const game = S.catalog.find((g) => g.name === $("game").value);
  const options = readOptions();
  if (game.name === "dix") {
    const d = $("opt-difficulty");
    if (d && options.solo && (options.difficulty || 0) < 4) d.value = "6";
    if (d && !options.solo) d.value = "0";
  }
  const box = $("seats");
  const n = seatCount(game, options);
  if (box.dataset.game === game.name && box.querySelectorAll("input.seat").length === n) return;  // nothing to redraw
  box.dataset.game = game.name;
  const old = [...box.querySelectorAll("input.seat")].map((i) => i.value);
  box.replaceChildren(box.querySelector("legend"));
  let list = document.getElementById("agents-datalist");
  if (!list) { list = document.createElement("datalist"); list.id = "agents-datalist"; document.body.appendChild(list); }
  list.replaceChildren(...["person", ...game.agents].map((a) => new Option(a)));
  for (let s = 0; s < n; s++) {
    const label = document.createElement("label");
    label.textContent = `player_${s} `;
    const input = document.createElement("input");
    input.className = "seat";
    input.dataset.seat = s;
    input.name = `seat-${s}`;
    input.setAttribute("list", "agents-datalist");
    const fallback = game.agents.includes("heuristic") ? "heuristic" : "random";
    input.value = old[s] || (s === 0 ? "person" : fallback);
    label.appendChild(input);
    box.appendChild(label);
  }
  if (game.name === "dix" && options.solo) box.appendChild(document.createTextNode(" + ALIX, played by the game"));
}

async function screenNew() {
  stopTimer();
  show("new");
  const games = await loadCatalog();
  const select = $("game");
  if (!select.options.length) {
    for (const g of games) select.add(new Option(`${g.title || g.name} (${g.name})`, g.name));
    select.value = games.some((g) => g.name === "le_dix") ? "le_dix" : games[0].name;
    select.addEventListener("change", drawForm);
    drawForm();
  }
}

async function submitNew(ev) {
  ev.preventDefault();
  $("new-error").textContent = "";
  const body = { game: $("game").value, options: readOptions(), seats: [...document.querySelectorAll("#seats input.seat")].map((i) => i.value.trim()) };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const game = S.catalog.find((g) => g.name === body.game);
  if (game.name !== "dix" || !body.options.solo) delete body.options.difficulty;
  if (game.name === "dix" && !body.options.solo) delete body.options.solo;
  try {
    const info = await api.newGame(body);
    S.seatLinks = Object.keys(info.tokens).length >= 2 ? { id: info.id, tokens: info.tokens } : null;
    location.hash = `#/game/${info.id}?token=${encodeURIComponent(info.token)}`;
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

// ------------------------------------------------------------------------------------------------
// the table

function fillViewers(view) {
  const sel = $("viewer");
  const seats = view.table.players.map((p) => p.seat).filter((s) => !(view.table.players[s] && view.table.players[s].alix));
  const own = view.kind === "game" && view.persons.length > 0;
  // a person's token sees their own seat; once the game is over, everything (the spectator) too
  const wanted = own ? [String(S.seat), ...(view.over ? ["spectator"] : [])] : ["spectator", ...seats.map(String)];
  const now = [...sel.options].map((o) => o.value);
  if (now.join() !== wanted.join()) {
    sel.replaceChildren(...wanted.map((v) => new Option(v === "spectator" ? "spectator (everything)" : `player_${v}`, v)));
  }
  sel.value = view.viewer === null ? "spectator" : String(view.viewer);
  sel.disabled = own && !view.over;
}

function addEvents(events, reset) {
  const log = $("log");
  if (reset) log.replaceChildren();
  for (const e of events) {
    const li = document.createElement("li");
    li.className = `ev ${e.kind}`;
    li.dataset.i = e.i;
    li.textContent = e.kind === "forced" ? `${e.text} (forced)` : e.text;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

function drawSummary(view) {
  const box = $("summary");
  const s = view.summary;
  box.hidden = !s;
  if (!s) return;
  const table = document.createElement("table");
  const head = table.insertRow();
  for (const h of ["seat", "score", ...(s.bids_made ? ["bids made"] : []), ""]) head.appendChild(Object.assign(document.createElement("th"), { textContent: h }));
  s.scores.forEach((score, seat) => {
    const tr = table.insertRow();
    tr.dataset.seat = seat;
    tr.insertCell().textContent = s.names[seat] === "ALIX" ? "ALIX" : seatName(view, seat);
    const cell = tr.insertCell();
    cell.className = "score";
    cell.textContent = String(score);
    if (s.bids_made) tr.insertCell().textContent = s.bids_made[seat] ?? "";
    tr.insertCell().textContent = s.winners.includes(seat) ? "winner" : "";
    if (s.winners.includes(seat)) tr.classList.add("winner");
  });
  const title = Object.assign(document.createElement("h2"), { textContent: s.finished ? "Game over" : "Game stopped (turn limit)" });
  const buttons = document.createElement("p");
  if (view.kind === "game") {
    const replay = Object.assign(document.createElement("button"), { id: "replay-this", type: "button", textContent: "Replay this game" });
    replay.addEventListener("click", replayThis);
    const save = Object.assign(document.createElement("button"), { id: "save-record", type: "button", textContent: "Save the record" });
    save.addEventListener("click", saveRecord);
    buttons.append(replay, " ", save);
  }
  box.replaceChildren(title, table, buttons);
}

function drawMoves(view) {
  const box = $("moves");
  box.replaceChildren(...view.moves.map((m) => {
    const b = Object.assign(document.createElement("button"), { type: "button", textContent: m.text });
    b.dataset.action = m.action;
    b.addEventListener("click", () => sendMove(m.action));
    return b;
  }));
}

function statusText(view) {
  if (view.over) return "Game over.";
  if (view.kind === "replay") return `move ${view.position} of ${view.length}` + (view.next_move ? ` · next: ${view.next_move} by player_${view.to_play}` : "");
  if (view.moves.length) return "Your turn: click a highlighted card or a move.";
  if (S.mode === "watch") return `player_${view.to_play} to play` + (S.paused ? " (paused)" : "");
  return `Waiting for player_${view.to_play}…`;
}

function draw(view, resetLog) {
  S.view = view;
  $("title").textContent = `${view.game} · ${view.seats.map((s, i) => `${i}: ${s}`).join(", ")}` + (view.seed !== null ? ` · seed ${view.seed}` : "");
  fillViewers(view);
  const table = renderTable(view, { cards: view.cards || {}, onToken });
  $("table").replaceChildren(table);
  $("table").dataset.game = view.game;
  $("table").dataset.over = String(view.over);
  drawMoves(view);
  $("status").textContent = statusText(view);
  addEvents(view.events, resetLog);
  S.since = view.events_total;
  drawSummary(view);
  if (view.kind === "replay") {
    $("pos").max = view.length;
    $("pos").value = view.position;
    $("pos-text").textContent = `${view.position}/${view.length}`;
  }
  setLink();
}

function onToken(token, info) {
  if (S.busy) return;
  if (info.legal) {
    if (info.actions.length === 1) sendMove(info.actions[0]);
    else for (const b of document.querySelectorAll("#moves button")) b.classList.toggle("hint", info.actions.includes(Number(b.dataset.action)));
  } else {
    sendMove(info.action);  // the server refuses it with the engine's reason, shown under the table
  }
}

async function sendMove(action) {
  if (S.busy) return;
  S.busy = true;
  $("message").textContent = "";
  try {
    draw(await api.move(S.id, S.token, action, S.since), false);
  } catch (e) {
    $("message").textContent = e.message;
  } finally {
    S.busy = false;
  }
  schedule();
}

function schedule() {
  stopTimer();
  const v = S.view;
  if (!v || v.over || S.mode === "replay") return;
  if (S.mode === "watch" && !S.paused) S.timer = setTimeout(tick, Number($("speed").value));
  if (S.mode === "play" && !v.moves.length) S.timer = setTimeout(poll, 1000);  // another person is to play
}

async function tick() {
  if (S.busy) return;
  S.busy = true;
  try {
    draw(await api.advance(S.id, S.token, 1, S.viewer, S.since), false);
  } catch (e) {
    $("message").textContent = e.message;
  } finally {
    S.busy = false;
  }
  schedule();
}

async function poll() {
  try {
    draw(await api.game(S.id, S.token, S.viewer, S.since), false);
  } catch (e) {
    $("message").textContent = e.message;
    return;
  }
  schedule();
}

async function openGame(id, params) {
  stopTimer();
  show("table");
  S.id = id;
  S.token = params.get("token");
  S.viewer = params.get("viewer") ?? "";
  S.since = 0;
  S.paused = false;
  $("message").textContent = "";
  $("replay-controls").hidden = true;
  $("seat-links").hidden = true;
  try {
    const view = await api.game(id, S.token, S.viewer, 0);
    S.mode = view.persons.length ? "play" : "watch";
    S.seat = S.mode !== "play" ? null : S.viewer === "" ? view.viewer : (await api.game(id, S.token, "", 0)).viewer;  // the token's seat
    drawSeatLinks();
    if (S.mode === "watch" && S.viewer === "") S.viewer = "spectator";
    $("watch-controls").hidden = S.mode !== "watch";
    $("play-pause").textContent = "Pause";
    draw(S.viewer === "spectator" ? await api.game(id, S.token, S.viewer, 0) : view, true);
    schedule();
  } catch (e) {
    $("status").textContent = "";
    $("table").replaceChildren();
    $("message").textContent = e.message;
  }
}

async function replayThis() {
  try {
    const record = await api.record(S.id, S.token);
    const info = await api.openReplay({ record });
    location.hash = `#/replay/${info.id}?token=${encodeURIComponent(info.token)}&pos=0`;
  } catch (e) {
    $("message").textContent = e.message;
  }
}

async function saveRecord() {
  const record = await api.record(S.id, S.token);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" }));
  a.download = `${record.game}_${record.seed}.json`;
  a.click();
}

// ------------------------------------------------------------------------------------------------
// replays

async function openReplay(id, params) {
  stopTimer();
  show("table");
  S.mode = "replay";
  S.id = id;
  S.token = params.get("token");
  S.viewer = params.get("viewer") ?? "spectator";
  $("watch-controls").hidden = true;
  $("replay-controls").hidden = false;
  $("seat-links").hidden = true;
  $("message").textContent = "";
  await gotoPos(Number(params.get("pos") || 0));
}

async function gotoPos(pos) {
  if (S.busy) return;
  S.busy = true;
  try {
    draw(await api.replay(S.id, S.token, pos, S.viewer), true);
    $("message").textContent = "";
  } catch (e) {
    $("message").textContent = e.message;
  } finally {
    S.busy = false;
  }
}

async function screenReplays() {
  stopTimer();
  show("replays");
  const cat = await loadCatalog();
  void cat;
  try {
    const names = (await api.records()).records;
    $("records-box").hidden = !names.length;
    $("records").replaceChildren(...names.map((n) => {
      const li = document.createElement("li");
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: n });
      b.dataset.record = n;
      b.addEventListener("click", () => startReplay({ name: n }));
      li.appendChild(b);
      return li;
    }));
  } catch (e) {
    $("replay-error").textContent = e.message;
  }
}

async function startReplay(body) {
  $("replay-error").textContent = "";
  try {
    const info = await api.openReplay(body);
    location.hash = `#/replay/${info.id}?token=${encodeURIComponent(info.token)}&pos=0`;
  } catch (e) {
    $("replay-error").textContent = e.message;
  }
}

async function loadFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (e) {
    $("replay-error").textContent = `not a JSON file: ${e.message}`;
    return;
  }
  await startReplay({ record });
}

// ------------------------------------------------------------------------------------------------

async function route() {
  const { parts, params } = parseHash();
  try {
    if (parts[0] === "game" && parts[1]) await openGame(parts[1], params);
    else if (parts[0] === "replay" && parts[1]) await openReplay(parts[1], params);
    else if (parts[0] === "replays") await screenReplays();
    else await screenNew();
  } catch (e) {
    $("message").textContent = e.message;
  }
}

function init() {
  S.busy = false;
  $("new-form").addEventListener("submit", submitNew);
  $("viewer").addEventListener("change", async () => {
    S.viewer = $("viewer").value;
    if (S.mode === "replay") await gotoPos(S.view.position);
    else {
      draw(await api.game(S.id, S.token, S.viewer, 0), true);
      schedule();
    }
  });
  $("play-pause").addEventListener("click", () => {
    S.paused = !S.paused;
    $("play-pause").textContent = S.paused ? "Play" : "Pause";
    $("status").textContent = S.view ? statusText(S.view) : "";
    schedule();
  });
  $("step").addEventListener("click", () => {
    if (!S.paused) { S.paused = true; $("play-pause").textContent = "Play"; }
    stopTimer();
    tick();
  });
  const speed = () => { $("speed-ms").textContent = `${$("speed").value} ms/move`; };
  $("speed").addEventListener("input", speed);
  speed();
  $("first").addEventListener("click", () => gotoPos(0));
  $("back").addEventListener("click", () => gotoPos(Math.max(0, S.view.position - 1)));
  $("fwd").addEventListener("click", () => gotoPos(Math.min(S.view.length, S.view.position + 1)));
  $("last").addEventListener("click", () => gotoPos(S.view.length));
  $("pos").addEventListener("change", () => gotoPos(Number($("pos").value)));
  $("record-file").addEventListener("change", loadFile);
  document.addEventListener("keydown", (e) => {
    if (S.mode !== "replay" || $("screen-table").hidden || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") $("back").click();
    if (e.key === "ArrowRight") $("fwd").click();
  });
  window.addEventListener("hashchange", route);
  route();
}

init();
