// The review of a finished game in the replay viewer (docs/review.md): the server judges
// every turn from what its player could see then (GET /api/tables/ID/review, or POST
// /api/review for a record file), and the viewer marks each turn where more was possible,
// says what, and shows the best play on the table as it was: Vatikanen's cards from the
// hand and the table cards it moves highlighted, Kontrakt's cards laid highlighted.

import { h } from "../vendor/preact/preact.module.js";
import { api } from "./api.js";
import { shortCard, shortCards } from "./cards.js";
import { t } from "./i18n.js";
import { keepGamePuzzles } from "./puzzles.js";
import { rerender } from "./store.js";
import { StaticCard, cardCount } from "./ui.js";

/** The API path of the table's game being replayed: a finished game by its number, or the
 * table's last finished game (docs/protocol.md, "Finished games of a table"). */
export function tableGamePath(p) {
  const table = `api/tables/${encodeURIComponent(p.source)}`;
  return p.game === null || p.game === undefined ? table : `${table}/games/${p.game}`;
}

/** Ask the server for the review of the replayed record (once). */
export async function loadReview(p) {
  if (p.review && (p.review.data || p.review.loading)) return;
  p.review = { loading: true, data: null, error: null, shown: null };
  rerender();
  try {
    const data =
      p.source === "file"
        ? await api("POST", "api/review", { record: p.record })
        : await api("GET", `${tableGamePath(p)}/review`);
    if (!p.review) return;
    p.review = { loading: false, data, error: null, shown: null, puzzles: [] };
    loadPuzzles(p);
  } catch (err) {
    if (!p.review) return;
    p.review = { loading: false, data: null, error: err.message, shown: null };
  }
  rerender();
}

/** Puzzles from a table's finished game, once its review is made: the server's puzzle maker
 * runs on the game's record once (docs/puzzles.md); none for a record file. */
async function loadPuzzles(p) {
  if (p.source === "file" || typeof p.game !== "number") return;
  try {
    const made = await api("POST", `${tableGamePath(p)}/puzzles`, {});
    if (p.review) Object.assign(p.review, { puzzles: made.puzzles || [], puzzlesMade: "made" });
  } catch (err) {
    // none now (busy, or the day's cap): the review stands without them, and says so
    if (p.review) p.review.puzzlesMade = "unavailable";
  }
  rerender();
}

/** The puzzles made from the game: a link to them, or why there are none. */
function ReviewPuzzles({ r, puzzles }) {
  if (puzzles.length) {
    return h("a", { class: "review-puzzles", href: `#/puzzles/${encodeURIComponent(puzzles[0])}`, onClick: () => keepGamePuzzles(puzzles) }, t("Puzzles from this game"));
  }
  if (r.puzzlesMade === "made") return h("p", { class: "review-puzzles muted small" }, t("No puzzles from this game: at no turn was the best play hard to find."));
  if (r.puzzlesMade === "unavailable") return h("p", { class: "review-puzzles muted small" }, t("The puzzles from this game could not be made now: open its review again later."));
  return null;
}

/** The turns where more was possible, each with the replay's position just before it. */
export function chances(p, starts) {
  const data = p.review && p.review.data;
  if (!data) return [];
  return data.turns
    .filter((turn) => turn.best > turn.played && turn.best_play && turn.type !== "out") // out: nothing was missed
    .map((turn) => ({ turn, pos: starts[turn.deal] + turn.action }))
    .sort((a, b) => a.pos - b.pos);
}

/** The review's line above the board: ask for it, or its summary and the way between the
 * turns where more was possible, with a mark for each along the positions. */
export function ReviewBar({ p, starts, go, names }) {
  const r = p.review;
  if (!r) {
    return h("div", { class: "review-bar" }, h("button", { type: "button", class: "primary", onClick: () => loadReview(p) }, t("Review this game")));
  }
  if (r.loading) return h("p", { class: "review-bar muted", role: "status" }, t("Reviewing the game…"));
  if (r.error) return h("p", { class: "review-bar error", role: "alert" }, r.error);
  const marks = chances(p, starts);
  const before = marks.filter((m) => m.pos < p.pos);
  const after = marks.filter((m) => m.pos > p.pos);
  const puzzles = r.puzzles || [];
  return h("section", { class: "review-bar", "aria-label": t("The review") }, [
    ReviewPuzzles({ r, puzzles }),
    h(
      "ul",
      { class: "review-players" },
      r.data.players.map((pl) =>
        h("li", null, t("{name}: at the best in {best} of {turns} turns, {cards} more possible", { name: pl.name || names[pl.seat], best: pl.best_turns, turns: pl.turns, cards: cardCount(pl.cards_missed) })),
      ),
    ),
    h("p", { class: "muted small" }, t("Each turn is judged only from what its player could see then.")),
    // one button a chance, in a row that scrolls: marks placed along the positions
    // overlapped where turns were close, and could not be tapped (issue 45)
    h(
      "div",
      { class: "review-track", role: "group", "aria-label": t("Turns where more was possible") },
      marks.map((m) => {
        const n = m.turn.action + 1; // the action about to be played there (one numbering)
        const several = starts.length > 1;
        const label = several ? t("Deal {deal}, action {n}", { deal: m.turn.deal + 1, n }) : t("Action {n}", { n });
        return h(
          "button",
          { type: "button", class: "review-mark" + (m.pos === p.pos ? " here" : ""), "aria-current": m.pos === p.pos ? "step" : null, "aria-label": label, title: label, onClick: () => go(m.pos) },
          several ? `${m.turn.deal + 1}·${n}` : String(n),
        );
      }),
    ),
    h("div", { class: "review-nav" }, [
      h("button", { type: "button", class: "review-prev", disabled: !before.length, onClick: () => go(before[before.length - 1].pos) }, t("Previous chance")),
      h("span", { "data-testid": "chances" }, chanceCount(marks.length)),
      h("button", { type: "button", class: "review-next", disabled: !after.length, onClick: () => go(after[0].pos) }, t("Next chance")),
    ]),
  ]);
}

function chanceCount(n) {
  if (n === 0) return t("No turn where more was possible.");
  return n === 1 ? t("1 turn where more was possible") : t("{n} turns where more was possible", { n });
}

/** The review of the turn about to be played at this position, if more was possible. */
export function chanceHere(p, starts) {
  return chances(p, starts).find((m) => m.pos === p.pos) || null;
}

function missedText(name) {
  if (name === "go_out") return t("That would have gone out.");
  if (name === "contract") return t("That lays the rest of the contract.");
  return t("Before the discard, a card could still have gone onto a meld on the table.");
}

/** What the player to act could have done here, and the button that shows it. */
export function TurnPanel({ p, chance, names }) {
  const turn = chance.turn;
  const play = turn.best_play;
  const shown = p.review.shown === chance.pos;
  const name = names[turn.seat];
  const best = cardCount(turn.best);
  const lines = [turn.played ? t("{name} laid {played}, but could have laid {best}.", { name, played: cardCount(turn.played), best }) : t("{name} laid no card, but could have laid {best}.", { name, best })];
  if (play.moved === 1) lines.push(t("It moves 1 card already on the table."));
  else if (play.moved > 1) lines.push(t("It moves {n} cards already on the table.", { n: play.moved }));
  if (turn.take_discard) lines.push(t("It takes the discard pile's top, {card}, instead of the stock's card.", { card: shortCards([turn.take_discard]) }));
  turn.missed.forEach((m) => lines.push(missedText(m)));
  return h("div", { class: "review-turn", role: "note" }, [
    h("strong", null, t("{name}'s turn: more was possible", { name })),
    lines.map((line) => h("p", null, line)),
    h(
      "button",
      {
        type: "button",
        class: "review-show" + (shown ? "" : " primary"),
        "aria-pressed": shown ? "true" : "false",
        onClick: () => {
          p.review.shown = shown ? null : chance.pos;
          rerender();
          if (!shown) {
            // drawn below the first screen on a phone: bring it into view (issue 45)
            requestAnimationFrame(() => {
              const drawn = document.querySelector(".best-play");
              if (drawn) drawn.scrollIntoView({ block: "nearest", behavior: "smooth" });
            });
          }
        },
      },
      shown ? t("Hide the best play") : t("Show the best play"),
    ),
  ]);
}

/** The best play drawn on the table as it was. */
export function BestPlay({ game, turn, view, names }) {
  const play = turn.best_play;
  const legend = [h("span", null, [h("span", { class: "swatch rv-hand", "aria-hidden": "true" }), t("from the hand")])];
  let melds;
  if (game === "vatikanen") {
    if (play.moved) legend.push(h("span", null, [h("span", { class: "swatch rv-moved", "aria-hidden": "true" }), t("moved from another meld")]));
    melds = play.table.map((meld, i) =>
      h(
        "div",
        { class: "meld", role: "group", "aria-label": t("Meld {n}: {cards}", { n: i + 1, cards: shortCards(meld) }) },
        [meld.map((card, j) => h(StaticCard, { card, extra: markClass(play.marks[i][j]) })), jokerNotes(play, i)],
      ),
    );
  } else {
    const old = new Map(view.table.map((m) => [m.number, m.cards]));
    melds = play.table.map((m) => {
      const extra = added(old.get(m.number) || [], m.cards);
      return h("div", { class: "meld", role: "group", "aria-label": t("Meld #{n}, {kind}: {cards}", { n: m.number, kind: m.kind === "run" ? t("run") : t("group"), cards: shortCards(m.cards) }) }, [
        h("span", { class: "meld-no", "aria-hidden": "true" }, "#" + m.number + " " + names[m.owner]),
        m.cards.map((card, j) => h(StaticCard, { card, extra: extra[j] ? "rv-hand" : "" })),
      ]);
    });
  }
  return h("section", { class: "table-area best-play", "aria-label": t("The best play, on the table as it was") }, [
    h("p", { class: "best-play-head" }, [h("strong", null, t("The best play, on the table as it was")), " ", legend]),
    melds,
  ]);
}

/** A note by each joker of meld ``i`` that now stands for another card: "★ Q→J♦" (the
 * card alone showed only what it stands for now: issue 45). */
function jokerNotes(play, i) {
  return (play.was || [])
    .filter(([meld]) => meld === i)
    .map(([meld, place, was]) => {
      const before = meaning(was);
      const now = meaning(play.table[meld][place]);
      return h("span", { class: "joker-was", title: t("The joker stood for {was}; now it stands for {now}.", { was: before, now }) }, t("★ {was}→{now}", { was: before, now }));
    });
}

/** What a table joker stands for, as a card is written: "Q♦", or "Q" in a group. */
function meaning(joker) {
  return shortCard(joker).replace(/^★=?/, "");
}

function markClass(mark) {
  if (mark === "hand") return "rv-hand";
  if (mark === "moved") return "rv-moved";
  return "";
}

/** Which cards of a Kontrakt meld are new since ``before`` (the cards laid onto it). */
function added(before, after) {
  const left = new Map();
  before.forEach((c) => left.set(c, (left.get(c) || 0) + 1));
  return after.map((c) => {
    const k = left.get(c) || 0;
    if (k > 0) {
      left.set(c, k - 1);
      return false;
    }
    return true;
  });
}
