// The tutorial (#/learn, #/learn/LESSON; docs/tutorial.md): each game's lessons in order,
// each one rule played in a scripted position with the table's own board (tap or drag, the
// same buttons as a game). Every move goes to the server, whose engine judges it: a move
// the rules forbid is told with its rule; a legal one that misses the point sets the
// lesson up again; the lesson done leads to the next, and the last to a game against bots.

import { h } from "../vendor/preact/preact.module.js";
import { account } from "./account.js";
import { api, keepSeat, load, save } from "./api.js";
import { setDropHandler } from "./drag.js";
import { language, t } from "./i18n.js";
import { KontraktBoard, forgetStaged } from "./kontrakt.js";
import { rerender, settings } from "./store.js";
import { HandOrder } from "./ui.js";
import { VatikanenBoard, forgetDraft } from "./vatikanen.js";
import { gameTitle, shownSentence } from "./words.js";

const GAMES = ["vatikanen", "kontrakt"];
const DONE_KEY = "lessonsDone";

const p = { lists: {}, lesson: null, moves: [], state: null, verdict: null, error: null, notice: null, pending: false, ui: {}, order: null, drop: null };

const onDrop = (payload, target, index) => location.hash.startsWith("#/learn/") && p.drop && p.drop(payload, target, index);

/** A new board for the lesson: what the board kept in the browser for it is forgotten. */
function freshUi(lessonId) {
  forgetDraft("lesson-" + lessonId, 0);
  forgetStaged("lesson-" + lessonId, 0);
  return {};
}

function doneIds() {
  const kept = load(DONE_KEY, []);
  return Array.isArray(kept) ? kept : [];
}

export async function enterLearn() {
  setDropHandler(onDrop); // a table's page set its own: drops here are the lesson's
  Object.assign(p, { lesson: null, moves: [], state: null, verdict: null, error: null, notice: null, pending: false, ui: {} });
  rerender();
  try {
    for (const game of GAMES) p.lists[game] = (await api("GET", `api/lessons?game=${game}&lang=${language()}`)).lessons;
  } catch (err) {
    p.error = { message: err.message };
  }
  rerender();
}

async function attempt(lessonId, moves) {
  const out = await api("POST", `api/lessons/${encodeURIComponent(lessonId)}/try`, { moves, lang: language() });
  p.lesson = out.lesson;
  p.order = p.order && p.order.key === `order.lesson.${lessonId}` ? p.order : new HandOrder(`order.lesson.${lessonId}`);
  return out;
}

function listOf(game) {
  return p.lists[game] || [];
}

function nextOf(lesson) {
  const list = listOf(lesson.game);
  const i = list.findIndex((l) => l.id === lesson.id);
  return i >= 0 && i + 1 < list.length ? list[i + 1] : null;
}

/** A board's context, as a table gives one (table.js), backed by the lesson. */
function context() {
  const state = p.state;
  const lessonId = p.lesson.id;
  return {
    id: "lesson-" + lessonId,
    state,
    view: state.view,
    seat: 0,
    names: state.seats.map((s) => (s.seat === 0 ? t("You") : s.name)),
    live: null,
    ui: p.ui,
    order: p.order,
    pending: p.pending,
    myTurn: p.verdict !== "done" && state.view.turn === 0,
    act: async (action) => {
      if (p.pending || p.verdict === "done") return false;
      p.pending = true;
      p.error = null;
      rerender();
      let out;
      try {
        out = await attempt(lessonId, [...p.moves, action]);
      } catch (err) {
        p.pending = false;
        p.error = { message: err.message };
        rerender();
        return false;
      }
      p.pending = false;
      if (out.verdict === "refused") {
        p.error = { rule: out.rule, message: out.message };
        rerender();
        return false;
      }
      p.verdict = out.verdict;
      p.state = out.state;
      p.ui = freshUi(lessonId);
      if (out.verdict === "missed") {
        p.moves = [];
        p.error = { message: out.message };
      } else {
        p.moves = [...p.moves, action];
        p.notice = out.message;
        if (out.verdict === "done") save(DONE_KEY, [...new Set([...doneIds(), lessonId])]);
      }
      rerender();
      return true;
    },
    request: async (message) => {
      try {
        return await api("POST", `api/lessons/${encodeURIComponent(lessonId)}/help`, { moves: p.moves, request: message, lang: language() });
      } catch (err) {
        return { type: "error", code: err.code || "offline", rule: null, message: err.message };
      }
    },
    showError: (err) => {
      p.error = err;
      rerender();
    },
    notify: (text) => {
      p.notice = text;
      p.error = null;
      rerender();
    },
    clearError: () => {
      p.error = null;
    },
    setDrop: (fn) => {
      p.drop = fn;
    },
    messages: () => h(Said, null),
  };
}

function Said() {
  if (p.error) {
    return h("div", { class: "error-line", role: "alert" }, [
      p.error.rule ? h("span", { class: "rule" }, p.error.rule) : null,
      h("span", { class: "error-text" }, shownSentence(p.error.message)),
    ]);
  }
  if (p.notice) return h("div", { class: "notice-line", role: "status" }, p.notice);
  return null;
}

async function startLesson(lessonId) {
  const out = await attempt(lessonId, []);
  Object.assign(p, { moves: [], state: out.state, verdict: out.verdict, error: null, notice: out.message, ui: freshUi(lessonId) });
  rerender();
}

/** A first game against the computer, straight from the last lesson. */
async function playBots(game) {
  // as "Play now" names the player; a guest with no name set is "Guest" ("You" read "You (you)" at the table)
  const name = (account.me && account.me.name) || settings.name || t("Guest");
  try {
    const table = await api("POST", "api/tables", { game, seats: ["human", game === "vatikanen" ? "bot:greedy" : "bot:basic"] });
    const joined = await api("POST", `api/tables/${encodeURIComponent(table.id)}/join`, { name, seat: 0 });
    keepSeat(table.id, { seat: joined.seat, token: joined.token, name });
    location.hash = `#/t/${table.id}`;
  } catch (err) {
    p.error = { message: err.message };
    rerender();
  }
}

function Lessons() {
  const done = new Set(doneIds());
  return h("main", { class: "page learn" }, [
    h("h1", null, t("Learn to play")),
    h("p", null, t("Short lessons, one rule each: you make the move, the game's own rules judge it.")),
    p.error ? h(Said, null) : null,
    GAMES.map((game) =>
      h("section", { class: "card-panel" }, [
        h("h2", null, gameTitle(game)),
        h(
          "ol",
          { class: "lesson-list" },
          listOf(game).map((l) =>
            h("li", null, [
              h("a", { href: `#/learn/${l.id}` }, l.title),
              " ",
              h("span", { class: "muted small" }, l.rules.join(", ")),
              done.has(l.id) ? h("span", { class: "lesson-done", "aria-label": t("done") }, " ✓") : null,
            ]),
          ),
        ),
      ]),
    ),
  ]);
}

export function LearnPage() {
  if (!p.lesson) return h(Lessons, null);
  if (!p.state) return h("main", { class: "page learn" }, h("p", null, t("Loading…")));
  const lesson = p.lesson;
  const ctx = context();
  const next = nextOf(lesson);
  return h("main", { class: `page table-page learn-lesson game-${lesson.game}` }, [
    h("div", { class: "lesson-head" }, [
      h("p", { class: "muted small" }, h("a", { href: "#/learn" }, t("All lessons"))),
      h("h1", null, [lesson.title, " ", h("span", { class: "rule" }, lesson.rules.join(", "))]),
      h("p", { class: "teach" }, lesson.teach),
      h("p", { class: "task" }, h("strong", null, lesson.task)),
    ]),
    lesson.game === "vatikanen" ? h(VatikanenBoard, { ctx }) : h(KontraktBoard, { ctx }),
    p.verdict === "done"
      ? h("div", { class: "lesson-next buttons" }, [
          next
            ? h("a", { class: "button primary", href: `#/learn/${next.id}` }, t("Next lesson: {title}", { title: next.title }))
            : h("button", { type: "button", class: "primary", onClick: () => playBots(lesson.game) }, t("Play a game against the computer")),
          h("button", { type: "button", onClick: () => startLesson(lesson.id) }, t("Again")),
        ])
      : h("p", { class: "buttons" }, h("button", { type: "button", onClick: () => startLesson(lesson.id) }, t("Start the lesson again"))),
  ]);
}

/** The language changed: the lessons' words (the server's) are asked for again in it; a
 * lesson under way keeps its moves and its board. */
export async function relanguageLearn() {
  try {
    for (const game of GAMES) p.lists[game] = (await api("GET", `api/lessons?game=${game}&lang=${language()}`)).lessons;
    if (p.lesson) {
      const out = await attempt(p.lesson.id, p.moves);
      if (out.verdict === "going" || out.verdict === "done") Object.assign(p, { state: out.state, notice: out.message, error: null });
    }
  } catch (err) {
    p.error = { message: err.message };
  }
  rerender();
}

export async function enterLesson(lessonId) {
  await enterLearn();
  try {
    await startLesson(lessonId);
  } catch (err) {
    p.error = { message: err.code === "not_found" ? t("No such lesson.") : err.message };
    rerender();
  }
}
