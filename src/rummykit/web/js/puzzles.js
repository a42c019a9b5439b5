// The puzzle page (#/puzzles, #/puzzles/kontrakt, #/puzzles/ID; docs/puzzles.md).
//
// A Vatikanen puzzle is a table and a hand: tap or drag the cards to lay onto the table,
// "Check" asks the server's checker (the exact solver counts the most cards). A Kontrakt
// puzzle is a seat's turn, played on the table's own board (tap or drag, the same buttons
// as a game): every move goes to the server, whose engine judges it on the puzzle's
// position, and "Check" hands in the turn. A hint names the idea; the solution is drawn
// after the answer; a streak; and the player's puzzle rating per game (a guest's kept in
// this browser, Glicko-2 numbers from the server; a signed-in player's kept on the
// server, which sends it with each puzzle and each first try).

import { h } from "../vendor/preact/preact.module.js";
import { api, load, save } from "./api.js";
import { setDropHandler } from "./drag.js";
import { language, t } from "./i18n.js";
import { KontraktBoard, forgetStaged } from "./kontrakt.js";
import { rerender } from "./store.js";
import { Card, HandOrder, StaticCard, actionButton } from "./ui.js";
import { gameTitle, shownSentence } from "./words.js";

export const PUZZLE_GAMES = ["vatikanen", "kontrakt"];
const TRIED_KEY = "puzzlesTried";
const GAME_KEY = "gamePuzzles";

/** The puzzles made from a game the player has reviewed, to be played in turn (the review's
 * link): each says it is from the player's game, and "Next puzzle" goes to the next. */
export function keepGamePuzzles(ids) {
  save(GAME_KEY, ids.slice());
}

function gamePuzzles() {
  const kept = load(GAME_KEY, []);
  return Array.isArray(kept) ? kept : [];
}

const state = { game: "vatikanen", puzzle: null, chosen: [], verdict: null, hint: false, streak: 0, error: null, account: null, reveal: false, turn: null, notice: null };

function ratingKey(game) {
  return game === "vatikanen" ? "puzzleRating" : `puzzleRating.${game}`;
}

function rating() {
  return state.account || load(ratingKey(state.game), { rating: 1500, rd: 350, volatility: 0.06 });
}

const THEMES = {
  "goes-out": () => t("You can go out"),
  joker: () => t("A joker can be freed"),
  split: () => t("Split the run"),
  rearrange: () => t("Rearrange the table"),
  contract: () => t("Lay the whole contract"),
  "lay-off": () => t("Lay off onto the table after the contract"),
  pile: () => t("Take the discard pile's top: with it the contract can be laid now"),
};

/** Vatikanen's cards dragged onto the table are laid; dragged back to the hand, kept. */
function onDrop(payload, target) {
  if (!location.hash.startsWith("#/puzzles")) return;
  if (state.turn) {
    if (state.turn.drop) state.turn.drop(payload, target);
    return;
  }
  if (state.verdict || payload.puzzleCard === undefined) return;
  const i = payload.puzzleCard;
  state.notice = null;
  if (target === "puzzle-answer" && !state.chosen.includes(i)) state.chosen = [...state.chosen, i];
  else if (target === "puzzle-hand") state.chosen = state.chosen.filter((j) => j !== i);
  else return;
  rerender();
}

/** Enter the page: ``arg`` is a game's name (its next puzzle), a puzzle's id, or null. */
export async function enterPuzzles(arg = null) {
  setDropHandler(onDrop);
  const id = arg && !PUZZLE_GAMES.includes(arg) ? arg : null;
  if (arg && !id) state.game = arg;
  Object.assign(state, { puzzle: null, verdict: null, chosen: [], hint: false, reveal: false, error: null, turn: null, notice: null });
  rerender();
  try {
    // One puzzle by id (#/puzzles/ID: one made from a game of this server), else the one near.
    const lang = language();
    const one = id ? await api("GET", `/api/puzzles/${encodeURIComponent(id)}?lang=${lang}`) : null;
    if (one) state.game = one.game;
    state.account = null;
    const near = await api("GET", `/api/puzzles/next?game=${state.game}&rating=${Math.round(rating().rating)}&lang=${lang}`);
    state.account = near.player || null;
    state.puzzle = one ? { ...one, player: near.player } : near;
    if (state.puzzle.state) startTurn();
  } catch (err) {
    state.error = err.code === "not_found" ? t("No such puzzle.") : err.message;
  }
  rerender();
}

async function answer(body) {
  const puzzle = state.puzzle;
  const tried = load(TRIED_KEY, []);
  const first = !tried.includes(puzzle.id);
  try {
    state.verdict = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, { ...body, first, player: rating(), lang: language() });
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
    if (state.verdict.player) save(ratingKey(state.game), state.verdict.player);
  }
  state.streak = state.verdict.right ? state.streak + 1 : 0;
  rerender();
  showVerdict();
}

/** Bring the verdict into view once it is drawn: a turn handed in from a Kontrakt board's
 * dock (the discard that goes out) leaves the page at its foot, and the verdict is at its
 * head; a Vatikanen verdict is drawn below the hand. */
function showVerdict() {
  requestAnimationFrame(() => {
    const el = document.querySelector(".puzzle-verdict");
    if (!el) return;
    const box = el.getBoundingClientRect();
    const dock = document.querySelector(".puzzles .dock");
    const room = (dock ? dock.getBoundingClientRect().top : window.innerHeight) - 8;
    if (box.top < 0 || box.top > room - 40) window.scrollBy(0, box.top - 8);
  });
}

function check() {
  if (state.turn) return answer({ actions: state.turn.moves });
  return answer({ add: state.chosen.map((i) => state.puzzle.hand[i]) });
}

function toggle(i) {
  state.notice = null;
  state.chosen = state.chosen.includes(i) ? state.chosen.filter((j) => j !== i) : [...state.chosen, i];
  rerender();
}

// ------------------------------------------------------------------ a Kontrakt turn

/** A new board for the puzzle's turn: what the board kept in the browser for it is forgotten. */
function freshUi(puzzle) {
  forgetStaged("puzzle-" + puzzle.id, puzzle.state.seat);
  return {};
}

function startTurn() {
  const puzzle = state.puzzle;
  state.turn = { moves: [], state: puzzle.state, ui: freshUi(puzzle), order: new HandOrder(`order.puzzle.${puzzle.id}`), pending: false, error: null, notice: null, drop: null };
}

/** A board's context, as a table gives one (table.js), backed by the puzzle's turn. */
function turnContext() {
  const turn = state.turn;
  const id = state.puzzle.id;
  const s = turn.state;
  const post = (path, body) => api("POST", `/api/puzzles/${encodeURIComponent(id)}/${path}`, { ...body, lang: language() });
  return {
    id: "puzzle-" + id,
    puzzle: true,
    state: s,
    view: s.view,
    seat: s.seat,
    names: s.seats.map((x) => x.name),
    live: null,
    ui: turn.ui,
    order: turn.order,
    pending: turn.pending,
    myTurn: !state.verdict && s.view.turn === s.seat,
    act: async (action) => {
      if (turn.pending || state.verdict) return false;
      turn.pending = true;
      turn.error = null;
      rerender();
      let out;
      try {
        out = await post("try", { moves: [...turn.moves, action] });
      } catch (err) {
        turn.pending = false;
        turn.error = { message: err.message };
        rerender();
        return false;
      }
      turn.pending = false;
      if (out.verdict === "refused") {
        turn.error = { rule: out.rule, message: out.message };
        rerender();
        return false;
      }
      turn.moves = [...turn.moves, action];
      turn.state = out.state;
      turn.ui = freshUi(state.puzzle);
      turn.notice = null;
      // the discard went out, or the stock was drawn (its card is unknown): the turn is handed in
      if (out.verdict === "out" || out.verdict === "stock") await check();
      else rerender();
      return true;
    },
    request: async (message) => {
      try {
        return await post("help", { moves: turn.moves, request: message });
      } catch (err) {
        return { type: "error", code: err.code || "offline", rule: null, message: err.message };
      }
    },
    showError: (err) => {
      turn.error = err;
      rerender();
    },
    notify: (text) => {
      turn.notice = text;
      turn.error = null;
      rerender();
    },
    clearError: () => {
      turn.error = null;
    },
    setDrop: (fn) => {
      turn.drop = fn;
    },
    messages: () => h(TurnSaid, null),
  };
}

function TurnSaid() {
  const turn = state.turn;
  if (turn.error) {
    return h("div", { class: "error-line", role: "alert" }, [
      turn.error.rule ? h("span", { class: "rule" }, turn.error.rule) : null,
      h("span", { class: "error-text" }, turn.error.rule ? shownSentence(turn.error.message) : turn.error.message),
    ]);
  }
  if (turn.notice) return h("div", { class: "notice-line", role: "status" }, turn.notice);
  return null;
}

// ------------------------------------------------------------------ what it looks like

/** A solution's cards marked as the review marks a best play (review.js): laid from the
 * hand, or moved from another meld. */
const MARKS = { hand: "rv-hand", moved: "rv-moved" };

function Legend({ marks }) {
  const moved = marks.some((m) => m.includes("moved"));
  return h("p", { class: "best-play-head" }, [
    h("span", null, [h("span", { class: "swatch rv-hand", "aria-hidden": "true" }), t("from the hand")]),
    moved ? h("span", null, [h("span", { class: "swatch rv-moved", "aria-hidden": "true" }), t("moved from another meld")]) : null,
  ]);
}

/** Which of ``after``'s cards are not in ``before`` (the cards laid onto a meld), as the
 * review tells them (review.js). */
function added(before, after) {
  const left = new Map();
  before.forEach((c) => left.set(c, (left.get(c) || 0) + 1));
  return after.map((c) => {
    const k = left.get(c) || 0;
    if (k > 0) left.set(c, k - 1);
    return k === 0;
  });
}

function Melds({ melds, marks }) {
  return h(
    "div",
    { class: "puzzle-table" },
    melds.map((meld, m) =>
      h(
        "div",
        { class: "meld" },
        meld.map((card, c) => h(StaticCard, { card, extra: marks && marks[m] ? MARKS[marks[m][c]] || "" : "" })),
      ),
    ),
  );
}

function retry() {
  state.verdict = null;
  state.notice = null;
  state.chosen = [];
  if (state.turn) startTurn();
  rerender();
}

function nextPuzzle() {
  const mine = gamePuzzles();
  const k = state.puzzle ? mine.indexOf(state.puzzle.id) : -1;
  if (k >= 0 && k + 1 < mine.length) {
    location.hash = `#/puzzles/${encodeURIComponent(mine[k + 1])}`;
    return;
  }
  if (k >= 0) save(GAME_KEY, null); // the game's last: on to the others
  const here = state.game === "vatikanen" ? "#/puzzles" : `#/puzzles/${state.game}`;
  if (location.hash !== here) location.hash = here;
  else enterPuzzles(state.game);
}

function Solution({ solution }) {
  if (solution.steps) {
    // A Kontrakt turn: its actions in words, then the table it leaves, numbered as the words
    // name its melds, the cards laid this turn marked as the review marks them
    const before = new Map(((state.puzzle.state && state.puzzle.state.view.table) || []).map((m) => [m.number, m.cards]));
    const melds = solution.table.map((cards, n) =>
      h("div", { class: "meld" }, [
        h("span", { class: "meld-no", "aria-hidden": "true" }, "#" + n),
        cards.map((card, c, all) => h(StaticCard, { card, extra: added(before.get(n) || [], all)[c] ? "rv-hand" : "" })),
      ]),
    );
    return [h("ol", { class: "puzzle-steps" }, solution.steps.map((s) => h("li", null, s))), h(Legend, { marks: [] }), h("div", { class: "puzzle-table" }, melds)];
  }
  return [h(Legend, { marks: solution.marks }), h(Melds, { melds: solution.table, marks: solution.marks })];
}

function Verdict({ verdict }) {
  let text;
  if (verdict.right) text = t("Right! That is a best play.");
  else if (verdict.rule) text = `${verdict.rule}: ${verdict.message}`;
  else text = t("Legal, but the best play lays {n} more.", { n: verdict.more });
  const next = h("button", { type: "button", class: "button primary", onClick: nextPuzzle }, t("Next puzzle"));
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
    h(Solution, { solution: verdict.solution }),
    next,
  ]);
}

function GameChoice() {
  return h(
    "p",
    { class: "puzzle-games", role: "group", "aria-label": t("Game") },
    PUZZLE_GAMES.map((game) =>
      h("a", { class: "button" + (game === state.game ? " primary" : ""), href: game === "vatikanen" ? "#/puzzles" : `#/puzzles/${game}`, "aria-current": game === state.game ? "page" : undefined }, gameTitle(game)),
    ),
  );
}

/** Why "Check" cannot be pressed now, or null when it can. */
function checkBlocked() {
  const turn = state.turn;
  if (!turn) return state.chosen.length ? null : t("Tap or drag the cards you lay first.");
  if (turn.pending) return t("Your last move is on its way.");
  return turn.moves.length ? null : t("Play your turn on the board first.");
}

/** "Check" and "Start again", greyed with a reason a tap says (ui.js actionButton): a
 * Kontrakt puzzle's in the board's dock, a Vatikanen puzzle's below the buttons. */
function Tools() {
  const ctx = state.turn
    ? turnContext()
    : {
        notify: (text) => {
          state.notice = text;
          rerender();
        },
      };
  const tools = [
    actionButton(ctx, { class: "button primary", why: checkBlocked(), onClick: check }, t("Check")),
    h("button", { type: "button", class: "button", onClick: () => { state.hint = true; rerender(); } }, t("Hint")),
  ];
  if (state.turn) tools.push(actionButton(ctx, { class: "button", why: !state.turn.moves.length && t("You have made no move yet."), onClick: retry }, t("Start again")));
  const said = !state.turn && state.notice ? h("p", { class: "notice-line", role: "status" }, state.notice) : null;
  return [h("div", { class: "puzzle-tools" }, tools), said];
}

function VatikanenPuzzle({ puzzle }) {
  const chosen = state.chosen;
  const drag = (i) => (state.verdict ? undefined : { puzzleCard: i });
  return [
    h("p", null, t("Lay as many cards as you can.")),
    h(Melds, { melds: puzzle.table }),
    h("div", { class: "puzzle-answer" + (chosen.length ? "" : " empty"), "data-drop": "puzzle-answer", "aria-label": t("The cards you lay") }, [
      chosen.length ? null : h("span", { class: "muted small" }, t("Tap or drag the cards you lay here.")),
      ...chosen.map((i) => h(Card, { card: puzzle.hand[i], selected: true, drag: drag(i), onTap: state.verdict ? undefined : () => toggle(i) })),
    ]),
    h(
      "div",
      { class: "hand", "data-drop": "puzzle-hand" },
      puzzle.hand.map((card, i) =>
        h(Card, { card, selected: chosen.includes(i), drag: chosen.includes(i) ? undefined : drag(i), onTap: state.verdict ? undefined : () => toggle(i) }),
      ),
    ),
  ];
}

function KontraktPuzzle() {
  return [
    h("p", null, t("Lay as many cards as you can this turn: the contract first, then lay off and swap jokers; go out if you can.")),
    h("div", { class: "table-page game-kontrakt puzzle-board" }, h(KontraktBoard, { ctx: turnContext() })),
  ];
}

export function PuzzlePage() {
  const puzzle = state.puzzle;
  const mine = rating();
  const head = [
    h("h2", null, t("Puzzles")),
    h(GameChoice, null),
    h("p", { class: "puzzle-stats" }, [
      h("span", { class: "puzzle-rating" }, t("Your puzzle rating: {r}", { r: Math.round(mine.rating) })),
      " · ",
      h("span", { class: "puzzle-streak" }, t("Streak: {n}", { n: state.streak })),
    ]),
  ];
  if (state.error) head.push(h("p", { class: "error" }, state.error));
  if (!puzzle) return h("main", { class: "page puzzles" }, head);
  const fromGame = gamePuzzles();
  if (fromGame.includes(puzzle.id)) head.push(h("p", { class: "puzzle-source" }, t("From your game: puzzle {n} of {count}", { n: fromGame.indexOf(puzzle.id) + 1, count: fromGame.length })));
  const theme = puzzle.theme;
  const hint = (state.hint || state.verdict) && theme ? h("p", { class: "puzzle-hint" }, (THEMES[theme] || (() => theme))()) : null;
  const answer = state.verdict ? h(Verdict, { verdict: state.verdict }) : h(Tools, null);
  // A Kontrakt board's dock covers the page's foot on a phone: the tools and the verdict go above the board.
  const [task, ...board] = state.turn ? KontraktPuzzle() : VatikanenPuzzle({ puzzle });
  const body = state.turn ? [...head, task, hint, answer, ...board] : [...head, task, ...board, hint, answer];
  return h("main", { class: "page puzzles", "data-puzzle": puzzle.id, "data-game": puzzle.game }, body);
}
