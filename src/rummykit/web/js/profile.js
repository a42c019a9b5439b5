// A player's profile (#/u/NAME) and each game's leaderboard (#/leaderboard/GAME), from
// GET api/players/NAME and GET api/leaderboard/GAME (docs/ratings.md): the rating in each
// game with a small chart of its history, games played and won, the tables the player is at
// now (on their own page, where it is their turn first) and the finished ones with their
// replay and review.

import { h } from "../vendor/preact/preact.module.js";
import { api } from "./api.js";
import { language, t } from "./i18n.js";
import { rerender } from "./store.js";
import { gameTitle } from "./words.js";

const state = { name: null, profile: null, board: null, game: null, page: 0, error: null };

export async function enterProfile(name) {
  Object.assign(state, { name, profile: null, error: null });
  rerender();
  try {
    state.profile = await api("GET", `api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    state.error = err.code === "not_found" ? t("No player of that name.") : err.message;
  }
  rerender();
}

export async function enterBoard(game, page) {
  Object.assign(state, { game, page: page || 0, board: null, error: null });
  rerender();
  try {
    state.board = await api("GET", `api/leaderboard/${encodeURIComponent(game)}?page=${state.page}`);
  } catch (err) {
    state.error = err.message;
  }
  rerender();
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(language() === "sv" ? "sv-SE" : "en-GB");
}

/** The rating after each rated game, as a line: the figures on the left, the games along. */
export function RatingChart({ history }) {
  if (history.length < 2) return null;
  const w = 320;
  const hgt = 120;
  const pad = 28;
  const values = history.map((p) => p.rating);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 50) {
    lo -= 25;
    hi += 25;
  }
  const x = (i) => pad + (i * (w - pad - 6)) / (history.length - 1);
  const y = (v) => 6 + ((hi - v) * (hgt - 18)) / (hi - lo);
  const points = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const label = t("Rating after each rated game: from {first} to {last}", { first: values[0], last: values[values.length - 1] });
  return h("svg", { class: "rating-chart", viewBox: `0 0 ${w} ${hgt}`, role: "img", "aria-label": label }, [
    h("title", null, label),
    h("text", { x: 2, y: 12, class: "axis" }, String(Math.round(hi))),
    h("text", { x: 2, y: hgt - 12, class: "axis" }, String(Math.round(lo))),
    h("polyline", { points, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  ]);
}

function RatingBlock({ r }) {
  return h("section", { class: "card-panel rating-block" }, [
    h("h2", null, gameTitle(r.game)),
    h("p", { class: "rating-figure" }, [
      h("strong", null, String(r.rating)),
      r.provisional ? h("span", { class: "provisional", title: t("Provisional: fewer than 20 rated games") }, " ?") : null,
    ]),
    h("p", null, t("{games} rated games, {wins} won", { games: r.games, wins: r.wins })),
    h(RatingChart, { history: r.history }),
    h("p", null, h("a", { href: `#/leaderboard/${r.game}` }, t("Leaderboard"))),
  ]);
}

function TableLine({ table, finished }) {
  const id = encodeURIComponent(table.id);
  const turn = !finished && table.to_act === table.my_seat;
  return h("li", { class: "profile-table" + (turn ? " my-turn" : "") }, [
    h("span", { class: "table-game" }, gameTitle(table.game)),
    " ",
    h("span", null, table.seats.map((s) => s.name || "…").join(", ")),
    " ",
    table.rated ? h("span", { class: "rated-mark" }, t("rated")) : null,
    " ",
    finished
      ? [h("a", { href: `#/r/${id}` }, t("Replay")), " ", h("a", { href: `#/r/${id}/review` }, t("Review"))]
      : h("a", { href: `#/t/${id}` }, turn ? t("Your turn") : t("Open")),
  ]);
}

export function ProfilePage() {
  if (state.error) return h("main", { class: "page profile" }, h("p", { class: "error-line" }, state.error));
  const p = state.profile;
  if (!p) return h("main", { class: "page profile" }, h("p", null, t("Loading…")));
  return h("main", { class: "page profile" }, [
    h("h1", null, p.name),
    h("p", { class: "since" }, t("Player since {date}", { date: when(p.since) })),
    p.ratings.length ? p.ratings.map((r) => h(RatingBlock, { r })) : h("p", null, t("No rated games yet.")),
    h("section", { class: "card-panel" }, [
      h("h2", null, p.me ? t("Your tables") : t("At the tables now")),
      p.tables.length ? h("ul", null, p.tables.map((table) => h(TableLine, { table, finished: false }))) : h("p", null, t("None just now.")),
    ]),
    h("section", { class: "card-panel" }, [
      h("h2", null, t("Recent games")),
      p.recent.length ? h("ul", null, p.recent.map((table) => h(TableLine, { table, finished: true }))) : h("p", null, t("None yet.")),
    ]),
  ]);
}

export function BoardPage() {
  const b = state.board;
  const games = ["vatikanen", "kontrakt"];
  return h("main", { class: "page leaderboard" }, [
    h("h1", null, t("Leaderboard")),
    h("nav", { class: "board-games" }, games.map((g) => h("a", { href: `#/leaderboard/${g}`, class: g === state.game ? "on" : "" }, gameTitle(g)))),
    state.error ? h("p", { class: "error-line" }, state.error) : null,
    !b
      ? h("p", null, t("Loading…"))
      : b.players.length === 0
        ? h("p", null, t("Nobody has 20 rated games of this game yet."))
        : h("table", { class: "board" }, [
            h("thead", null, h("tr", null, [h("th", null, "#"), h("th", null, t("Player")), h("th", null, t("Rating")), h("th", null, t("Games")), h("th", null, t("Won"))])),
            h(
              "tbody",
              null,
              b.players.map((p) =>
                h("tr", null, [
                  h("td", null, String(p.rank)),
                  h("td", null, h("a", { href: `#/u/${encodeURIComponent(p.name)}` }, p.name)),
                  h("td", null, String(p.rating)),
                  h("td", null, String(p.games)),
                  h("td", null, String(p.wins)),
                ]),
              ),
            ),
          ]),
    b && (state.page > 0 || b.next !== null)
      ? h("p", { class: "pages" }, [
          state.page > 0 ? h("a", { href: `#/leaderboard/${state.game}/${state.page - 1}` }, t("Previous")) : null,
          " ",
          b.next !== null ? h("a", { href: `#/leaderboard/${state.game}/${b.next}` }, t("Next")) : null,
        ])
      : null,
  ]);
}
