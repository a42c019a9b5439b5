// The puzzle page (#/puzzles, docs/puzzles.md): a seat's table and hand, tap cards to build
// the answer, "Check" asks the server's checker; a hint names the idea; the solution is drawn
// with where each card came from; a streak and the player's puzzle rating (a guest's kept in
// this browser, Glicko-2 numbers from the server; a signed-in player's kept on the server,
// which sends it with each puzzle and each first try).

import { h } from "../vendor/preact/preact.module.js";
import { api, load, save } from "./api.js";
import { language, t } from "./i18n.js";
import { rerender } from "./store.js";
import { Card, StaticCard } from "./ui.js";

const RATING_KEY = "puzzleRating";
const TRIED_KEY = "puzzlesTried";

const state = { puzzle: null, chosen: [], verdict: null, hint: false, streak: 0, error: null, account: null, reveal: false };

function rating() {
  return state.account || load(RATING_KEY, { rating: 1500, rd: 350, volatility: 0.06 });
}

const THEMES = {
  "goes-out": () => t("You can go out"),
  joker: () => t("A joker can be freed"),
  split: () => t("Split the run"),
  rearrange: () => t("Rearrange the table"),
};

export async function enterPuzzles(id = null) {
  state.puzzle = null;
  state.verdict = null;
  state.chosen = [];
  state.hint = false;
  state.reveal = false;
  state.error = null;
  rerender();
  try {
    const near = await api("GET", `/api/puzzles/next?game=vatikanen&rating=${Math.round(rating().rating)}`);
    state.account = near.player || null;
    // One puzzle by id (#/puzzles/ID: one made from a game of this server), else the one near.
    state.puzzle = id ? { ...(await api("GET", `/api/puzzles/${encodeURIComponent(id)}`)), player: near.player } : near;
  } catch (err) {
    state.error = err.message;
  }
  rerender();
}

async function check() {
  const puzzle = state.puzzle;
  const tried = load(TRIED_KEY, []);
  const first = !tried.includes(puzzle.id);
  const body = { add: state.chosen.map((i) => puzzle.hand[i]), first, player: rating(), lang: language() };
  try {
    state.verdict = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, body);
  } catch (err) {
    state.error = err.message;
    rerender();
    return;
  }
  if (state.account) {
    // A signed-in player's rating is the server's: only its record of first tries counts.
    if (state.verdict.player) state.account = state.verdict.player;
  } else {
    if (first) save(TRIED_KEY, [...tried, puzzle.id].slice(-500));
    if (state.verdict.player) save(RATING_KEY, state.verdict.player);
  }
  state.streak = state.verdict.right ? state.streak + 1 : 0;
  rerender();
}

function toggle(i) {
  state.chosen = state.chosen.includes(i) ? state.chosen.filter((j) => j !== i) : [...state.chosen, i];
  rerender();
}

function Melds({ melds, marks }) {
  return h(
    "div",
    { class: "puzzle-table" },
    melds.map((meld, m) =>
      h(
        "div",
        { class: "meld" },
        meld.map((card, c) => h(StaticCard, { card, extra: marks && marks[m] ? "from-" + marks[m][c] : "" })),
      ),
    ),
  );
}

function retry() {
  state.verdict = null;
  state.chosen = [];
  rerender();
}

function Verdict({ verdict }) {
  let text;
  if (verdict.right) text = t("Right! That is a best play.");
  else if (verdict.rule) text = `${verdict.rule}: ${verdict.message}`;
  else text = t("Legal, but the best play lays {n} more.", { n: verdict.more });
  const next = h("button", { type: "button", class: "button primary", onClick: () => { if (location.hash !== "#/puzzles") location.hash = "#/puzzles"; else enterPuzzles(); } }, t("Next puzzle"));
  if (!verdict.right && !state.reveal) {
    // A wrong answer is told why; the player may try again (no longer a first try) or see the solution.
    return h("div", { class: "puzzle-verdict wrong", role: "status" }, [
      h("p", null, text),
      h("div", { class: "puzzle-tools" }, [
        h("button", { type: "button", class: "button primary", onClick: retry }, t("Try again")),
        h("button", { type: "button", class: "button", onClick: () => { state.reveal = true; rerender(); } }, t("Show the solution")),
        next,
      ]),
    ]);
  }
  return h("div", { class: "puzzle-verdict" + (verdict.right ? " right" : " wrong"), role: "status" }, [
    h("p", null, text),
    h("p", null, t("The solution:")),
    h(Melds, { melds: verdict.solution.table, marks: verdict.solution.marks }),
    next,
  ]);
}

export function PuzzlePage() {
  const puzzle = state.puzzle;
  const mine = rating();
  const head = [
    h("h2", null, t("Puzzles")),
    h("p", { class: "puzzle-stats" }, [
      h("span", { class: "puzzle-rating" }, t("Your puzzle rating: {r}", { r: Math.round(mine.rating) })),
      " · ",
      h("span", { class: "puzzle-streak" }, t("Streak: {n}", { n: state.streak })),
    ]),
  ];
  if (state.error) head.push(h("p", { class: "error" }, state.error));
  if (!puzzle) return h("main", { class: "page puzzles" }, head);
  const theme = puzzle.theme;
  return h("main", { class: "page puzzles", "data-puzzle": puzzle.id }, [
    ...head,
    h("p", null, t("Lay as many cards as you can.")),
    h(Melds, { melds: puzzle.table }),
    h(
      "div",
      { class: "hand" },
      puzzle.hand.map((card, i) =>
        h(Card, { card, selected: state.chosen.includes(i), onTap: state.verdict ? undefined : () => toggle(i) }),
      ),
    ),
    state.verdict
      ? h(Verdict, { verdict: state.verdict })
      : h("div", { class: "puzzle-tools" }, [
          h("button", { type: "button", class: "button primary", disabled: !state.chosen.length, onClick: check }, t("Check")),
          h("button", { type: "button", class: "button", onClick: () => { state.hint = true; rerender(); } }, t("Hint")),
        ]),
    (state.hint || state.verdict) && theme ? h("p", { class: "puzzle-hint" }, (THEMES[theme] || (() => theme))()) : null,
  ]);
}
