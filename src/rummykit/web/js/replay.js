// The replay viewer (#/r/ID for a finished table, #/r/file for a record file the player
// opened): any record of docs/record.md, the terminal's too, stepped through forwards and
// back. The server replays the record with the engine (POST /api/replay) and sends the
// positions a few at a time; a finished game shows every hand.

import { h } from "../vendor/preact/preact.module.js";
import { api } from "./api.js";
import { shortCards } from "./cards.js";
import { t } from "./i18n.js";
import { KontraktStatic } from "./kontrakt.js";
import { language } from "./i18n.js";
import { gameTitle, shownText } from "./words.js";
import { BestPlay, chanceHere, loadReview, ReviewBar, tableGamePath, TurnPanel } from "./review.js";
import { rerender } from "./store.js";
import { LogLine, StaticCard, cardCount } from "./ui.js";
import { StaticTable } from "./vatikanen.js";

const CHUNK = 20;
let page = null;

export function enterReplay(source, review = false, game = null) {
  if (page && page.source === source && page.game === game) {
    if (review && page.meta) loadReview(page);
    page.wantReview = page.wantReview || review;
    return;
  }
  leaveReplay();
  page = { source, game, record: null, meta: null, frames: new Map(), asked: new Set(), pos: 0, error: null, seat: null, review: null, wantReview: review };
  page.keys = (event) => keys(event);
  document.addEventListener("keydown", page.keys);
  start(page);
}

export function leaveReplay() {
  if (!page) return;
  document.removeEventListener("keydown", page.keys);
  clearInterval(page.playing);
  page = null;
}

/** Keep a record the player opened, for #/r/file. */
export function keepRecordText(text) {
  sessionStorage.setItem("rummykit.replay", text);
}

async function start(p) {
  try {
    if (p.source === "file") {
      const text = sessionStorage.getItem("rummykit.replay");
      if (!text) throw new Error(t("No record file is open: open one from the lobby."));
      try {
        p.record = JSON.parse(text);
      } catch (err) {
        throw new Error(t("This file is not a record: it is not JSON."));
      }
    } else {
      p.record = await api("GET", `${tableGamePath(p)}/record`);
    }
    await fetchChunk(p, 0);
    if (p.wantReview && page === p && p.meta.finished && !p.meta.illegal) loadReview(p);
  } catch (err) {
    p.error = err.code === "not_over" ? t("The game at this table is not over yet: its record is given once it is.") : err.message;
  }
  rerender();
}

async function fetchChunk(p, startAt) {
  if (p.asked.has(startAt)) return;
  p.asked.add(startAt);
  p.lang = language(); // the logs come in words, in the page's language
  const answer = await api("POST", "api/replay", { record: p.record, seat: p.seat, start: startAt, count: CHUNK, lang: p.lang });
  if (page !== p) return;
  p.meta = answer;
  answer.frames.forEach((frame, k) => p.frames.set(startAt + k, frame));
  rerender();
}

function go(pos) {
  const p = page;
  if (!p || !p.meta) return;
  p.pos = Math.max(0, Math.min(p.meta.positions - 1, pos));
  const chunk = Math.floor(p.pos / CHUNK) * CHUNK;
  const need = [chunk];
  if (p.pos - chunk > CHUNK / 2 && chunk + CHUNK < p.meta.positions) need.push(chunk + CHUNK);
  for (const c of need) {
    fetchChunk(p, c).catch((err) => {
      p.asked.delete(c);
      p.error = err.message;
      rerender();
    });
  }
  rerender();
}

/** The position where each deal starts. */
/**
 * Where the replay stands, numbered as everywhere (docs/review.md, "One numbering"): the
 * deal (Vatikanen: the game) from 1 when there are several, and the last action done in it,
 * from 1, of the deal's actions: "Deal 2 of 7: after action 13 of 57".
 */
function positionText(p, starts, games) {
  let d = starts.length - 1;
  while (d > 0 && starts[d] > p.pos) d--;
  const done = p.pos - starts[d];
  const count = (p.record.deals[d].actions || []).length;
  const where = done === 0 ? t("as dealt, before action 1 of {total}", { total: count }) : t("after action {n} of {total}", { n: done, total: count });
  if (starts.length > 1) {
    const deal = games ? t("Game {n} of {total}", { n: d + 1, total: starts.length }) : t("Deal {n} of {total}", { n: d + 1, total: starts.length });
    return `${deal}: ${where}`;
  }
  return where.charAt(0).toLocaleUpperCase() + where.slice(1);
}

function dealStarts(record) {
  const out = [];
  let at = 0;
  for (const deal of record.deals) {
    out.push(at);
    at += (deal.actions || []).length + 1;
  }
  return out;
}

function dealStep(by) {
  const p = page;
  const starts = dealStarts(p.record);
  let k = starts.length - 1;
  while (k > 0 && starts[k] > p.pos) k--;
  if (by > 0) go(k + 1 < starts.length ? starts[k + 1] : p.meta.positions - 1);
  else go(p.pos > starts[k] ? starts[k] : starts[Math.max(0, k - 1)]);
}

function keys(event) {
  if (!page || !page.meta || event.target.closest("input, textarea, select")) return;
  const actions = {
    ArrowRight: () => go(page.pos + 1),
    ArrowLeft: () => go(page.pos - 1),
    Home: () => go(0),
    End: () => go(page.meta.positions - 1),
    PageDown: () => dealStep(1),
    PageUp: () => dealStep(-1),
  };
  const act = actions[event.key];
  if (act) {
    event.preventDefault();
    act();
  }
}

function toggleAutoplay() {
  const p = page;
  if (p.playing) {
    clearInterval(p.playing);
    p.playing = null;
  } else {
    p.playing = setInterval(() => {
      if (!page || page.pos >= page.meta.positions - 1) {
        clearInterval(p.playing);
        p.playing = null;
        rerender();
        return;
      }
      go(page.pos + 1);
    }, 900);
  }
  rerender();
}

async function showSeat(seat) {
  const p = page;
  p.seat = seat;
  p.frames = new Map();
  p.asked = new Set();
  await fetchChunk(p, Math.floor(p.pos / CHUNK) * CHUNK);
}

export function ReplayPage() {
  const p = page;
  if (!p) return null;
  if (p.error && !p.meta) {
    return h("main", { class: "page narrow" }, [h("h1", null, t("Replay")), h("p", { class: "error", role: "alert" }, p.error), h("p", null, h("a", { href: "#/" }, t("Back to the lobby")))]);
  }
  if (!p.meta) return h("main", { class: "page narrow" }, h("p", { class: "muted" }, t("Replaying the record…")));
  if (p.lang !== language()) showSeat(p.seat); // the language changed: the logs again, in it
  const meta = p.meta;
  const frame = p.frames.get(p.pos);
  const names = meta.players;
  const total = meta.positions;
  const starts = dealStarts(p.record);
  // a Vatikanen record's deals are the session's games; one deal needs no buttons to go by
  const several = p.record.deals.length > 1;
  const games = meta.game === "vatikanen";
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("Replay controls") }, [
    h("button", { type: "button", onClick: () => go(0), "aria-label": t("To the start"), disabled: p.pos === 0 }, icon("M5 5h2.5v14H5z M19 5 9.5 12 19 19z")),
    several ? h("button", { type: "button", onClick: () => dealStep(-1), "aria-label": games ? t("Previous game") : t("Previous deal") }, icon("M12 5 3 12l9 7z M21 5l-9 7 9 7z")) : null,
    h("button", { type: "button", class: "step-back", onClick: () => go(p.pos - 1), "aria-label": t("Back one move"), disabled: p.pos === 0 }, icon("M16 5 6 12l10 7z")),
    h("button", { type: "button", onClick: toggleAutoplay, "aria-label": p.playing ? t("Pause") : t("Play the moves") }, p.playing ? icon("M6 5h4v14H6z M14 5h4v14h-4z") : icon("M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20z M12 4a8 8 0 1 1 0 16a8 8 0 1 1 0-16z M10 7.5 16.5 12 10 16.5z")),
    h("button", { type: "button", class: "step-forward", onClick: () => go(p.pos + 1), "aria-label": t("Forward one move"), disabled: p.pos >= total - 1 }, icon("M8 5l10 7-10 7z")),
    several ? h("button", { type: "button", onClick: () => dealStep(1), "aria-label": games ? t("Next game") : t("Next deal") }, icon("M3 5l9 7-9 7z M12 5l9 7-9 7z")) : null,
    h("button", { type: "button", onClick: () => go(total - 1), "aria-label": t("To the end"), disabled: p.pos >= total - 1 }, icon("M16.5 5H19v14h-2.5z M5 5l9.5 7L5 19z")),
    h("input", { type: "range", min: 0, max: total - 1, value: p.pos, "aria-label": t("Position"), onInput: (e) => go(Number(e.target.value)) }),
    h("span", { class: "position", "data-testid": "position" }, positionText(p, starts, games)),
  ]);
  const seatChoice = meta.finished
    ? h("label", { class: "seat-choice" }, [
        t("Show"),
        h(
          "select",
          { value: p.seat === null ? "" : String(p.seat), onChange: (e) => showSeat(e.target.value === "" ? null : Number(e.target.value)) },
          [h("option", { value: "" }, t("every hand")), names.map((n, s) => h("option", { value: String(s) }, t("{name}'s view", { name: n })))],
        ),
      ])
    : h("p", { class: "muted" }, t("The record does not end the game: it is shown as {name} saw it.", { name: names[meta.seat] }));
  return h("main", { class: "page replay-page" }, [
    h("div", { class: "table-head" }, [h("h1", null, t("Replay: {game}", { game: gameTitle(meta.game) })), h("span", { class: "muted" }, names.join(", "))]),
    controls,
    meta.finished && !meta.illegal ? h(ReviewBar, { p, starts, total, go, names }) : null,
    seatChoice,
    meta.illegal
      ? h("p", { class: "error", role: "alert" }, [
          h("span", { class: "rule" }, meta.illegal.rule || ""),
          games
            ? t("Game {deal}, action {action} is illegal: {message}", { deal: meta.illegal.deal + 1, action: meta.illegal.action + 1, message: shownText(meta.illegal.message) })
            : t("Deal {deal}, action {action} is illegal: {message}", { deal: meta.illegal.deal + 1, action: meta.illegal.action + 1, message: shownText(meta.illegal.message) }),
        ])
      : null,
    frame ? h(Frame, { frame, meta, names, p, starts }) : h("p", { class: "muted" }, t("Loading…")),
    h(
      "p",
      { class: "muted small" },
      !several
        ? t("Keys: ← → one move, Home End the start and the end.")
        : games
          ? t("Keys: ← → one move, PgUp PgDn a game, Home End the start and the end.")
          : t("Keys: ← → one move, PgUp PgDn a deal, Home End the start and the end."),
    ),
  ]);
}

/** A transport button's picture: system fonts lack the media symbols, so they are drawn. */
function icon(d) {
  return h("svg", { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", focusable: "false" }, h("path", { d, fill: "currentColor", "fill-rule": "evenodd" }));
}

/** The game's result at its last position: everyone's score, the winners first. */
function Result({ meta, names }) {
  const result = meta.result;
  const order = names.map((_, s) => s).sort((a, b) => (result.higher_is_better ? result.scores[b] - result.scores[a] : result.scores[a] - result.scores[b]));
  const signed = (x) => (result.higher_is_better && x > 0 ? "+" + x : String(x));
  return h("section", { class: "replay-result", "aria-label": t("The result") }, [
    h("h2", null, t("The result")),
    h("table", { class: "scores" }, [
      h("thead", null, h("tr", null, [h("th", null, t("Player")), h("th", null, meta.game === "kontrakt" ? t("Penalty points") : t("Score"))])),
      h("tbody", null, order.map((s) => h("tr", { class: result.winners.includes(s) ? "winner" : "" }, [h("td", null, names[s]), h("td", null, signed(result.scores[s]))]))),
    ]),
    h("p", { class: "muted small" }, meta.game === "kontrakt" ? t("Lower is better: the penalty points of the seven deals.") : t("The payments of the game (V13): higher is better.")),
  ]);
}

function Frame({ frame, meta, names, p, starts }) {
  const view = frame.view;
  const log = meta.logs[frame.log] ? meta.logs[frame.log].slice(0, frame.log_size) : [];
  const told = (meta.log_texts && meta.log_texts[frame.log]) || [];
  const last = log.length ? log[log.length - 1] : null;
  const hands = frame.hands || names.map((_, s) => (s === meta.seat ? view.hand : null));
  const chance = p.review && p.review.data ? chanceHere(p, starts) : null;
  let board = meta.game === "vatikanen" ? h(StaticTable, { table: view.table }) : h(KontraktStatic, { view, names });
  if (chance && p.review.shown === p.pos) board = h(BestPlay, { game: meta.game, turn: chance.turn, view, names });
  const atEnd = meta.finished && meta.result && p.pos === meta.positions - 1;
  return h("div", { class: "replay-frame" }, [
    h("p", { class: "last-move", "aria-live": "polite" }, [
      h("span", { class: "muted" }, meta.game === "kontrakt" ? t("Deal {n}", { n: frame.deal + 1 }) + " · " : p.record.deals.length > 1 ? t("game {n}", { n: frame.deal + 1 }) + " · " : ""),
      last && frame.action > 0 ? shownText(told[log.length - 1] || last.type) : t("The cards are dealt."),
    ]),
    chance ? h(TurnPanel, { p, chance, names }) : null,
    atEnd ? h(Result, { meta, names }) : null,
    board,
    h(
      "ul",
      { class: "replay-hands" },
      names.map((name, s) =>
        h("li", { class: view.turn === s ? "turn" : "" }, [
          h("strong", null, name),
          " ",
          h("span", { class: "muted" }, cardCount(view.hand_sizes[s])),
          hands[s] ? h("div", { class: "hand mini-hand", "aria-label": t("{name}'s hand: {cards}", { name, cards: shortCards(hands[s]) }) }, hands[s].map((card) => h(StaticCard, { card }))) : null,
        ]),
      ),
    ),
    h("details", { class: "log", open: true }, [
      h("summary", null, t("Log")),
      h(
        "ol",
        { class: "log-list", start: Math.max(1, log.length - 11) },
        log.slice(-12).map((entry, k, shown) => {
          const n = log.length - shown.length + k;
          return LogLine({ n: n + 1, entry, text: shownText(told[n] || entry.type), current: k === shown.length - 1 });
        }),
      ),
    ]),
  ]);
}
