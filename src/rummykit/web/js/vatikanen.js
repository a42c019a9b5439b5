// The Vatikanen table: the shared table meld by meld, the hand, and the turn's draft.
//
// On the player's turn every change is a draft: cards from the hand and from the table are
// moved by tap-to-place or drag and drop, step by step (undo, reset), and each change is sent
// to the server as a "check" — the engine's verdict marks every changed meld valid or
// invalid with its reason. "Play" sends the draft as one play with the whole new table;
// "Arrange" lets the server's exact solver fit the chosen cards; "Hint" lists its best plays.

import { h } from "../vendor/preact/preact.module.js";
import { load, save } from "./api.js";
import { parseCard, plainCard, shortCards } from "./cards.js";
import { t } from "./i18n.js";
import { rerender } from "./store.js";
import { Card, SortButtons, StaticCard, actionButton, showAboveDock } from "./ui.js";
import { shownSentence, shownText } from "./words.js";

// ------------------------------------------------------------------ the draft

function freshDraft(view, version) {
  const cards = {};
  view.hand.forEach((card, i) => {
    cards["h" + i] = { card, src: "hand", index: i };
  });
  const melds = view.table.map((meld, i) => ({
    key: "m" + i,
    origin: i,
    cards: meld.map((card, j) => {
      const id = `t${i}_${j}`;
      cards[id] = { card, src: "table" };
      return id;
    }),
  }));
  const sizes = view.table.map((meld) => meld.length);
  return { version, cards, melds, sizes, moved: [], labels: {}, history: [], made: 0, generation: 0 };
}

function snapshot(d) {
  return { melds: d.melds.map((m) => ({ ...m, cards: m.cards.slice() })), moved: d.moved.slice(), labels: { ...d.labels }, made: d.made };
}

function restore(d, snap) {
  d.melds = snap.melds;
  d.moved = snap.moved;
  d.labels = snap.labels;
  d.made = snap.made;
}

function placedIds(d) {
  const out = new Set();
  for (const m of d.melds) for (const id of m.cards) if (d.cards[id].src === "hand") out.add(id);
  return out;
}

function changed(d, view) {
  if (d.melds.length !== view.table.length) return true;
  return d.melds.some((m, i) => m.origin !== i || m.cards.length !== view.table[i].length || m.cards.some((id, j) => id !== `t${i}_${j}`));
}

function meldChanged(d, m) {
  if (m.origin === null) return true;
  const want = d.sizes[m.origin];
  return m.cards.length !== want || m.cards.some((id, j) => id !== `t${m.origin}_${j}`);
}

/** A draft card as shown: a table joker that was moved without what it stood for (the
 * server reads it from its new place). */
function shownCard(d, id) {
  if (d.labels[id]) return d.labels[id];
  const card = d.cards[id].card;
  return card.startsWith("*") && d.moved.includes(id) ? "*" : card;
}

/** What the server is sent for a card: a moved table joker without what it stood for. */
function textOf(d, id) {
  const c = d.cards[id];
  if (d.labels[id]) return d.labels[id];
  if (c.src === "hand") return plainCard(c.card);
  if (c.card.startsWith("*") && d.moved.includes(id)) return "*";
  return c.card;
}

function playOf(d) {
  const placed = placedIds(d);
  const add = [...placed].sort((a, b) => d.cards[a].index - d.cards[b].index).map((id) => plainCard(d.cards[id].card));
  return { type: "play", add, table: d.melds.map((m) => m.cards.map((id) => textOf(d, id))) };
}

/** A card's rank in a run: an ace counts high (14) when ``high``. */
function runRank(c, high) {
  return c.rank === 1 && high ? 14 : c.rank;
}

/**
 * The ids as one run, low to high, each joker in a gap first, then above the highest card
 * (below the lowest at the top of the ranks); null when the natural cards are not of one suit
 * with distinct ranks or the jokers cannot fill the gaps. Only an order for the player's
 * draft: the server reads the run.
 */
function runOrder(d, ids) {
  const cards = ids.map((id) => ({ id, c: parseCard(d.cards[id].card) }));
  if (cards.some((x) => !x.c)) return null;
  const naturals = cards.filter((x) => !x.c.joker);
  const jokers = cards.filter((x) => x.c.joker).map((x) => x.id);
  if (!naturals.length || naturals.some((x) => x.c.suit !== naturals[0].c.suit)) return null;
  for (const top of [13, 14]) {
    const byRank = new Map(naturals.map((x) => [runRank(x.c, top === 14), x.id]));
    if (byRank.size !== naturals.length) return null;
    let low = Math.min(...byRank.keys());
    const high = Math.max(...byRank.keys());
    const spare = jokers.length - (high - low + 1 - naturals.length);
    if (spare < 0) continue;
    const above = Math.min(spare, top - high);
    low -= spare - above;
    if (low < top - 12) continue;
    const free = jokers.slice();
    const out = [];
    for (let r = low; r <= high + above; r++) out.push(byRank.has(r) ? byRank.get(r) : free.pop());
    return out;
  }
  return null;
}

/** Where a card tapped onto a meld goes: at its rank's place in a run (a joker in the run's
 * first gap), at the end otherwise. */
function autoIndex(d, meld, id) {
  const card = parseCard(d.cards[id].card);
  if (!card) return meld.cards.length;
  const ordered = runOrder(d, [...meld.cards, id]);
  if (ordered && meld.cards.every((k, j) => ordered.filter((x) => x !== id)[j] === k)) return ordered.indexOf(id);
  if (card.joker) return meld.cards.length;
  const parsed = meld.cards.map((k) => parseCard(d.cards[k].card));
  const naturals = parsed.map((c, j) => ({ c, j })).filter((x) => x.c && !x.c.joker);
  if (!naturals.length) return meld.cards.length;
  const sameSuit = naturals.every((x) => x.c.suit === card.suit);
  const sameRank = naturals.every((x) => x.c.rank === card.rank);
  if (!sameSuit || sameRank) return meld.cards.length;
  const highAce = naturals.some((x) => x.c.rank >= 12) && !naturals.some((x) => x.c.rank === 2 || x.c.rank === 3);
  const first = naturals[0];
  // in a run the card of rank r lies at first.j + (r - first rank); jokers hold their places
  const at = first.j + (runRank(card, highAce) - runRank(first.c, highAce));
  return Math.max(0, Math.min(meld.cards.length, at));
}

function sortForNewMeld(d, ids) {
  const run = runOrder(d, ids);
  if (run) return run;
  const cards = ids.map((id) => ({ id, c: parseCard(d.cards[id].card) }));
  const key = (x) => (!x.c || x.c.joker ? 100 : "shdc".indexOf(x.c.suit));
  return cards.sort((a, b) => key(a) - key(b)).map((x) => x.id);
}

// ------------------------------------------------------------------ the board

function ui(ctx) {
  const u = ctx.ui;
  if (!u.sel) {
    u.sel = [];
    u.verdict = null;
    u.hint = null;
    u.checks = 0;
  }
  return u;
}

function ensureDraft(ctx) {
  const u = ui(ctx);
  if (!ctx.myTurn) {
    if (u.draft) {
      u.draft = null;
      u.sel = [];
      u.verdict = null;
      u.hint = null;
      save(draftKey(ctx), null);
    }
    return null;
  }
  if (!u.draft || u.draft.version !== ctx.state.version) {
    u.draft = freshDraft(ctx.view, ctx.state.version);
    u.sel = [];
    u.verdict = null;
    u.hint = null;
    if (savedDraft(ctx, u.draft)) scheduleCheck(ctx);
  }
  return u.draft;
}

// The draft is kept in the browser (per table, seat and version), so that a reload or a
// crash of the tab does not lose a half-built turn.

function draftKey(ctx) {
  return `draft.${ctx.id}.${ctx.seat}`;
}

/** Forget the draft kept for a board (a lesson's or a puzzle's, whose versions begin again
 * at its start: a draft kept for version 0 would come back to the position set up again). */
export function forgetDraft(id, seat) {
  save(draftKey({ id, seat }), null);
}

function keepDraft(ctx) {
  const d = ui(ctx).draft;
  if (d) save(draftKey(ctx), { version: d.version, ...snapshot(d), history: d.history });
}

/** Take the draft kept for this version, if there is one that fits the table and hand. */
function savedDraft(ctx, d) {
  const saved = load(draftKey(ctx), null);
  if (!saved || saved.version !== d.version) {
    if (saved) save(draftKey(ctx), null);
    return false;
  }
  const fits = (snap) => {
    if (!snap || !Array.isArray(snap.melds) || !Array.isArray(snap.moved)) return false;
    const ids = snap.melds.flatMap((m) => (Array.isArray(m.cards) ? m.cards : [null]));
    return ids.every((id) => id in d.cards) && new Set(ids).size === ids.length;
  };
  if (!fits(saved)) return false;
  restore(d, saved);
  d.history = (Array.isArray(saved.history) ? saved.history : []).filter(fits);
  return changed(d, ctx.view);
}

function change(ctx, fn) {
  const u = ui(ctx);
  const d = u.draft;
  const before = snapshot(d);
  if (fn(d) === false) return;
  d.history.push(before);
  d.generation += 1;
  u.built = null;
  u.sel = [];
  u.verdict = null;
  ctx.clearError();
  keepDraft(ctx);
  scheduleCheck(ctx);
  rerender();
}

function scheduleCheck(ctx) {
  const u = ui(ctx);
  clearTimeout(u.checkTimer);
  u.checkTimer = setTimeout(() => runCheck(ctx), 120);
}

async function runCheck(ctx) {
  const u = ui(ctx);
  const d = u.draft;
  if (!d || !changed(d, ctx.view)) {
    u.verdict = null;
    rerender();
    return;
  }
  const generation = d.generation;
  u.checking = true;
  rerender();
  const answer = await ctx.request({ type: "check", action: playOf(d) });
  if (u.draft !== d || d.generation !== generation) return;
  u.checking = false;
  u.verdict = answer.type === "checked" ? answer : null;
  rerender();
  if (u.built) showAboveDock(`.drafting [data-box="${u.built}"]`); // its verdict, in view
}

function move(ctx, ids, target, index, byTap) {
  const u = ui(ctx);
  const d = u.draft;
  if (!d) return;
  const fromTable = ids.filter((id) => d.cards[id].src === "table");
  if (target === "hand") {
    if (fromTable.length) {
      ctx.notify(t("Cards on the table stay on the table (V9): move them to another meld instead."));
      return;
    }
    const placed = placedIds(d);
    const back = ids.filter((id) => placed.has(id));
    if (back.length) {
      change(ctx, (dd) => {
        take(dd, back);
        for (const id of back) delete dd.labels[id];
        dd.melds = dd.melds.filter((m) => m.cards.length);
      });
    }
    if (index !== null && index !== undefined) reorderHand(ctx, ids, index);
    return;
  }
  if (!ctx.view.opened[ctx.seat] && fromTable.length) {
    ctx.notify(t("Your first play (V7) is one run from your hand alone: the table is not touched that turn."));
  }
  change(ctx, (dd) => {
    const into = dd.melds.find((m) => m.key === target);
    if (into && index !== null && index !== undefined) {
      // the moved cards of the same meld no longer count among the places before the drop
      index -= ids.filter((id) => {
        const k = into.cards.indexOf(id);
        return k >= 0 && k < index;
      }).length;
    }
    take(dd, ids);
    for (const id of fromTable) if (!dd.moved.includes(id)) dd.moved.push(id);
    for (const id of ids) delete dd.labels[id];
    if (target === "new") {
      dd.made += 1;
      dd.melds.push({ key: "n" + dd.made, origin: null, cards: byTap || ids.length > 1 ? sortForNewMeld(dd, ids) : ids.slice() });
    } else {
      const meld = dd.melds.find((m) => m.key === target);
      if (!meld) return false;
      let at = index === null || index === undefined ? null : Math.min(index, meld.cards.length);
      for (const id of ids) {
        const where = at === null ? autoIndex(dd, meld, id) : at;
        meld.cards.splice(where, 0, id);
        if (at !== null) at += 1;
      }
    }
    dd.melds = dd.melds.filter((m) => m.cards.length);
    return true;
  });
  // the meld just built or grown, shown above the dock that would cover it (issue 45)
  u.built = target === "new" ? "n" + d.made : target;
  showAboveDock(`.drafting [data-box="${u.built}"]`);
}

function take(d, ids) {
  const set = new Set(ids);
  for (const m of d.melds) m.cards = m.cards.filter((id) => !set.has(id));
}

function reorderHand(ctx, ids, index) {
  const d = ui(ctx).draft;
  const hand = ctx.view.hand;
  const order = ctx.order.arrange(hand);
  const placed = d ? placedIds(d) : new Set();
  const shown = order.filter((i) => !placed.has("h" + i) || ids.includes("h" + i));
  const moving = ids.map((id) => Number(id.slice(1)));
  const target = index < shown.length ? order.indexOf(shown[index]) : order.length;
  ctx.order.move(hand, moving, target);
  rerender();
}

/** A play the server made (arrange, hint) taken into the draft, as one step. */
function loadPlay(ctx, play) {
  const view = ctx.view;
  change(ctx, (d) => {
    const base = freshDraft(view, d.version);
    const tableLeft = Object.keys(base.cards).filter((id) => base.cards[id].src === "table");
    const handLeft = Object.keys(base.cards).filter((id) => base.cards[id].src === "hand");
    let handJokers = play.add.filter((c) => plainCard(c) === "*").length;
    const takeFrom = (list, test) => {
      const k = list.findIndex(test);
      return k < 0 ? null : list.splice(k, 1)[0];
    };
    const melds = [];
    const labels = {};
    for (const meld of play.table) {
      const ids = [];
      for (const text of meld) {
        let id;
        if (text.startsWith("*")) {
          id = takeFrom(tableLeft, (x) => base.cards[x].card === text);
          if (id === null && handJokers > 0) {
            id = takeFrom(handLeft, (x) => base.cards[x].card === "*");
            if (id !== null) handJokers -= 1;
          }
          if (id === null) id = takeFrom(tableLeft, (x) => base.cards[x].card.startsWith("*"));
        } else {
          id = takeFrom(tableLeft, (x) => base.cards[x].card === text);
          if (id === null) id = takeFrom(handLeft, (x) => base.cards[x].card === text);
        }
        if (id === null) return false; // not this table: leave the draft as it is
        if (text !== base.cards[id].card) labels[id] = text;
        ids.push(id);
      }
      melds.push({ key: "", origin: null, cards: ids });
    }
    // each old meld's key goes to the new meld that holds most of its cards
    const taken = new Set();
    let made = d.made;
    for (const m of melds) {
      const counts = {};
      for (const id of m.cards) if (id.startsWith("t")) counts[id.slice(1).split("_")[0]] = (counts[id.slice(1).split("_")[0]] || 0) + 1;
      const best = Object.keys(counts).sort((x, y) => counts[y] - counts[x]).find((o) => !taken.has(o));
      if (best !== undefined) {
        taken.add(best);
        m.origin = Number(best);
        m.key = "m" + best;
      } else {
        made += 1;
        m.key = "n" + made;
      }
    }
    d.melds = melds;
    d.labels = labels;
    d.moved = [];
    d.made = made;
    return true;
  });
}

function toggle(ctx, id) {
  const u = ui(ctx);
  u.sel = u.sel.includes(id) ? u.sel.filter((x) => x !== id) : [...u.sel, id];
  rerender();
}

async function arrange(ctx, cards) {
  const u = ui(ctx);
  const d = u.draft;
  if (!d) return false;
  if (!cards) {
    const chosen = u.sel.filter((id) => d.cards[id].src === "hand");
    const ids = chosen.length ? chosen : [...placedIds(d)];
    cards = ids.map((id) => plainCard(d.cards[id].card));
  }
  if (!cards.length) {
    ctx.notify(t("Select cards from your hand first: Arrange fits them into the table."));
    return false;
  }
  u.busy = "arrange";
  rerender();
  const answer = await ctx.request({ type: "arrange", cards });
  u.busy = null;
  if (answer.type === "arranged") {
    loadPlay(ctx, answer.action);
    ctx.notify(t("The solver arranged {cards}: check the table, then press Play.", { cards: shortCards(answer.action.add) }));
    return true;
  }
  if (cards.length > 1 && (await arrangeSome(ctx, cards))) return true;
  ctx.showError(answer);
  return false;
}

/**
 * Not all of ``cards`` fit (the whole hand selected, say): fit what can, as Hint does — the
 * solver's play that lays the most of them and no other card. False when none does.
 */
async function arrangeSome(ctx, cards) {
  const u = ui(ctx);
  u.busy = "arrange";
  rerender();
  const answer = await ctx.request({ type: "hint" });
  u.busy = null;
  if (answer.type !== "hint" || !u.draft) return false;
  const within = (play) => {
    const left = cards.slice();
    return play.add.every((c) => {
      const k = left.indexOf(plainCard(c));
      return k >= 0 && left.splice(k, 1).length === 1;
    });
  };
  const plays = answer.actions.filter((a) => a.type === "play" && a.add.length && within(a));
  if (!plays.length) return false;
  const best = plays.reduce((a, b) => (b.add.length > a.add.length ? b : a));
  loadPlay(ctx, best);
  ctx.notify(t("Not every selected card fits: the solver arranged {cards}. Check the table, then press Play.", { cards: shortCards(best.add) }));
  return true;
}

async function hint(ctx) {
  const u = ui(ctx);
  u.busy = "hint";
  rerender();
  const answer = await ctx.request({ type: "hint" });
  u.busy = null;
  if (answer.type === "hint") u.hint = answer.actions;
  else ctx.showError(answer);
  rerender();
}

async function play(ctx) {
  const u = ui(ctx);
  const d = u.draft;
  if (!d) return false;
  const action = playOf(d);
  if (!action.add.length) {
    ctx.notify(t("Put at least one card from your hand on the table (V9), or draw."));
    return false;
  }
  if (u.verdict && !u.verdict.ok) {
    ctx.notify(t("The table is not valid yet: see why above the buttons."));
    return false;
  }
  return ctx.act(action);
}

function undo(ctx) {
  const u = ui(ctx);
  const d = u.draft;
  if (!d || !d.history.length) return;
  restore(d, d.history.pop());
  d.generation += 1;
  u.sel = [];
  u.verdict = null;
  keepDraft(ctx);
  scheduleCheck(ctx);
  rerender();
}

function reset(ctx) {
  const u = ui(ctx);
  if (!u.draft) return;
  const history = u.draft.history;
  const before = snapshot(u.draft);
  u.draft = freshDraft(ctx.view, ctx.state.version);
  u.draft.history = history.concat([before]);
  u.sel = [];
  u.verdict = null;
  keepDraft(ctx);
  rerender();
}

// ------------------------------------------------------------------ what it looks like

export function vatikanenStanding(view, seat) {
  const bits = [];
  if (view.opened[seat]) bits.push(h("span", { class: "badge opened", title: t("has opened (V7)") }, t("opened")));
  if (view.game_number > 1 || view.balances.some((b) => b !== 0)) {
    const b = Math.round(view.balances[seat] * 100) / 100;
    bits.push(h("span", { class: "balance", title: t("balance of the session (V16)") }, (b > 0 ? "+" : "") + b));
  }
  return bits;
}

/** The table as it lies (a spectator, a replay, another player's turn). */
export function StaticTable({ table, label }) {
  return h("section", { class: "table-area", "aria-label": label || t("The table") }, [
    table.length
      ? table.map((meld, i) =>
          h("div", { class: "meld", role: "group", "aria-label": t("Meld {n}: {cards}", { n: i + 1, cards: shortCards(meld) }) }, meld.map((card) => h(StaticCard, { card }))),
        )
      : h("p", { class: "muted empty-table" }, t("The table is empty.")),
  ]);
}

/** How the game ended, in the server's words: the last line of its log. */
export function endLine(told) {
  const last = told && told.length ? String(told[told.length - 1]).split("\n") : [];
  return shownText(last.length > 1 ? last[last.length - 1] : "");
}

export function VatikanenBoard({ ctx }) {
  const u = ui(ctx);
  const view = ctx.view;
  const d = ensureDraft(ctx);
  const me = ctx.seat;
  ctx.ui.command = (command) => vatikanenCommand(ctx, command);
  ctx.setDrop((payload, target, index) => {
    if (payload.game !== "vatikanen") return;
    if (target === "hand" && !d) {
      reorderHand(ctx, payload.ids, index);
      return;
    }
    if (!ui(ctx).draft) return;
    if (target === "new" || target === "hand" || target.startsWith("m") || target.startsWith("n")) move(ctx, payload.ids, target, index, false);
  });
  const sel = new Set(u.sel);
  const dragPayload = (id) => ({
    game: "vatikanen",
    get ids() {
      return sel.has(id) ? u.sel.slice() : [id];
    },
    elements() {
      const ids = sel.has(id) ? u.sel : [id];
      return ids.map((x) => document.querySelector(`[data-id="${x}"]`));
    },
  });
  const turnName = view.turn !== null && view.turn !== undefined ? ctx.names[view.turn] : null;
  const status = view.over
    ? endLine(ctx.state.log_text)
    : ctx.myTurn
      ? t("Your turn: play cards onto the table, or draw.")
      : turnName
        ? t("{name} is playing.", { name: turnName })
        : "";
  const parts = [];
  parts.push(
    h("div", { class: "status-line" }, [
      h("span", { class: "status-text", "data-testid": "status" }, status),
      h("span", { class: "stock", title: t("cards in the stock (talong)") }, t("Stock: {n}", { n: view.stock_size })),
    ]),
  );
  if (me !== null && !view.opened[me] && !view.over) {
    parts.push(h("p", { class: "rule-note", "data-rule": "V7" }, [h("span", { class: "rule" }, "V7"), t("Your first play must be exactly one run of at least 3 cards, all from your own hand; the table is not touched that turn.")]));
  }
  if (!d) {
    parts.push(h(StaticTable, { table: view.table }));
  } else {
    parts.push(DraftTable({ ctx, d, sel, dragPayload }));
  }
  if (me !== null) {
    // the dock: what the player looks at on a turn, kept in view (sticky) on a small screen
    parts.push(
      h("div", { class: "dock" }, [
        ctx.messages(),
        d ? Verdict({ ctx, d }) : null,
        ActionBar({ ctx, d }),
        u.hint && d ? HintList({ ctx }) : null,
        Hand({ ctx, d, sel, dragPayload }),
      ]),
    );
  }
  return h("div", { class: "board vatikanen" }, parts);
}

function DraftTable({ ctx, d, sel, dragPayload }) {
  const u = ui(ctx);
  const verdict = u.verdict;
  const anySelected = u.sel.length > 0;
  // one invalid meld: the draft's verdict (by the buttons) says why, once; with several,
  // each says its own
  const several = verdict && verdict.melds ? verdict.melds.filter((v, i) => v && !v.ok && meldChanged(d, d.melds[i] || { origin: null })).length > 1 : false;
  return h("section", { class: "table-area drafting", "aria-label": t("The table (your draft)") }, [
    d.melds.map((m, i) => {
      const mine = meldChanged(d, m);
      const v = verdict && verdict.melds ? verdict.melds[i] : null;
      let state = "";
      if (mine) state = v ? (v.ok ? " valid" : " invalid") : " pending";
      const kindText = v && v.ok ? { run: t("run"), group: t("group"), either: t("run or group") }[v.kind] : "";
      const name = t("Meld {n}: {cards}", { n: i + 1, cards: shortCards(m.cards.map((id) => d.cards[id].card)) });
      return h("div", { class: "meld-box" + state, key: m.key, "data-box": m.key }, [
        h(
          "div",
          { class: "meld", role: "group", "aria-label": name + (mine && v ? ". " + (v.ok ? t("valid") : t("invalid: {why}", { why: v.message })) : ""), "data-drop": m.key, "data-meld": m.key },
          [
            m.cards.map((id, j) =>
              h(Card, {
                key: id,
                id,
                card: shownCard(d, id),
                slot: j,
                selected: sel.has(id),
                extra: d.cards[id].src === "hand" ? "from-hand" : "",
                onTap: () => toggle(ctx, id),
                drag: dragPayload(id),
              }),
            ),
            anySelected
              ? h("button", { type: "button", class: "place", "aria-label": t("Put the selected cards in meld {n}", { n: i + 1 }), "data-place": m.key, onClick: () => move(ctx, u.sel.slice(), m.key, null, true) }, "+")
              : null,
          ],
        ),
        mine
          ? h("div", { class: "meld-verdict", "aria-hidden": "true" }, v ? (v.ok ? "✓ " + kindText : several ? [h("span", { class: "rule" }, v.rule || ""), shownSentence(v.message)] : "✗") : u.checking ? t("checking…") : "")
          : null,
      ]);
    }),
    h(
      "div",
      { class: "meld-box new-meld", key: "new" },
      h("div", { class: "meld new", "data-drop": "new" }, [
        h("button", { type: "button", class: "place-new", "data-place": "new", disabled: !anySelected, onClick: () => move(ctx, u.sel.slice(), "new", null, true) }, anySelected ? t("+ New meld") : t("New meld: drop or tap cards here")),
      ]),
    ),
  ]);
}

function Verdict({ ctx, d }) {
  const u = ui(ctx);
  if (!changed(d, ctx.view)) return null;
  const v = u.verdict;
  let body;
  if (!v) body = u.checking ? t("The server is checking your table…") : "";
  else if (v.ok) body = t("The server checked your table: every meld is valid. Press Play.");
  else body = [h("span", { class: "rule" }, v.rule || ""), shownSentence(v.message)];
  return h("p", { class: "verdict" + (v ? (v.ok ? " ok" : " bad") : ""), role: "status", "aria-live": "polite", "data-testid": "verdict" }, body);
}

/** Why Play cannot be pressed now, or null when it can. */
function playBlocked(ctx, d) {
  const u = ui(ctx);
  if (!placedIds(d).size) return t("Put cards from your hand on the table first, or draw.");
  if (ctx.pending) return t("Your last move is on its way.");
  if (!u.verdict) return t("The server is checking your table…");
  if (!u.verdict.ok) return t("The table is not valid yet: see why above the buttons.");
  return null;
}

function ActionBar({ ctx, d }) {
  const u = ui(ctx);
  const view = ctx.view;
  const buttons = [];
  if (ctx.myTurn && d) {
    const placed = placedIds(d).size;
    const blocked = playBlocked(ctx, d);
    const button = (props, label) => actionButton(ctx, props, label);
    const onItsWay = ctx.pending && t("Your last move is on its way.");
    buttons.push(button({ class: "primary", why: blocked, title: t("Play the cards of your draft: the whole new table"), onClick: () => play(ctx) }, placed ? t("Play ({n})", { n: placed }) : t("Play")));
    buttons.push(button({ why: !d.history.length && t("There is no change to take back."), title: t("Take back the last change"), onClick: () => undo(ctx) }, t("Undo")));
    buttons.push(button({ why: !changed(d, view) && t("You have not changed the table."), title: t("Take back every change: the table as it lies"), onClick: () => reset(ctx) }, t("Reset")));
    buttons.push(button({ why: u.busy === "arrange" && t("The solver is fitting your cards in…"), title: t("Let the solver fit the selected cards into the table"), onClick: () => arrange(ctx) }, t("Arrange")));
    buttons.push(button({ why: u.busy === "hint" && t("The hints are on their way…"), title: t("Ask the solver for the best plays"), onClick: () => hint(ctx) }, t("Hint")));
    if (view.stock_size > 0) buttons.push(button({ class: "draw", why: onItsWay, title: t("Draw a card from the stock: your turn ends"), onClick: () => ctx.act({ type: "draw" }) }, t("Draw")));
    else buttons.push(button({ class: "draw", why: onItsWay, title: t("The stock is empty: pass the turn (V14)"), onClick: () => ctx.act({ type: "pass" }) }, t("Pass")));
    // why Play is greyed, said in words too: a phone shows no tooltip (issue 45); the
    // verdict line says why an invalid table is invalid, so only the other reasons here
    const said = placed && blocked && u.verdict && !u.verdict.ok ? null : placed ? blocked : null;
    if (said) return [h("div", { class: "actions", role: "toolbar", "aria-label": t("Your actions") }, buttons), h("p", { class: "why", role: "status" }, said)];
  }
  return h("div", { class: "actions", role: "toolbar", "aria-label": t("Your actions") }, buttons);
}

function HintList({ ctx }) {
  const u = ui(ctx);
  const plays = u.hint.filter((a) => a.type === "play").slice(0, 6);
  const other = u.hint.find((a) => a.type !== "play");
  return h("div", { class: "hints", role: "region", "aria-label": t("Hints") }, [
    h("strong", null, t("Hints:")),
    plays.length
      ? plays.map((a) =>
          h("button", { type: "button", class: "chip hint-play", title: t("Put this play in your draft"), onClick: () => { loadPlay(ctx, a); u.hint = null; rerender(); } }, t("play {cards}", { cards: shortCards(playedCards(a)) })),
        )
      : h("span", { class: "no-play" }, other && other.type === "pass" ? t("No play: pass.") : t("No play: draw.")),
    h("button", { type: "button", class: "close", "aria-label": t("Close"), onClick: () => { u.hint = null; rerender(); } }, "×"),
  ]);
}

/** The cards a play lays from the hand, in the order of the table it makes (a joker in its
 * place, saying what it stands for). */
function playedCards(play) {
  if (!play.table) return play.add;
  const left = play.add.map(plainCard);
  const out = [];
  for (const meld of play.table) {
    for (const card of meld) {
      const k = left.indexOf(plainCard(card));
      if (k >= 0) {
        left.splice(k, 1);
        out.push(card);
      }
    }
  }
  return out.concat(left);
}

function Hand({ ctx, d, sel, dragPayload }) {
  const view = ctx.view;
  const order = ctx.order.arrange(view.hand);
  const placed = d ? placedIds(d) : new Set();
  const shown = order.filter((i) => !placed.has("h" + i));
  return h("section", { class: "hand-area" }, [
    h("div", { class: "hand-head" }, [
      h("h2", null, placed.size ? t("Your hand ({n}, {k} in your draft)", { n: view.hand.length - placed.size, k: placed.size }) : t("Your hand ({n})", { n: view.hand.length })),
      h(SortButtons, { order: ctx.order, hand: view.hand, onChange: rerender }),
    ]),
    h(
      "div",
      { class: "hand", "data-drop": "hand", role: "group", "aria-label": t("Your hand") },
      shown.length
        ? shown.map((i, k) =>
            h(Card, {
              key: "h" + i,
              id: "h" + i,
              card: view.hand[i],
              slot: k,
              selected: sel.has("h" + i),
              onTap: d ? () => toggle(ctx, "h" + i) : undefined,
              drag: dragPayload("h" + i),
            }),
          )
        : h("p", { class: "muted" }, view.hand.length ? t("Every card of your hand is in your draft.") : t("Your hand is empty.")),
    ),
  ]);
}

async function vatikanenCommand(ctx, command) {
  switch (command.ui) {
    case "ok":
      return play(ctx);
    case "undo":
      undo(ctx);
      return true;
    case "reset":
      reset(ctx);
      return true;
    case "hint":
      await hint(ctx);
      return true;
    case "arrange":
      return arrange(ctx, command.cards);
    case "sort": {
      const next = { suit: "rank", rank: "suit", own: "suit" }[ctx.order.mode];
      ctx.order.setMode(next, ctx.view.hand);
      rerender();
      return true;
    }
    default:
      return false;
  }
}
