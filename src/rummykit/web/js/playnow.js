// "Play now" in the lobby (docs/protocol.md, "Play now"): choose a game, how many players
// (or any), a pace and whether bots may fill the table after a wait; the server pairs
// waiting players by rating. The page asks after its seek every 1.5 s (a closed page's seek
// is gone within 12 s) and gives it up as it goes; once matched, the seat is kept as a
// joined one is, and the table opens.

import { h } from "../vendor/preact/preact.module.js";
import { account } from "./account.js";
import { api, keepSeat, save } from "./api.js";
import { t } from "./i18n.js";
import { paceTitle } from "./pace.js";
import { specOf } from "./spec.js";
import { rerender, settings } from "./store.js";
import { gameTitle } from "./words.js";

const GAMES = ["vatikanen", "kontrakt"];
const WAITS = [null, 15, 30, 60];

export const seeking = { game: "vatikanen", players: 2, pace: "fast", botsAfter: 30, seek: null, since: 0, error: null, timer: null };

function apiPath(path) {
  return new URL(path, document.baseURI).href;
}

/** Give the seek up (as the page goes: a beacon, which outlives the page). */
export function giveUp(beacon) {
  const s = seeking.seek;
  if (!s) return;
  seeking.seek = null;
  clearTimeout(seeking.timer);
  const body = JSON.stringify({ secret: s.secret });
  if (beacon && navigator.sendBeacon) {
    navigator.sendBeacon(apiPath(`api/seeks/${encodeURIComponent(s.id)}/cancel`), new Blob([body], { type: "application/json" }));
  } else {
    api("POST", `api/seeks/${encodeURIComponent(s.id)}/cancel`, { secret: s.secret }).catch(() => {});
  }
}

window.addEventListener("pagehide", () => giveUp(true));

async function look() {
  const s = seeking.seek;
  if (!s) return;
  try {
    const answer = await api("POST", `api/seeks/${encodeURIComponent(s.id)}/look`, { secret: s.secret });
    if (seeking.seek !== s) return;
    if (answer.state === "matched") {
      seeking.seek = null;
      keepSeat(answer.table, { seat: answer.seat, token: answer.token, name: s.name });
      location.hash = `#/t/${answer.table}`;
      return;
    }
    if (answer.state !== "waiting") {
      seeking.seek = null;
      seeking.error = t("The search was given up.");
    }
  } catch (err) {
    if (err.code === "not_found") {
      seeking.seek = null;
      seeking.error = t("The search was given up.");
    }
  }
  rerender();
  if (seeking.seek === s) seeking.timer = setTimeout(look, s.every * 1000);
}

async function start(name) {
  seeking.error = null;
  const body = {
    game: seeking.game,
    players: seeking.players === "any" ? null : Number(seeking.players),
    pace: seeking.pace,
    bots_after: seeking.botsAfter === null ? null : Number(seeking.botsAfter),
    name,
  };
  try {
    const made = await api("POST", "api/seeks", body);
    seeking.seek = { ...made, name: account.me ? account.me.name : name };
    seeking.since = Date.now();
    seeking.timer = setTimeout(look, made.every * 1000);
  } catch (err) {
    seeking.error = err.code === "rate_limited" ? t("Too many searches at once: wait a moment.") : err.message;
  }
  rerender();
}

export function PlayNow() {
  const spec = specOf(seeking.game);
  const counts = [];
  if (spec) for (let n = spec.min_players; n <= spec.max_players; n++) counts.push(n);
  if (seeking.seek) {
    const waited = Math.floor((Date.now() - seeking.since) / 1000);
    return h("section", { class: "card-panel play-now", "aria-label": t("Play now") }, [
      h("h2", null, t("Play now")),
      h("p", { class: "seeking", role: "status" }, t("Looking for players for {game}… ({seconds} s)", { game: gameTitle(seeking.game), seconds: waited })),
      seeking.botsAfter !== null ? h("p", { class: "muted small" }, t("Bots fill the empty seats after {seconds} s.", { seconds: seeking.botsAfter })) : null,
      h("button", { type: "button", class: "cancel-seek", onClick: () => { giveUp(false); rerender(); } }, t("Cancel")),
    ]);
  }
  const submit = (event) => {
    event.preventDefault();
    const name = account.me ? account.me.name : (settings.name || "").trim();
    if (!name) {
      seeking.error = t("Write your name first.");
      rerender();
      return;
    }
    save("name", name);
    start(name);
  };
  return h("section", { class: "card-panel play-now", "aria-label": t("Play now") }, [
    h("h2", null, t("Play now")),
    h("p", { class: "muted small" }, account.me ? t("You are paired by your rating; a game between accounts is rated.") : t("Play a stranger at once. As a guest the game is not rated.")),
    h("form", { onSubmit: submit }, [
      h("div", { class: "seek-games" }, GAMES.map((g) =>
        h("label", { class: "game-choice" + (g === seeking.game ? " on" : "") }, [
          h("input", { type: "radio", name: "seek-game", value: g, checked: g === seeking.game, onChange: () => { seeking.game = g; seeking.players = 2; rerender(); } }),
          h("span", { class: "game-name" }, gameTitle(g)),
        ]),
      )),
      account.me
        ? null
        : h("label", null, [t("Your name"), h("input", { name: "seek-name", value: settings.name || "", maxLength: 40, autocomplete: "nickname", onInput: (e) => { settings.name = e.target.value; } })]),
      h("label", null, [
        t("Players"),
        h("select", { name: "seek-players", value: String(seeking.players), onChange: (e) => { seeking.players = e.target.value; rerender(); } }, [
          ...counts.map((n) => h("option", { value: String(n) }, String(n))),
          h("option", { value: "any" }, t("any")),
        ]),
      ]),
      h("label", null, [
        t("Pace"),
        h("select", { name: "seek-pace", value: seeking.pace, onChange: (e) => { seeking.pace = e.target.value; } }, ["fast", "normal", "day"].map((p) => h("option", { value: p }, paceTitle(p)))),
      ]),
      h("label", null, [
        t("Bots fill the table"),
        h("select", { name: "seek-bots", value: String(seeking.botsAfter), onChange: (e) => { seeking.botsAfter = e.target.value === "null" ? null : Number(e.target.value); } }, WAITS.map((w) => h("option", { value: String(w) }, w === null ? t("never: wait for people") : t("after {seconds} s", { seconds: w })))),
      ]),
      seeking.error ? h("p", { class: "error", role: "alert" }, seeking.error) : null,
      h("button", { type: "submit", class: "primary play-now-go" }, t("Play now")),
    ]),
  ]);
}
