// A table's pace: its turn clock, how long a player may be away, and whether a bot stands in
// then (docs/protocol.md, "Table options"); the lobby's three presets, and clocks in words,
// in days and hours when they are long (a move a day).

import { t } from "./i18n.js";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** The lobby's presets: fast (a minute a turn), normal (no clock), a move a day (a day a
 * turn, and no bot for an away friend unless the table says so). */
export const PACES = [
  { name: "fast", clock: MINUTE, standIn: true },
  { name: "normal", clock: 0, standIn: true },
  { name: "day", clock: DAY, standIn: false },
];

/** The clocks the lobby offers, in seconds a turn (0: none); up to seven days. */
export const CLOCKS = [0, 30, MINUTE, 2 * MINUTE, 5 * MINUTE, HOUR, DAY, 3 * DAY, 7 * DAY];

export function paceTitle(name) {
  return { fast: t("Fast"), normal: t("Normal"), day: t("A move a day") }[name] || name;
}

export function paceLine(name) {
  return {
    fast: t("A minute a turn: a bot plays a turn not made in time."),
    normal: t("No clock: play at the pace of the table."),
    day: t("A day a turn, for friends who play when they can; no bot stands in for an away friend."),
  }[name];
}

/** The preset a table's clock and stand-ins match, or null. */
export function paceOf(clock, standIn) {
  const found = PACES.find((p) => p.clock === clock && p.standIn === standIn);
  return found ? found.name : null;
}

/** How long a player may be away before a bot stands in: a minute, or a turn's clock when
 * the turns are slow (an hour or more). */
export function graceFor(clock) {
  return clock >= HOUR ? clock : MINUTE;
}

/** A turn clock in words: "30 seconds a turn", "2 minutes a turn", "1 day a turn". */
export function clockText(seconds) {
  if (!seconds) return t("no clock");
  if (seconds < MINUTE) return t("{n} seconds a turn", { n: seconds });
  if (seconds < HOUR) return seconds === MINUTE ? t("1 minute a turn") : t("{n} minutes a turn", { n: Math.round(seconds / MINUTE) });
  if (seconds < DAY) return seconds === HOUR ? t("1 hour a turn") : t("{n} hours a turn", { n: Math.round(seconds / HOUR) });
  return seconds === DAY ? t("1 day a turn") : t("{n} days a turn", { n: Math.round(seconds / DAY) });
}

/** A length of time in words, for the grace: "a minute", "a day", "3 days". */
export function awayText(seconds) {
  if (seconds < HOUR) return seconds === MINUTE ? t("a minute") : t("{n} minutes", { n: Math.max(1, Math.round(seconds / MINUTE)) });
  if (seconds < DAY) return seconds === HOUR ? t("an hour") : t("{n} hours", { n: Math.round(seconds / HOUR) });
  return seconds === DAY ? t("a day") : t("{n} days", { n: Math.round(seconds / DAY) });
}

/** The time left on a clock, as a clock shows it: "0:42", "5:00", "3 h 12 min", "1 d 23 h". */
export function leftText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= DAY) return t("{d} d {h} h", { d: Math.floor(s / DAY), h: Math.floor((s % DAY) / HOUR) });
  if (s >= HOUR) return t("{h} h {m} min", { h: Math.floor(s / HOUR), m: Math.floor((s % HOUR) / MINUTE) });
  return `${Math.floor(s / MINUTE)}:${String(s % MINUTE).padStart(2, "0")}`;
}
