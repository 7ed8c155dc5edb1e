// The table of each game, drawn from the JSON view the server built for one seat (or a spectator).
// Cards the viewer may click carry data-token (the last word of their moves: "TH", "B3", a rack slot);
// the server's `cards` map says whether a token's move is legal now, or the engine's reason why not.

import { back, card } from "./cards.js";

function div(cls, text) {
  const d = document.createElement("div");
  if (cls) d.className = cls;
  if (text !== undefined) d.textContent = text;
  return d;
}

export function seatName(view, seat) {
  const t = view.table;
  if (t.kind === "dix" && t.players[seat] && t.players[seat].alix) return "ALIX";
  if (view.kind === "game" && view.persons && view.persons.includes(seat) && view.viewer === seat) return `you (player_${seat})`;
  return `player_${seat}`;
}

function clickable(el, token, ctx) {
  const info = ctx.cards[token];
  el.dataset.token = token;
  if (!info) return el;
  if (info.legal) {
    el.classList.add("legal");
    el.tabIndex = 0;
    el.setAttribute("role", "button");
  } else {
    el.classList.add("illegal");
    el.setAttribute("title", `${info.text}: ${info.reason}`);
  }
  el.addEventListener("click", () => ctx.onToken(token, info));
  return el;
}

function row(cls, items) {
  const d = div("row " + (cls || ""));
  items.forEach((x) => d.appendChild(x));
  return d;
}

function labelled(label, content) {
  const d = div("zone");
  d.appendChild(div("zone-label", label));
  d.appendChild(content);
  return d;
}

function playerPanel(view, p, extra) {
  const d = div("player");
  d.dataset.seat = p.seat;
  if (view.to_play === p.seat) d.classList.add("to-play");
  if (view.viewer === p.seat) d.classList.add("me");
  const head = div("player-head");
  head.appendChild(div("name", seatName(view, p.seat) + (p.dealer ? " (dealer)" : "")));
  head.appendChild(div("score", `score ${p.score}`));
  d.appendChild(head);
  if (extra) d.appendChild(extra);
  return d;
}

// ------------------------------------------------------------------------------------------------
function leDix(view, ctx) {
  const t = view.table;
  const root = div("le-dix");
  root.appendChild(div("info", `deal ${t.deal}/${t.deals} · ${t.hand_size} card(s) each · ${t.phase}` +
    (t.trump_suit ? ` · trump ${t.trump_suit}` : "") + (t.dealer_took_trump ? " (the dealer took it)" : "")));
  const players = div("players");
  for (const p of t.players) {
    const info = div("figures", `bid ${p.bid === null ? "–" : p.bid} · tricks ${p.tricks}` + (p.voids.length ? ` · void ${p.voids.join(" ")}` : ""));
    const box = div();
    box.appendChild(info);
    if (view.viewer !== p.seat) {
      const hand = div("row hand small");
      if (p.hand) p.hand.forEach((c) => hand.appendChild(card("le_dix", c)));
      else for (let i = 0; i < p.hand_count; i++) hand.appendChild(back());
      box.appendChild(hand);
    }
    players.appendChild(playerPanel(view, p, box));
  }
  root.appendChild(players);
  const centre = div("centre");
  if (t.trump_card) centre.appendChild(labelled("trump card", row("", [card("le_dix", t.trump_card)])));
  const trick = t.trick.map((x) => { const c = card("le_dix", x.card); c.appendChild(div("by", `player_${x.seat}`)); return c; });
  centre.appendChild(labelled("trick", row("trick", trick.length ? trick : [div("empty", "—")])));
  if (t.last_trick.length) {
    const last = t.last_trick.map((x) => { const c = card("le_dix", x.card); c.appendChild(div("by", `player_${x.seat}`)); return c; });
    centre.appendChild(labelled("last trick", row("trick small", last)));
  }
  root.appendChild(centre);
  if (view.viewer !== null && view.viewer !== undefined) {
    const me = t.players[view.viewer];
    const hand = row("hand mine", (me.hand || []).map((c) => clickable(card("le_dix", c), c, ctx)));
    root.appendChild(labelled(view.kind === "game" && view.persons.includes(view.viewer) ? "your hand" : `player_${view.viewer}'s hand`, hand));
    if (me.discard) root.appendChild(labelled("face-down discard", row("", [card("le_dix", me.discard)])));
  }
  return root;
}

// ------------------------------------------------------------------------------------------------
function dixDeSuite(view, ctx) {
  const t = view.table;
  const top = t.players.length * 10 + 20;
  const root = div("dix-de-suite");
  root.appendChild(div("info", `round ${t.round} · turn ${t.round_turns} · target ${t.target} · ${t.phase}`));
  const centre = div("centre");
  const pile = row("", [back(t.draw_pile)]);
  pile.firstChild.dataset.token = "draw-pile";
  centre.appendChild(labelled(`draw pile (${t.draw_pile})` + (t.draw_order ? ": " + t.draw_order.join(" ") : ""), pile));
  centre.appendChild(labelled("discard pile", row("", t.discard.length ? [card("dix_de_suite", t.discard[0], top)] : [div("empty", "—")])));
  if (t.held !== null) centre.appendChild(labelled(`card in hand (player_${t.held_by})`, row("", [card("dix_de_suite", t.held, top)])));
  root.appendChild(centre);
  const players = div("players racks");
  for (const p of t.players) {
    const rack = div("rack");
    p.rack.forEach((c, i) => {
      const slot = div("slot");
      slot.appendChild(div("slot-no", String(i + 1)));
      const el = card("dix_de_suite", c, top);
      if (p.public[i]) el.classList.add("public");
      if (view.viewer === p.seat) clickable(slot, String(i + 1), ctx);
      slot.appendChild(el);
      rack.appendChild(slot);
    });
    players.appendChild(playerPanel(view, p, rack));
  }
  root.appendChild(players);
  return root;
}

// ------------------------------------------------------------------------------------------------
function dix(view, ctx) {
  const t = view.table;
  const root = div("dix");
  root.appendChild(div("info", (t.solo ? `solo against ALIX (difficulty ${t.difficulty}) · ` : "") +
    `${t.phase} · turn of ${t.active === null ? "–" : seatName(view, t.active)} · draw pile ${t.draw_pile}` +
    (t.last_card_drawn ? " · the last card is drawn" : "")));
  const centre = div("centre");
  centre.appendChild(labelled(`tableau (total ${t.tableau_total}, currency ${t.tableau_currency})`,
    row("", t.tableau.length ? t.tableau.map((c) => card("dix", c)) : [div("empty", "—")])));
  const mine = view.viewer !== null && view.viewer !== undefined;
  centre.appendChild(labelled("market", row("market", t.market.length ? t.market.map((c) => (mine ? clickable(card("dix", c), c, ctx) : card("dix", c))) : [div("empty", "—")])));
  const discard = t.discard.slice(-8);
  centre.appendChild(labelled(`discard pile (${t.discard.length})`, row("small", discard.length ? discard.map((c) => card("dix", c)) : [div("empty", "—")])));
  if (t.auction) {
    centre.appendChild(labelled("auction", row("", [card("dix", t.auction.card),
      div("figures", `high bid ${t.auction.high_bid}` + (t.auction.high_bidder !== null ? ` by ${seatName(view, t.auction.high_bidder)}` : "") +
        (t.auction.still_to_bid.length ? ` · to bid: ${t.auction.still_to_bid.map((s) => seatName(view, s)).join(", ")}` : ""))])));
  }
  if (t.payment_left !== null) centre.appendChild(div("figures", `still to pay: ${t.payment_left}`));
  if (t.buying) centre.appendChild(labelled("buying", row("", [card("dix", t.buying)])));
  root.appendChild(centre);
  const players = div("players");
  for (const p of t.players) {
    const box = div();
    box.appendChild(div("figures", `tokens ${p.tokens} · consolation ${p.consolation}`));
    const coll = row("collection small", p.collection.map((c) => (view.viewer === p.seat ? clickable(card("dix", c), c, ctx) : card("dix", c))));
    box.appendChild(coll);
    players.appendChild(playerPanel(view, p, box));
  }
  root.appendChild(players);
  return root;
}

function generic(view) {
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(view.table, null, 1);
  return pre;
}

export function renderTable(view, ctx) {
  const kinds = { le_dix: leDix, dix_de_suite: dixDeSuite, dix };
  const fn = kinds[view.table.kind] || generic;
  return fn(view, ctx);
}
