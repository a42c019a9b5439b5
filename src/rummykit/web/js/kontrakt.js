// The Kontraktsrummy table: the deal's contract, the stock and the discard pile, every
// player's melds, the first upcard's offer, the hand, melds staged to lay down, lay-offs,
// joker swaps, the discard, the score sheet and each deal's end.

import { h } from "../vendor/preact/preact.module.js";
import { load, save } from "./api.js";
import { cardBack, plainCard, shortCard, shortCards } from "./cards.js";
import { t } from "./i18n.js";
import { contractWords, specOf } from "./spec.js";
import { shownSentence } from "./words.js";
import { rerender } from "./store.js";
import { Card, Modal, SortButtons, StaticCard, actionButton, cardCount, showAboveDock } from "./ui.js";

function ui(ctx) {
  const u = ctx.ui;
  if (!u.kontrakt) {
    u.kontrakt = true;
    u.sel = [];
    u.staged = [];
    u.verdict = null;
    u.hint = null;
    u.version = null;
    u.endsSeen = endsSeen(ctx);
    u.showScores = false;
    const kept = ctx.seat === null ? null : load(stagedKey(ctx), null);
    if (Array.isArray(kept) && kept.every((m) => Array.isArray(m))) u.staged = kept;
  }
  if (u.version !== ctx.state.version) {
    u.version = ctx.state.version;
    u.sel = [];
    u.hint = null;
    u.legal = null;
    u.legalAsked = false;
    u.staged = keepStaged(u.staged, ctx.view.hand || []);
    keepStagedMelds(ctx, u);
    u.verdict = null;
    if (u.staged.length && ctx.myTurn && ctx.view.phase === "play") scheduleCheck(ctx);
  }
  return u;
}

// The staged melds are kept in the browser (per table and seat), across a reload.

function stagedKey(ctx) {
  return `staged.${ctx.id}.${ctx.seat}`;
}

/** Forget the melds kept staged for a board (a lesson's or a puzzle's, whose versions begin
 * again at its start: what is kept would come back to a position it was not made for). */
export function forgetStaged(id, seat) {
  save(stagedKey({ id, seat }), null);
}

function keepStagedMelds(ctx, u) {
  if (ctx.seat !== null) save(stagedKey(ctx), u.staged.length ? u.staged : null);
}

function dealEnds(log) {
  return log.filter((e) => e.type === "deal_end");
}

/** How many deals' ends the player has seen (kept in the browser); a page opened afresh
 * shows the last one while the player has not yet acted in the next deal. */
function endsSeen(ctx) {
  const log = ctx.view.log;
  const ends = dealEnds(log).length;
  const kept = ctx.seat === null ? null : load(`seen.${ctx.id}.${ctx.seat}`, null);
  if (Number.isInteger(kept) && kept <= ends) return kept;
  const last = log.map((e) => e.type).lastIndexOf("deal_end");
  const acted = last >= 0 && log.slice(last + 1).some((e) => e.seat === ctx.seat);
  return last < 0 || acted || ctx.seat === null ? ends : ends - 1;
}

/** The staged melds whose cards are still in the hand. */
function keepStaged(staged, hand) {
  const left = hand.slice();
  const out = [];
  for (const meld of staged) {
    const kept = [];
    for (const card of meld) {
      const k = left.indexOf(plainCard(card)); // a staged joker may say what it stands for
      if (k >= 0) {
        left.splice(k, 1);
        kept.push(card);
      }
    }
    if (kept.length) out.push(kept);
  }
  return out;
}

/** The hand's indexes that are staged. */
function stagedIndexes(u, hand) {
  const used = new Set();
  for (const meld of u.staged) {
    for (const card of meld) {
      const k = hand.findIndex((c, i) => c === plainCard(card) && !used.has(i));
      if (k >= 0) used.add(k);
    }
  }
  return used;
}

function scheduleCheck(ctx) {
  const u = ctx.ui;
  clearTimeout(u.checkTimer);
  u.checkTimer = setTimeout(async () => {
    if (!u.staged.length) {
      u.verdict = null;
      rerender();
      return;
    }
    const staged = JSON.stringify(u.staged);
    const answer = await ctx.request({ type: "check", action: { type: "meld", melds: u.staged } });
    if (JSON.stringify(u.staged) !== staged) return;
    u.verdict = answer.type === "checked" ? answer : null;
    rerender();
    // the verdict under the meld just built makes it taller: keep it above the dock
    if (u.built !== null && u.built !== undefined) showAboveDock(`.staged [data-staged="${u.built}"]`);
  }, 120);
}

function selectedCards(ctx) {
  const u = ui(ctx);
  return u.sel.map((i) => ctx.view.hand[i]);
}

function toggle(ctx, i) {
  const u = ui(ctx);
  u.sel = u.sel.includes(i) ? u.sel.filter((x) => x !== i) : [...u.sel, i];
  rerender();
}

function stage(ctx, indexes, into) {
  const u = ui(ctx);
  const cards = indexes.map((i) => ctx.view.hand[i]);
  if (!cards.length) {
    ctx.notify(t("Select the cards of a meld in your hand first."));
    return;
  }
  if (into === undefined || into === null || !u.staged[into]) u.staged.push(cards);
  else u.staged[into] = u.staged[into].concat(cards);
  keepStagedMelds(ctx, u);
  u.sel = [];
  u.verdict = null;
  // the meld just built, shown above the dock that would cover it on a phone (issue 45)
  u.built = u.staged[into] && into !== null && into !== undefined ? into : u.staged.length - 1;
  scheduleCheck(ctx);
  rerender();
  showAboveDock(`.staged [data-staged="${u.built}"]`);
}

function unstage(ctx, meld, pos) {
  const u = ui(ctx);
  u.staged[meld].splice(pos, 1);
  u.staged = u.staged.filter((m) => m.length);
  keepStagedMelds(ctx, u);
  u.built = null;
  u.verdict = null;
  scheduleCheck(ctx);
  rerender();
}

async function layDown(ctx) {
  const u = ui(ctx);
  if (!u.staged.length) {
    ctx.notify(t("Stage your melds first: select cards, then press Meld."));
    return false;
  }
  const ok = await ctx.act({ type: "meld", melds: u.staged });
  if (ok) {
    u.staged = [];
    keepStagedMelds(ctx, u);
  }
  rerender();
  return ok;
}

function oneSelected(ctx, what) {
  const cards = selectedCards(ctx);
  if (cards.length !== 1) {
    ctx.notify(what);
    return null;
  }
  return cards[0];
}

function discard(ctx, card) {
  card = card || oneSelected(ctx, t("Select the one card to discard."));
  if (card) ctx.act({ type: "discard", card });
}

function layOff(ctx, number, card) {
  card = card || oneSelected(ctx, t("Select the one card to lay off, then the meld."));
  if (!card) return;
  const legal = fitting(ui(ctx), "layoff", card, number); // with its "as" for a joker
  ctx.act(legal ? { type: "layoff", card: legal.card, meld: number, ...(legal.as ? { as: legal.as } : {}) } : { type: "layoff", card, meld: number });
}

function swap(ctx, number, card) {
  card = card || oneSelected(ctx, t("Select the real card that the joker stands for, then the meld."));
  if (card) ctx.act({ type: "swap_joker", card, meld: number });
}

/**
 * The lay-offs and joker swaps the engine allows the seat now (its legal actions, asked of the
 * server once a turn): "Lay off here" and "Swap for the joker" are offered only where the
 * selected card goes. Null until the answer comes.
 */
function legalMoves(ctx, u, wanted) {
  if (!wanted) return null;
  if (!u.legalAsked) {
    u.legalAsked = true;
    const version = ctx.state.version;
    ctx.request({ type: "hint" }).then((answer) => {
      if (u.version !== version || answer.type !== "hint") return;
      u.legal = answer.actions.filter((a) => a.type === "layoff" || a.type === "swap_joker");
      rerender();
    });
  }
  return u.legal;
}

/** The legal lay-off (or swap) of ``card`` onto meld ``number``, if there is one. */
function fitting(u, type, card, number) {
  return (u.legal || []).find((a) => a.type === type && plainCard(a.card) === plainCard(card) && (number === undefined || a.meld === number));
}

// ------------------------------------------------------------------ what it looks like

export function kontraktStanding(view, seat) {
  const laid = view.laid[seat];
  const bits = [];
  if (laid.complete) bits.push(h("span", { class: "badge opened", title: t("has laid the whole contract") }, t("contract laid")));
  else if (laid.groups || laid.runs) bits.push(h("span", { class: "badge part" }, t("laid {n}", { n: laid.groups + laid.runs })));
  bits.push(h("span", { class: "balance", title: t("penalty points so far (lower is better)") }, (view.totals[seat] === 1 ? t("1 pt") : t("{n} pts", { n: view.totals[seat] }))));
  return bits;
}

function phaseText(ctx) {
  const { view, names, seat } = ctx;
  const who = view.turn !== null && view.turn !== undefined ? names[view.turn] : "";
  switch (view.phase) {
    case "upcard_offer": {
      const asked = view.offer_to;
      if (asked === seat) {
        return asked === view.forhand
          ? t("You are förhand: take the upcard, or decline it.")
          : t("You are offered the upcard: buy it (you take the top of the stock too, as a penalty card), or pass.");
      }
      return asked === view.forhand
        ? t("{name} (förhand) may take the upcard.", { name: names[asked] })
        : t("{name} is offered the upcard.", { name: names[asked] });
    }
    case "draw":
      return view.turn === seat ? t("Your turn: draw from the stock or take the top of the discard pile.") : t("{name} draws.", { name: who });
    case "play":
      return view.turn === seat
        ? t("Lay down, lay off or swap a joker if you can; then discard a card.")
        : t("{name} is playing.", { name: who });
    case "game_over":
      return t("The seven deals are played.");
    default:
      return "";
  }
}

export function KontraktBoard({ ctx }) {
  const u = ui(ctx);
  const view = ctx.view;
  const me = ctx.seat;
  const hand = view.hand || [];
  const myPlay = ctx.myTurn && view.phase === "play";
  const complete = me !== null && view.laid[me].complete;
  ctx.ui.command = (command) => kontraktCommand(ctx, command);
  ctx.setDrop((payload, target, index) => {
    if (payload.game !== "kontrakt") return;
    const indexes = payload.indexes;
    if (target === "hand") {
      if (payload.staged) unstage(ctx, payload.staged[0], payload.staged[1]);
      else reorder(ctx, indexes, index);
      return;
    }
    if (!myPlay) return;
    if (target === "pile" && indexes.length === 1) discard(ctx, hand[indexes[0]]);
    else if (target.startsWith("kmeld:") && indexes.length === 1) layOff(ctx, Number(target.slice(6)), hand[indexes[0]]);
    else if (target === "stage:new") stage(ctx, indexes);
    else if (target.startsWith("stage:")) stage(ctx, indexes, Number(target.slice(6)));
  });
  const ends = dealEnds(view.log);
  if (ends.length < u.endsSeen) u.endsSeen = ends.length; // a new game: its log starts afresh
  const parts = [
    h("div", { class: "contract-banner" }, [
      // one item each: a wrapped line never starts with a separator (issue 45)
      h("strong", null, t("Deal {n} of 7", { n: view.deal + 1 })),
      h("span", { class: "contract-words" }, t("Contract: {contract}", { contract: contractWords(specOf("kontrakt"), view.deal, view.contract.text) })),
      h("button", { type: "button", class: "chip scores-button", onClick: () => { u.showScores = true; rerender(); } }, t("Score sheet")),
    ]),
  ];
  if (view.contract.all_at_once && !view.over) {
    parts.push(h("p", { class: "rule-note", "data-rule": "K12" }, [h("span", { class: "rule" }, "K12"), t("The seventh deal: nothing may be laid down until you can lay the whole contract (at least nine cards) in one turn; then lay-offs and joker swaps are open as usual.")]));
  }
  parts.push(h("div", { class: "status-line" }, h("span", { class: "status-text", "data-testid": "status" }, phaseText(ctx))));
  parts.push(Piles({ ctx, myPlay }));
  const afterPiles = parts.length; // a deal's end panel goes here: below what a turn needs
  parts.push(Melds({ ctx, u, myPlay, complete }));
  if (me !== null) {
    if (myPlay || u.staged.length) parts.push(Staged({ ctx, u, myPlay }));
    // the dock: what the player looks at on a turn, kept in view (sticky) on a small screen
    parts.push(h("div", { class: "dock" }, [ctx.messages(), myPlay ? StagedVerdict({ u }) : null, ActionBar({ ctx, u, myPlay }), u.hint ? HintList({ ctx, u }) : null, Hand({ ctx, u, hand })]));
  }
  if (u.showScores) parts.push(h(ScoreSheet, { ctx, close: () => { u.showScores = false; rerender(); } }));
  if (ends.length > u.endsSeen && !view.over) {
    // the deal's end is a panel above the next deal, not a dialog over it: the next deal's
    // upcard may be offered meanwhile, and its buttons stay free
    const entry = ends[ends.length - 1];
    const seen = () => {
      u.endsSeen = ends.length;
      if (ctx.seat !== null) {
        save(`seen.${ctx.id}.${ctx.seat}`, ends.length);
        // the bots wait for each player to have seen the deal's end (docs/protocol.md, seen)
        if (ctx.live) ctx.live.sendRaw({ type: "seen", version: ctx.state.version });
      }
      rerender();
    };
    // below the status line and the piles: above them, it pushed them under the dock, the
    // upcard offered meanwhile out of sight (issue 45)
    parts.splice(
      afterPiles,
      0,
      h("section", { class: "deal-end-panel", role: "region", "aria-label": t("Deal {n} is over", { n: entry.deal + 1 }) }, [
        h("div", { class: "panel-head" }, [h("h2", null, t("Deal {n} is over", { n: entry.deal + 1 })), h("button", { type: "button", class: "close", "aria-label": t("Close"), onClick: seen }, "×")]),
        h(DealEnd, { entry, names: ctx.names }),
        h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", onClick: seen }, t("On to deal {n}", { n: entry.deal + 2 }))),
      ]),
    );
  }
  return h("div", { class: "board kontrakt" }, parts);
}

function Piles({ ctx, myPlay }) {
  const view = ctx.view;
  const pile = view.discard_pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  const canDraw = ctx.myTurn && view.phase === "draw";
  const stockProps = { class: "pile-card stock-card", "aria-label": t("Draw from the stock ({cards})", { cards: cardCount(view.stock_size) }), onClick: () => ctx.act({ type: "draw", from: "stock" }) };
  // a seat's greyed stock says why when tapped, in the dock (ui.js actionButton); a watcher has no dock
  const stockButton =
    ctx.seat === null
      ? h("button", { type: "button", ...stockProps, disabled: true, title: t("You are watching this table.") }, cardBack())
      : actionButton(ctx, { ...stockProps, why: stockBlocked(ctx) }, cardBack());
  const pileProps = {
    class: "discard-pile" + (myPlay ? " target" : ""),
    "data-drop": "pile",
    "aria-label": top ? t("Discard pile: {card} on top, {cards}", { card: shortCard(top), cards: cardCount(pile.length) }) : t("The discard pile is empty"),
  };
  const takeable = canDraw && top && !view.stock_only;
  return h("div", { class: "piles" }, [
    h("div", { class: "stock-pile" }, [stockButton, h("span", { class: "pile-count" }, t("Stock: {n}", { n: view.stock_size }))]),
    h("div", pileProps, [
      top
        ? takeable
          ? h(Card, { card: top, title: t("Take {card} from the discard pile", { card: shortCard(top) }), onTap: () => ctx.act({ type: "draw", from: "discard" }), extra: "pile-card" })
          : h(StaticCard, { card: top, extra: "pile-card" })
        : h("span", { class: "pile-empty" }, t("empty")),
      h("span", { class: "pile-count" }, t("Discard pile: {n}", { n: pile.length })),
      view.phase === "upcard_offer" ? h("span", { class: "pile-count upcard-note" }, t("The upcard")) : null,
    ]),
  ]);
}

function Melds({ ctx, u, myPlay, complete }) {
  const view = ctx.view;
  const owners = ctx.names.map((name, seat) => ({ name, seat, melds: view.table.filter((m) => m.owner === seat) })).filter((o) => o.melds.length);
  const one = u.sel.length === 1 ? view.hand[u.sel[0]] : null;
  const legal = myPlay && complete ? legalMoves(ctx, u, true) : null;
  return h("section", { class: "table-area kontrakt-table", "aria-label": t("The melds on the table") }, [
    owners.length
      ? owners.map((o) =>
          h("div", { class: "owner-melds" }, [
            h("h3", null, o.seat === ctx.seat ? t("Your melds") : t("{name}'s melds", { name: o.name })),
            h(
              "div",
              { class: "melds-row" },
              o.melds.map((m) => {
                const canLayOff = legal && one && fitting(u, "layoff", one, m.number);
                const canSwap = legal && one && fitting(u, "swap_joker", one, m.number);
                const kind = m.kind === "run" ? t("run") : t("group");
                return h("div", { class: "meld-box" }, [
                  h(
                    "div",
                    {
                      class: "meld" + (myPlay && complete ? " target" : ""),
                      role: "group",
                      "data-drop": myPlay && complete ? "kmeld:" + m.number : undefined,
                      "data-meld": String(m.number),
                      "aria-label": t("Meld #{n}, {kind}: {cards}", { n: m.number, kind, cards: shortCards(m.cards) }),
                    },
                    [h("span", { class: "meld-no", "aria-hidden": "true" }, "#" + m.number), m.cards.map((card, j) => h(StaticCard, { card, key: j }))],
                  ),
                  canLayOff || canSwap
                    ? h("div", { class: "meld-actions" }, [
                        canLayOff ? h("button", { type: "button", class: "chip", "data-layoff": m.number, title: t("Lay {card} off on meld #{n}", { card: shortCard(one), n: m.number }), onClick: () => layOff(ctx, m.number) }, t("Lay off here")) : null,
                        canSwap ? h("button", { type: "button", class: "chip", "data-swap": m.number, title: t("Put {card} in place of the joker of meld #{n}; the joker comes to your hand", { card: shortCard(one), n: m.number }), onClick: () => swap(ctx, m.number) }, t("Swap for the joker")) : null,
                      ])
                    : null,
                ]);
              }),
            ),
          ]),
        )
      : h("p", { class: "muted empty-table" }, t("No melds on the table yet.")),
  ]);
}

function Staged({ ctx, u, myPlay }) {
  const v = u.verdict;
  return h("section", { class: "staged", "aria-label": t("Melds you are about to lay down") }, [
    h("h3", null, t("To lay down")),
    h("div", { class: "melds-row" }, [
      u.staged.map((meld, k) => {
        const mv = v && v.melds ? v.melds[k] : null;
        return h("div", { class: "meld-box" + (mv ? (mv.ok ? " valid" : " invalid") : " pending"), "data-staged": String(k) }, [
          h(
            "div",
            { class: "meld", "data-drop": "stage:" + k, role: "group", "aria-label": t("Staged meld {n}: {cards}", { n: k + 1, cards: shortCards(meld) }) },
            meld.map((card, j) =>
              h(Card, {
                card,
                slot: j,
                title: t("{card}: tap to take it back", { card: shortCard(card) }),
                onTap: () => unstage(ctx, k, j),
                drag: { game: "kontrakt", indexes: [], staged: [k, j] },
              }),
            ),
          ),
          h("div", { class: "meld-verdict" }, mv ? (mv.ok ? "✓ " + (mv.kind === "run" ? t("run") : t("group")) : [h("span", { class: "rule" }, mv.rule || ""), shownSentence(mv.message)]) : ""),
        ]);
      }),
      myPlay
        ? h("div", { class: "meld-box new-meld" }, h("div", { class: "meld new", "data-drop": "stage:new" }, h("button", { type: "button", class: "place-new", disabled: !u.sel.length, onClick: () => stage(ctx, u.sel.slice()) }, u.sel.length ? t("+ Meld") : t("New meld: drop or select cards"))))
        : null,
    ]),
  ]);
}

/** The server's verdict on the staged melds, in the dock by the buttons (where the player looks). */
function StagedVerdict({ u }) {
  const v = u.verdict;
  if (!u.staged.length || !v) return null;
  return h("p", { class: "verdict" + (v.ok ? " ok" : " bad"), role: "status", "aria-live": "polite", "data-testid": "verdict" }, v.ok ? t("The server checked these melds: you may lay them down.") : [h("span", { class: "rule" }, v.rule || ""), shownSentence(v.message)]);
}

/** Why "Lay down" cannot be pressed now, or null when it can. */
function layDownBlocked(ctx, u) {
  if (!u.staged.length) return t("Stage your melds first: select cards, then press Meld.");
  if (ctx.pending) return t("Your last move is on its way.");
  if (u.verdict && !u.verdict.ok) return t("The melds are not valid yet: see why above the buttons.");
  return null;
}

/** Why the seat cannot draw from the stock now, or null when it can. */
function stockBlocked(ctx) {
  const view = ctx.view;
  if (ctx.pending) return t("Your last move is on its way.");
  if (view.over || view.phase === "game_over") return t("The seven deals are played.");
  if (view.phase === "upcard_offer") return t("The upcard is offered first (K7).");
  if (view.turn !== ctx.seat) return t("It is not your turn.");
  if (view.phase !== "draw") return t("You have already drawn.");
  if (!ctx.myTurn) return t("The puzzle is answered.");
  return null;
}

/** Why the top of the discard pile cannot be taken now, or null. */
function pileBlocked(view) {
  if (!view.discard_pile.length) return t("The discard pile is empty.");
  if (view.stock_only) return t("The upcard went round unbought: förhand now draws from the stock (K7).");
  return null;
}

function ActionBar({ ctx, u, myPlay }) {
  const view = ctx.view;
  const me = ctx.seat;
  const buttons = [];
  const notes = [];
  const pending = ctx.pending;
  const button = (props, label) => actionButton(ctx, props, label);
  const onItsWay = pending && t("Your last move is on its way.");
  if (view.phase === "upcard_offer" && view.offer_to === me) {
    const up = shortCard(view.discard_pile[view.discard_pile.length - 1]);
    if (me === view.forhand) {
      buttons.push(button({ class: "primary", why: onItsWay, title: t("Take the upcard into your hand (K7)"), onClick: () => ctx.act({ type: "take_upcard" }) }, t("Take the upcard {card}", { card: up })));
      buttons.push(button({ why: onItsWay, title: t("Leave the upcard: it is offered to the others"), onClick: () => ctx.act({ type: "decline_upcard" }) }, t("Decline")));
    } else {
      buttons.push(button({ class: "primary", why: onItsWay, title: t("Buy the upcard: the top card of the stock comes with it, as a penalty card (K7)"), onClick: () => ctx.act({ type: "buy_upcard" }) }, t("Buy {card} (+1 penalty card)", { card: up })));
      buttons.push(button({ why: onItsWay, title: t("Let the upcard go on"), onClick: () => ctx.act({ type: "pass_upcard" }) }, t("Pass")));
    }
  } else if (ctx.myTurn && view.phase === "draw") {
    const pile = view.discard_pile;
    const why = pileBlocked(view);
    buttons.push(button({ class: "primary", why: onItsWay, title: t("Draw the top card of the stock (K8)"), onClick: () => ctx.act({ type: "draw", from: "stock" }) }, t("Draw from the stock")));
    buttons.push(
      button(
        { why: onItsWay || why, title: t("Take the top card of the discard pile (K8)"), onClick: () => ctx.act({ type: "draw", from: "discard" }) },
        pile.length ? t("Take {card} from the pile", { card: shortCard(pile[pile.length - 1]) }) : t("Take from the pile"),
      ),
    );
    if (why && pile.length) notes.push(why);
  } else if (myPlay) {
    const one = u.sel.length === 1 ? view.hand[u.sel[0]] : null;
    buttons.push(button({ why: !u.sel.length && t("Select the cards of a meld in your hand first."), title: t("Stage the selected cards as a meld to lay down"), onClick: () => stage(ctx, u.sel.slice()) }, t("Meld")));
    const blocked = layDownBlocked(ctx, u);
    buttons.push(button({ class: blocked ? "" : "primary", why: blocked, title: t("Lay the staged melds down, all in one go"), onClick: () => layDown(ctx) }, t("Lay down")));
    buttons.push(button({ class: "discard", why: onItsWay || (!one && t("Select the one card to discard.")), title: one ? t("Discard {card}: your turn ends", { card: shortCard(one) }) : null, onClick: () => discard(ctx) }, one ? t("Discard {card}", { card: shortCard(one) }) : t("Discard")));
    const complete = view.laid[me].complete;
    if (!u.sel.length && !u.staged.length) {
      // why the buttons are greyed, in words: a phone shows no tooltip (issue 45)
      notes.push(complete ? t("Select one card in your hand: to lay it off on a meld, or to discard it.") : t("Select cards in your hand: a meld's cards, then Meld; or one card, then Discard."));
    }
    if (one && complete && u.legal) {
      // where the selected card goes, said in the dock: the meld's chip is often out of view
      const where = (type) => [...new Set(u.legal.filter((a) => a.type === type && plainCard(a.card) === plainCard(one)).map((a) => "#" + a.meld))].join(", ");
      const layoffs = where("layoff");
      const swaps = where("swap_joker");
      if (layoffs) notes.push(t("{card} fits {melds}.", { card: shortCard(one), melds: layoffs }));
      if (swaps) notes.push(t("{card} can take the joker's place in {melds}.", { card: shortCard(one), melds: swaps }));
      if (!layoffs && !swaps) notes.push(t("{card} fits no meld on the table.", { card: shortCard(one) }));
    }
  }
  // a puzzle (ctx.puzzle) has its own hint, the idea: the board's would give the answer away
  if (!ctx.puzzle && (ctx.myTurn || (view.phase === "upcard_offer" && view.offer_to === me))) {
    buttons.push(button({ why: u.busy && t("The hints are on their way…"), title: t("Ask for the moves the rules allow now"), onClick: () => hint(ctx) }, t("Hint")));
  }
  return [
    h("div", { class: "actions", role: "toolbar", "aria-label": t("Your actions") }, buttons),
    notes.length ? h("p", { class: "why", role: "status" }, notes.join(" ")) : null,
  ];
}

async function hint(ctx) {
  const u = ui(ctx);
  u.busy = true;
  rerender();
  const answer = await ctx.request({ type: "hint" });
  u.busy = false;
  if (answer.type === "hint") {
    u.hint = answer.actions;
    u.advised = (answer.advised || 0) > 0 ? answer.actions.slice(0, answer.advised) : [];
  }
  else ctx.showError(answer);
  rerender();
}

function actionText(a) {
  switch (a.type) {
    case "take_upcard":
      return t("take the upcard");
    case "decline_upcard":
      return t("decline the upcard");
    case "buy_upcard":
      return t("buy the upcard");
    case "pass_upcard":
      return t("pass");
    case "draw":
      return a.from === "discard" ? t("take from the pile") : t("draw from the stock");
    case "meld":
      return t("lay down {melds}", { melds: a.melds.map(shortCards).join(" · ") });
    case "layoff":
      return t("lay {card} off on #{n}", { card: shortCard(a.card), n: a.meld });
    case "swap_joker":
      return t("swap {card} for the joker of #{n}", { card: shortCard(a.card), n: a.meld });
    case "discard":
      return t("discard {card}", { card: shortCard(a.card) });
    default:
      return a.type;
  }
}

function HintList({ ctx, u }) {
  const view = ctx.view;
  const all = u.hint;
  // the server's order: what its search advises first (the review's own search), then the
  // other moves; the only discard it lists is the one it advises (none: keep every card)
  const best = all.filter((a) => a.type !== "discard").slice(0, 6);
  const laying = best.some((a) => ["meld", "layoff", "swap_joker"].includes(a.type));
  const discards = all.filter((a) => a.type === "discard");
  if (discards.length) best.push(discards[0]);
  const use = (a) => {
    u.hint = null;
    if (a.type === "meld") {
      u.staged = a.melds.map((m) => m.slice());
      keepStagedMelds(ctx, u);
      scheduleCheck(ctx);
      rerender();
      return;
    }
    const { seat, ...action } = a;
    void seat;
    ctx.act(action);
  };
  return h("div", { class: "hints", role: "region", "aria-label": t("Hints") }, [
    h("strong", null, t("Hints:")),
    view.phase === "play" && !laying ? h("span", { class: "no-play" }, t("Nothing to lay down, lay off or swap: discard a card.")) : null,
    best.map((a) => h("button", { type: "button", class: "chip hint-" + a.type + ((u.advised || []).includes(a) ? " advised" : ""), title: a.type === "meld" ? t("Stage these melds: check them, then Lay down") : t("Do this now"), onClick: () => use(a) }, actionText(a))),
    best.some((a) => a.type === "meld") ? h("span", { class: "muted small" }, t("(a lay-down is staged first)")) : null,
    h("button", { type: "button", class: "close", "aria-label": t("Close"), onClick: () => { u.hint = null; rerender(); } }, "×"),
  ]);
}

function reorder(ctx, indexes, index) {
  const hand = ctx.view.hand;
  const u = ui(ctx);
  const order = ctx.order.arrange(hand);
  const staged = stagedIndexes(u, hand);
  const shown = order.filter((i) => !staged.has(i));
  const target = index < shown.length ? order.indexOf(shown[index]) : order.length;
  ctx.order.move(hand, indexes, target);
  rerender();
}

function Hand({ ctx, u, hand }) {
  const order = ctx.order.arrange(hand);
  const staged = stagedIndexes(u, hand);
  const shown = order.filter((i) => !staged.has(i));
  const sel = new Set(u.sel);
  const picked = ctx.view.picked_up;
  const payload = (i) => ({
    game: "kontrakt",
    get indexes() {
      return sel.has(i) ? u.sel.slice() : [i];
    },
    elements() {
      const list = sel.has(i) ? u.sel : [i];
      return list.map((k) => document.querySelector(`.hand [data-id="h${k}"]`));
    },
  });
  let pickedMarked = false;
  return h("section", { class: "hand-area" }, [
    h("div", { class: "hand-head" }, [
      h("h2", null, staged.size ? t("Your hand ({n}, {k} staged)", { n: hand.length - staged.size, k: staged.size }) : t("Your hand ({n})", { n: hand.length })),
      h(SortButtons, { order: ctx.order, hand, onChange: rerender }),
    ]),
    h(
      "div",
      { class: "hand", "data-drop": "hand", role: "group", "aria-label": t("Your hand") },
      shown.map((i, k) => {
        const isPicked = picked && hand[i] === picked && !pickedMarked;
        if (isPicked) pickedMarked = true;
        return h(Card, {
          key: "h" + i,
          id: "h" + i,
          card: hand[i],
          slot: k,
          selected: sel.has(i),
          extra: isPicked ? "picked" : "",
          onTap: () => toggle(ctx, i),
          drag: payload(i),
        });
      }),
    ),
  ]);
}

// ------------------------------------------------------------------ the score sheet and a deal's end

export function DealEnd({ entry, names }) {
  const out = entry.out;
  return h("div", { class: "deal-end" }, [
    h("p", null, out !== null && out !== undefined ? t("{name} went out.", { name: names[out] }) : t("No card was left to draw.")),
    h("table", { class: "scores" }, [
      h("thead", null, h("tr", null, [h("th", null, t("Player")), h("th", null, t("Cards left")), h("th", null, t("Penalty")), h("th", null, t("Total"))])),
      h(
        "tbody",
        null,
        names.map((name, s) =>
          h("tr", null, [
            h("td", null, name),
            h("td", { class: "cards-cell" }, entry.hands[s].length ? h("span", { class: "mini-cards" }, entry.hands[s].map((card) => h(StaticCard, { card, extra: "mini" }))) : t("none: out")),
            h("td", null, String(entry.penalties[s])),
            h("td", null, String(entry.totals[s])),
          ]),
        ),
      ),
    ]),
  ]);
}

function ScoreSheet({ ctx, close }) {
  const view = ctx.view;
  const names = ctx.names;
  const spec = specOf("kontrakt");
  const rows = [];
  for (let d = 0; d < 7; d++) {
    const scores = view.scores[d];
    rows.push(
      h("tr", { class: d === view.deal && !view.over ? "current" : "" }, [
        h("th", { scope: "row" }, [t("Deal {n}", { n: d + 1 }), h("span", { class: "muted small" }, " " + contractWords(spec, d))]),
        names.map((_, s) => h("td", null, scores ? String(scores[s]) : d === view.deal && !view.over ? "…" : "")),
      ]),
    );
  }
  rows.push(h("tr", { class: "total" }, [h("th", { scope: "row" }, t("Total")), names.map((_, s) => h("td", null, String(view.totals[s])))]));
  return h(Modal, { title: t("Score sheet"), onClose: close, wide: true }, [
    h("table", { class: "scores sheet" }, [h("thead", null, h("tr", null, [h("th", null, ""), names.map((n) => h("th", { scope: "col" }, n))])), h("tbody", null, rows)]),
    h("p", { class: "muted" }, t("Penalty points (K6): joker and ace 15, K Q J 10 count 10, the others their value; the lowest total after seven deals wins (K14).")),
  ]);
}

/** The static picture of a Kontrakt position, for the replay viewer. */
export function KontraktStatic({ view, names }) {
  const pile = view.discard_pile;
  return h("div", { class: "board kontrakt" }, [
    h("div", { class: "contract-banner" }, [h("strong", null, t("Deal {n} of 7", { n: view.deal + 1 })), h("span", { class: "contract-words" }, t("Contract: {contract}", { contract: contractWords(specOf("kontrakt"), view.deal, view.contract.text) }))]),
    h("div", { class: "piles" }, [
      h("div", { class: "stock-pile" }, [h("span", { class: "pile-card" }, cardBack()), h("span", { class: "pile-count" }, t("Stock: {n}", { n: view.stock_size }))]),
      h("div", { class: "discard-pile" }, [
        pile.length ? h(StaticCard, { card: pile[pile.length - 1], extra: "pile-card" }) : h("span", { class: "pile-empty" }, t("empty")),
        h("span", { class: "pile-count" }, t("Discard pile: {n}", { n: pile.length })),
      ]),
    ]),
    h(Melds, { ctx: { view, names, seat: null }, u: { sel: [] }, myPlay: false, complete: false }),
  ]);
}

async function kontraktCommand(ctx, command) {
  switch (command.ui) {
    case "ok":
      return layDown(ctx);
    case "undo":
    case "reset": {
      const u = ui(ctx);
      if (command.ui === "undo") u.staged.pop();
      else u.staged = [];
      keepStagedMelds(ctx, u);
      scheduleCheck(ctx);
      rerender();
      return true;
    }
    case "hint":
      await hint(ctx);
      return true;
    case "scores":
      ui(ctx).showScores = true;
      rerender();
      return true;
    case "sort": {
      const next = { suit: "rank", rank: "suit", own: "suit" }[ctx.order.mode];
      ctx.order.setMode(next, ctx.view.hand);
      rerender();
      return true;
    }
    default:
      ctx.notify(t("Arranging is for Vatikanen: in Kontraktsrummy lay your melds yourself."));
      return false;
  }
}
