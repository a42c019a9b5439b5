// A table's page (#/t/ID): joining a seat, the waiting room with the invite link, the
// players, the game's board, the log, the chat, errors, keyboard play, the game's end and
// "Play again"; the player told when their turn comes while the page is hidden.

import { h } from "../vendor/preact/preact.module.js";
import { useEffect, useRef, useState } from "../vendor/preact/hooks.module.js";
import { account } from "./account.js";
import { AlertSwitches, mustAct, seeTurn, setBaseTitle } from "./alerts.js";
import { api, keepSeat, save, seatOf } from "./api.js";
import { ChatButton, ChatPanel, chatReceived, chatSeen, newChat } from "./chat.js";
import { CommandError, readCommand } from "./commands.js";
import { setDropHandler } from "./drag.js";
import { t } from "./i18n.js";
import { DealEnd, KontraktBoard, kontraktStanding } from "./kontrakt.js";
import { NoConnection } from "./install.js";
import { Live } from "./live.js";
import { SeatLinkDialog } from "./mytables.js";
import { clockText, leftText } from "./pace.js";
import { botTitle, specOf } from "./spec.js";
import { gameTitle, shownSentence, shownText } from "./words.js";
import { rerender, settings } from "./store.js";
import { HandOrder, LogLine, Modal, StaticCard, cardCount } from "./ui.js";
import { VatikanenBoard, vatikanenStanding } from "./vatikanen.js";

let page = null; // the table being shown: see enter()

/** Open the page of table ``id`` (``moved``: its seat came by a seat's link just now). */
export function enterTable(id, watch, moved) {
  if (page && page.id === id && page.watchOnly === !!watch) return;
  leaveTable();
  page = {
    id,
    summary: null,
    missing: false,
    offline: false,
    moved: !!moved,
    chat: newChat(id),
    showSeatLink: false,
    live: null,
    mine: watch ? null : seatOf(id),
    watchOnly: !!watch,
    watching: false,
    error: null,
    notice: null,
    pending: false,
    ui: {},
    order: null,
    overClosed: null,
    showHelp: false,
    clockTimer: null,
    drop: null,
  };
  setDropHandler((payload, target, index) => page && page.drop && page.drop(payload, target, index));
  loadSummary();
}

/** The table's latest state (tests and the console read it; it is the player's own view). */
export function tableState() {
  return page && page.live ? page.live.state : null;
}

export function leaveTable() {
  if (!page) return;
  if (page.live) page.live.close();
  clearInterval(page.clockTimer);
  clearInterval(page.poll);
  clearTimeout(page.retry);
  page = null;
}

async function loadSummary() {
  const p = page;
  try {
    p.summary = await api("GET", `api/tables/${encodeURIComponent(p.id)}`);
  } catch (err) {
    if (page !== p) return;
    if (err.status === 404) p.missing = true;
    else if (err.status === 0) {
      // no connection: say so, and try again when the browser is back online (or soon)
      p.offline = true;
      const again = () => {
        window.removeEventListener("online", again);
        clearTimeout(p.retry);
        if (page === p && !p.summary) loadSummary();
      };
      window.addEventListener("online", again);
      p.retry = setTimeout(again, 5000);
    } else p.error = { message: t("The server cannot be reached: {why}", { why: err.message }) };
    rerender();
    return;
  }
  if (page !== p) return;
  p.offline = false;
  if (p.mine && !p.mine.name) {
    // a seat that came by its link: its name is the table's
    const held = p.summary.seats.find((s) => s.seat === p.mine.seat);
    if (held && held.name) {
      p.mine = { ...p.mine, name: held.name };
      keepSeat(p.id, p.mine);
    }
  }
  if (p.mine || p.watchOnly || p.summary.status !== "waiting" || !freeSeats(p.summary).length) connect(p, p.mine);
  else {
    // a visitor of a waiting table picks a name and a seat first; keep the seats fresh
    p.poll = setInterval(async () => {
      if (page !== p || p.live) return clearInterval(p.poll);
      try {
        p.summary = await api("GET", `api/tables/${encodeURIComponent(p.id)}`);
        rerender();
      } catch (err) {
        // try again at the next beat
      }
    }, 3000);
  }
  rerender();
}

function freeSeats(summary) {
  return summary.seats.filter((s) => s.kind === "human" && !s.taken).map((s) => s.seat);
}

function connect(p, mine) {
  clearInterval(p.poll);
  p.watching = !mine;
  p.live = new Live(p.id, mine ? mine.token : null, (what, message) => changed(p, what, message));
  p.clockTimer = setInterval(() => {
    if (page === p && p.live && p.live.state && p.live.state.clock) rerender();
  }, 1000);
}

function changed(p, what, message) {
  if (page !== p) return;
  const live = p.live;
  if (what === "chat" || what === "chat_history") {
    chatReceived(p.chat, message);
    rerender();
    return;
  }
  if (what === "state" || what === "same") {
    const state = live.state;
    const before = p.seen;
    p.seen = state;
    if (before && before.status === "over" && state.games_played > before.games_played && p.overClosed !== before.version && !p.askedNext && state.seat !== null) {
      // someone else began the next game while this player still read the last one's end:
      // it stays on the page until they leave it
      p.lastOver = before;
    }
    p.askedNext = false;
    p.stateAt = Date.now(); // the clock's "remaining" is counted from here
    if (what === "state") p.pending = false;
    if (state.seat !== null && !p.order) p.order = new HandOrder(`order.${p.id}.${state.seat}`);
    if (p.summary) p.summary = { ...p.summary, status: state.status, seats: state.seats, version: state.version };
    if (what === "state" && p.error && p.error.code !== "offline") p.error = null;
    seeTurn("table:" + p.id, mustAct(state), {
      title: t("Your turn: {game}", { game: gameTitle(p.summary ? p.summary.game : "") }),
      body: t("It is your turn at the table with {names}.", {
        names: state.seats.filter((s) => s.seat !== state.seat).map((s) => s.name || t("free")).join(", "),
      }),
      url: location.href,
    });
  } else if (what === "error") {
    p.error = message;
  } else if (what === "lost") {
    p.notice = DOUBT();
    p.error = null;
  }
  if (live.status === "open" && p.error && p.error.code === "offline") p.error = null;
  if (live.fatal && live.fatal.code === "unauthorized") {
    // the seat's token is no longer good here (a wiped server): forget it, watch instead
    keepSeat(p.id, null);
    p.mine = null;
    live.close();
    p.live = null;
    p.error = { message: t("This browser's seat at the table is not known to the server any more; you are watching.") };
    connect(p, null);
  }
  rerender();
}

// ------------------------------------------------------------------ what a board is given

function context(p) {
  const live = p.live;
  const state = live.state;
  const view = state.view;
  const seat = state.seat;
  const names = state.seats.map((s) => s.name || t("seat {n}", { n: s.seat + 1 }));
  const ctx = {
    id: p.id,
    state,
    view,
    seat,
    names,
    live,
    ui: p.ui,
    order: p.order,
    pending: p.pending,
    myTurn: state.status === "playing" && seat !== null && view && view.turn === seat,
    act: async (action) => {
      if (p.pending) return false;
      if (live.status !== "open") {
        showError(p, { code: "offline" }); // refused here: nothing is sent, nothing queued
        rerender();
        return false;
      }
      p.pending = true;
      p.error = null;
      rerender();
      const answer = await live.act(action);
      p.pending = false;
      if (p.notice === DOUBT()) p.notice = null;
      if (answer.type === "error") {
        showError(p, answer);
        rerender();
        return false;
      }
      if (answer.late) p.notice = t("The connection was lost as your move was sent; it did arrive.");
      rerender();
      return true;
    },
    request: (message) => live.request(message),
    showError: (err) => {
      showError(p, err);
      rerender();
    },
    notify: (text) => {
      p.notice = text;
      p.error = null;
      clearTimeout(p.noticeTimer);
      p.noticeTimer = setTimeout(() => {
        if (p.notice === text) {
          p.notice = null;
          rerender();
        }
      }, 4000);
      rerender();
    },
    clearError: () => {
      p.error = null;
    },
    setDrop: (fn) => {
      p.drop = fn;
    },
    messages: () => h(ErrorLine, { p }),
  };
  return ctx;
}

/** What the page says while an action's connection is lost and its answer unknown. */
const DOUBT = () => t("The connection was lost as your move was sent: waiting to learn whether it arrived…");

function showError(p, err) {
  if (err.code === "offline") {
    p.error = { code: "offline", message: t("Not connected: nothing was sent. Make your move again once the connection is back.") };
  } else if (err.code === "lost") {
    p.error = { message: t("The connection was lost before your move reached the server: nothing was played. Make it again.") };
  } else if (err.code === "stale") {
    p.error = { message: t("The table changed meanwhile: here it is as it is now.") };
  } else if (err.code === "not_your_turn") {
    p.error = { message: t("It is not your turn.") };
  } else {
    p.error = err;
  }
}

// ------------------------------------------------------------------ the page

/** The tab's title at a table: the game and who sits there, so that two tables in two tabs
 * can be told apart ("Vatikanen: Anna, Bo · rummykit"). */
function tableTitle(game, state) {
  const names = state.seats.map((s) => s.name || (s.kind === "bot" ? t("bot") : t("Seat {n}", { n: s.seat + 1 })));
  return t("{game}: {names} · rummykit", { game: gameTitle(game), names: names.join(", ") });
}

export function TablePage() {
  const p = page;
  if (!p) return null;
  if (p.missing) {
    return h("main", { class: "page narrow" }, [
      h("h1", null, t("No such table")),
      h("p", null, t("The link may be mistyped, or the server was started afresh.")),
      h("p", null, h("a", { href: "#/" }, t("Back to the lobby"))),
    ]);
  }
  if (!p.summary && p.offline) return h("main", { class: "page narrow" }, [h(NoConnection), h("p", null, h("a", { href: "#/" }, t("Back to the lobby")))]);
  if (!p.summary) return h("main", { class: "page narrow" }, [ErrorLine({ p }), h("p", { class: "muted" }, t("Loading…"))]);
  if (!p.live) return h(JoinForm, { p });
  const state = p.live.state;
  if (!state) {
    return h("main", { class: "page narrow" }, [
      ConnectionBadge({ live: p.live }),
      p.live.fatal ? h("p", { class: "error" }, fatalText(p.live.fatal)) : h("p", { class: "muted" }, t("Connecting…")),
      h("p", null, h("a", { href: "#/" }, t("Back to the lobby"))),
    ]);
  }
  const ctx = context(p);
  const game = p.summary.game;
  // the tab names the table (its game and its players): two tables in two tabs differ
  chatSeen(p.chat);
  setBaseTitle(tableTitle(game, state));
  return h("main", { class: `page table-page game-${game}` + (state.seat === null ? " spectating" : "") }, [
    h("div", { class: "table-head" }, [
      h("h1", null, [gameTitle(game), state.games_played > 1 ? h("span", { class: "muted" }, " · " + t("game {n}", { n: state.games_played })) : null]),
      ConnectionBadge({ live: p.live }),
      h("span", { class: "head-tools" }, [h(ChatButton, { chat: p.chat, seat: state.seat }), h(InviteButton, { p, head: true })]),
    ]),
    state.seat === null ? h("p", { class: "banner" }, t("You are watching this table.")) : null,
    p.moved && state.seat !== null ? h("p", { class: "banner moved", role: "status" }, t("This device now holds your seat at this table. Keep the link to yourself.")) : null,
    h(Players, { ctx, summary: p.summary }),
    state.status === "over" && p.overClosed === state.version ? h(OverBar, { ctx, p }) : null,
    state.status === "waiting" ? h(WaitingRoom, { p, ctx }) : null,
    ctx.view ? (game === "vatikanen" ? h(VatikanenBoard, { ctx }) : h(KontraktBoard, { ctx })) : null,
    ctx.view && ctx.seat !== null ? null : h(ErrorLine, { p }), // a seated player's is in the dock
    ctx.seat !== null && state.status !== "waiting" ? h(CommandLine, { ctx, p }) : null,
    h("div", { class: "side" }, [h(ChatPanel, { chat: p.chat, live: p.live, seat: state.seat }), ctx.view ? h(LogPanel, { ctx }) : null, h(SeatTools, { p, state }), h(EarlierGames, { p, state })]),
    state.status === "over" && p.overClosed !== state.version ? h(GameOver, { ctx, p }) : null,
    p.lastOver ? h(GameOver, { ctx: { ...ctx, state: p.lastOver, view: p.lastOver.view }, p, past: true }) : null,
    p.showHelp ? h(HelpDialog, { p, game }) : null,
    p.showSeatLink && p.mine ? h(SeatLinkDialog, { id: p.id, held: p.mine, onClose: () => { p.showSeatLink = false; rerender(); } }) : null,
  ]);
}

function fatalText(fatal) {
  if (fatal.code === "not_found" || fatal.code === "4404") return t("No such table.");
  if (fatal.code === "unauthorized" || fatal.code === "4401") return t("This seat's secret is not known at this table.");
  if (fatal.code === "4403") return t("This page may not connect to the server from another site.");
  return fatal.message || t("The server closed the connection.");
}

function ConnectionBadge({ live }) {
  const status = live.status;
  const text = {
    connecting: t("Connecting…"),
    open: t("Connected"),
    reconnecting: t("Connection lost: reconnecting…"),
    closed: t("Disconnected"),
  }[status];
  return h("span", { class: `conn conn-${status}`, role: "status", "aria-live": "polite", "data-status": status }, [
    h("span", { class: "dot", "aria-hidden": "true" }),
    text,
  ]);
}

function ErrorLine({ p }) {
  if (p.error) {
    const err = p.error;
    return h("div", { class: "error-line", role: "alert" }, [
      err.rule ? h("span", { class: "rule" }, err.rule) : null,
      h("span", { class: "error-text" }, err.message ? shownSentence(err.message) : err.code),
      h("button", { type: "button", class: "close", "aria-label": t("Dismiss"), onClick: () => { p.error = null; rerender(); } }, "×"),
    ]);
  }
  if (p.notice) return h("div", { class: "notice-line", role: "status" }, p.notice);
  return null;
}

function inviteLink(id) {
  const url = new URL(document.baseURI);
  url.hash = `#/t/${id}`;
  return url.href;
}

/** The table's pace, and the player's own: told of their turn, their seat on another device. */
function SeatTools({ p, state }) {
  const seated = state.seat !== null && p.mine;
  if (!seated && !p.summary.clock) return null;
  return h("div", { class: "seat-tools" }, [
    p.summary.clock ? h("span", { class: "muted small pace-line" }, clockText(p.summary.clock)) : null,
    seated ? h(AlertSwitches, null) : null,
    seated ? h("button", { type: "button", class: "chip seat-link-button", onClick: () => { p.showSeatLink = true; rerender(); } }, t("Other device")) : null,
  ]);
}

function InviteButton({ p, head }) {
  const [copied, setCopied] = useState(false);
  const link = inviteLink(p.id);
  const copy = async () => {
    try {
      if (navigator.share && matchMedia("(pointer: coarse)").matches) {
        await navigator.share({ title: t("Come and play {game} at my table", { game: gameTitle(p.summary.game) }), url: link });
        return;
      }
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (err) {
      window.prompt(t("Copy this link and send it to your friends:"), link);
    }
  };
  return h("button", { type: "button", class: "chip invite" + (head ? " head-invite" : ""), onClick: copy, title: link }, copied ? t("Link copied") : t("Invite link"));
}

function WaitingRoom({ p }) {
  const link = inviteLink(p.id);
  const free = freeSeats(p.summary).length;
  return h("section", { class: "waiting", "aria-label": t("Waiting for players") }, [
    h("h2", null, t("Waiting for players")),
    h("p", null, free === 1 ? t("One seat is free. Send this link to a friend:") : t("{n} seats are free. Send this link to your friends:", { n: free })),
    h("div", { class: "invite-row" }, [
      h("input", { class: "invite-link", readOnly: true, value: link, "aria-label": t("Invite link"), onFocus: (e) => e.target.select() }),
      h(InviteButton, { p }),
    ]),
    h("p", { class: "muted" }, t("The game starts when every seat is taken. A friend who opens the link picks a name and a free seat.")),
  ]);
}

function JoinForm({ p }) {
  const summary = p.summary;
  const free = freeSeats(summary);
  const [name, setName] = useState(settings.name || "");
  const [seat, setSeat] = useState(free.length ? free[0] : null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(null);
  const join = async (event) => {
    event.preventDefault();
    if (!name.trim()) {
      setProblem(t("Write your name first."));
      return;
    }
    setBusy(true);
    try {
      const answer = await api("POST", `api/tables/${encodeURIComponent(p.id)}/join`, { name: name.trim(), seat });
      const mine = { seat: answer.seat, token: answer.token, name: name.trim() };
      keepSeat(p.id, mine);
      settings.name = name.trim();
      save("name", settings.name);
      p.mine = mine;
      connect(p, mine);
      rerender();
    } catch (err) {
      setBusy(false);
      if (err.code === "no_free_seat") {
        setProblem(t("That seat was just taken: pick another."));
        loadSummaryAgain(p);
      } else if (err.code === "name_taken") {
        setProblem(t("Someone at this table is already called {name}: pick another name.", { name: name.trim() }));
      } else if (err.code === "not_signed_in") {
        setProblem(t("This table is rated: sign in (or make an account) to take a seat."));
      } else setProblem(err.message);
    }
  };
  return h("main", { class: "page narrow" }, [
    h("h1", null, t("Join a table of {game}", { game: gameTitle(summary.game) })),
    h("ul", { class: "seat-list" }, summary.seats.map((s) => h("li", null, seatText(s, specOf(summary.game))))),
    free.length
      ? h("form", { class: "join", onSubmit: join }, [
          h("label", null, [t("Your name"), h("input", { name: "name", value: name, maxLength: 40, autocomplete: "nickname", required: true, onInput: (e) => setName(e.target.value) })]),
          h("fieldset", { class: "seats" }, [
            h("legend", null, t("Your seat")),
            free.map((s) =>
              h("label", { class: "radio" }, [
                h("input", { type: "radio", name: "seat", value: s, checked: seat === s, onChange: () => setSeat(s) }),
                t("Seat {n}", { n: s + 1 }),
              ]),
            ),
          ]),
          problem ? h("p", { class: "error", role: "alert" }, problem) : null,
          h("div", { class: "buttons" }, [
            h("button", { type: "submit", class: "primary", disabled: busy }, t("Take the seat")),
            h("button", { type: "button", onClick: () => { connect(p, null); rerender(); } }, t("Just watch")),
          ]),
        ])
      : h("p", null, [t("Every seat is taken."), " ", h("button", { type: "button", onClick: () => { connect(p, null); rerender(); } }, t("Watch"))]),
  ]);
}

async function loadSummaryAgain(p) {
  try {
    p.summary = await api("GET", `api/tables/${encodeURIComponent(p.id)}`);
  } catch (err) {
    return;
  }
  rerender();
}

export function seatText(s, spec) {
  if (s.kind === "bot") return t("Seat {n}: {name} (bot, {level})", { n: s.seat + 1, name: s.name, level: botTitle(spec, s.level) });
  if (!s.taken) return t("Seat {n}: free", { n: s.seat + 1 });
  return t("Seat {n}: {name}", { n: s.seat + 1, name: s.name });
}

// ------------------------------------------------------------------ the players

function clockLeft(p, state) {
  if (!state.clock) return null;
  const at = p.stateAt || Date.now();
  return Math.max(0, Math.ceil(state.clock.remaining - (Date.now() - at) / 1000));
}

function Players({ ctx, summary }) {
  const { state, view } = ctx;
  const game = summary.game;
  const left = clockLeft(page, state);
  const stale = ctx.live.status !== "open"; // who is connected is not known meanwhile
  return h(
    "ul",
    { class: "players" + (stale ? " stale" : ""), "aria-label": t("Players"), title: stale ? t("Not connected: who is at the table is not known meanwhile.") : undefined },
    state.seats.map((s) => {
      const turn = view && (view.turn === s.seat || (view.phase === "upcard_offer" && view.offer_to === s.seat));
      const badges = [];
      if (s.kind === "bot") badges.push(h("span", { class: "badge bot", title: botTitle(specOf(game), s.level) }, t("bot")));
      else if (!s.taken) badges.push(h("span", { class: "badge free" }, t("free seat")));
      else if (s.stand_in && state.status !== "over") badges.push(h("span", { class: "badge stand-in" }, t("away: a bot plays for now")));
      else if (!s.connected) badges.push(h("span", { class: "badge away" }, t("away")));
      const standing = view ? (game === "vatikanen" ? vatikanenStanding(view, s.seat) : kontraktStanding(view, s.seat)) : null;
      const label = [
        s.name || t("Seat {n}", { n: s.seat + 1 }),
        s.seat === ctx.seat ? t("(you)") : "",
        view ? cardCount(view.hand_sizes[s.seat]) : "",
        turn ? t("to play") : "",
      ].filter(Boolean).join(", ");
      return h("li", { class: "player" + (turn ? " turn" : "") + (s.seat === ctx.seat ? " me" : ""), "aria-label": label, "data-seat": s.seat }, [
        h("span", { class: "name" }, [
          s.kind === "human" && s.taken ? h("span", { class: "dot " + (s.connected ? "on" : "off"), "aria-hidden": "true" }) : null,
          s.name || t("Seat {n}", { n: s.seat + 1 }), // a free seat: its badge says so
          s.seat === ctx.seat ? h("span", { class: "you" }, " " + t("(you)")) : null,
        ]),
        view ? h("span", { class: "count", title: t("cards in hand") }, cardCount(view.hand_sizes[s.seat])) : null,
        standing,
        badges,
        turn && left !== null && state.clock.seat === s.seat
          ? h("span", { class: "clock" + (left <= 10 ? " low" : ""), role: "timer", title: t("until {when}", { when: new Date(state.clock.deadline * 1000).toLocaleString() }) }, leftText(left))
          : null,
      ]);
    }),
  );
}

// ------------------------------------------------------------------ the log

function LogPanel({ ctx }) {
  const list = useRef(null);
  const log = ctx.view.log;
  const told = ctx.state.log_text || [];
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [log.length]);
  const shown = log.slice(-200);
  return h("details", { class: "log", open: matchMedia("(min-width: 900px)").matches || undefined }, [
    h("summary", null, t("Log")),
    h(
      "ol",
      { class: "log-list", ref: list, "aria-live": "polite", start: log.length - shown.length + 1 },
      shown.map((entry, k) => {
        const n = log.length - shown.length + k;
        return LogLine({ n: n + 1, entry, text: shownText(told[n] === undefined ? entry.type : told[n]) });
      }),
    ),
  ]);
}

// ------------------------------------------------------------------ keyboard play

function CommandLine({ ctx, p }) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState(null);
  const game = p.summary.game;
  const run = async (event) => {
    event.preventDefault();
    let command;
    try {
      command = await readCommand(text, game);
    } catch (err) {
      if (err instanceof CommandError) {
        setProblem(err.message);
        return;
      }
      throw err;
    }
    setProblem(null);
    if (command.ui === "help") {
      p.showHelp = true;
      setText("");
      rerender();
      return;
    }
    if (command.ui === "quit") {
      location.hash = "#/"; // the seat is kept: the lobby leads back to it
      return;
    }
    if (command.ui === "next") {
      setText("");
      await nextGame(ctx);
      return;
    }
    if (command.action) {
      const ok = await ctx.act(command.action);
      if (ok) setText("");
      return;
    }
    const handled = ctx.ui.command ? await ctx.ui.command(command) : false;
    if (handled !== false) setText("");
  };
  return h("form", { class: "command", onSubmit: run }, [
    h("label", { class: "visually-hidden", for: "command" }, t("Type a command")),
    h("input", {
      id: "command",
      value: text,
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: false,
      placeholder: game === "vatikanen" ? t("Type a command: play 7h 8h 9h, draw, hint, help") : t("Type a command: draw, meld 7h 7d 7s, discard Qs, help"),
      onInput: (e) => setText(e.target.value),
    }),
    h("button", { type: "submit" }, t("Do it")),
    h("button", { type: "button", class: "chip", onClick: () => { p.showHelp = true; rerender(); }, "aria-label": t("Commands") }, "?"),
    problem ? h("p", { class: "error", role: "alert" }, problem) : null,
  ]);
}

function HelpDialog({ p, game }) {
  const close = () => {
    p.showHelp = false;
    rerender();
  };
  return h(Modal, { title: t("Commands"), onClose: close }, [
    h("p", null, t("Cards are written as in the terminal: rank A 2-9 T J Q K, then suit c d h s; a joker is *.")),
    h("table", { class: "help-table" }, h("tbody", null, ((specOf(game) || {}).commands || []).map((c) => h("tr", null, [h("td", null, h("code", null, c.example)), h("td", null, c.what)])))),
  ]);
}

// ------------------------------------------------------------------ the end

async function nextGame(ctx) {
  if (ctx.seat === null) return;
  if (page) page.askedNext = true;
  const answer = await ctx.live.next();
  if (answer.type === "error") ctx.showError(answer);
}

/** What a player may do once the game is over: play again, or, at a rated table (one rated
 * game, docs/ratings.md), see their rating on their profile. */
function AgainButton({ ctx, p }) {
  if (ctx.seat === null) return null;
  if (p.summary && p.summary.rated) {
    const me = account.me;
    return me ? h("a", { class: "button primary", href: `#/u/${encodeURIComponent(me.name)}` }, t("Your rating")) : null;
  }
  return h("button", { type: "button", class: "primary", onClick: () => nextGame(ctx) }, t("Play again"));
}

/** The game is over and its dialog closed: what comes next stays on the page. */
function OverBar({ ctx, p }) {
  return h("section", { class: "over-bar", role: "region", "aria-label": t("The game is over") }, [
    h("p", { class: "headline" }, overHeadline(ctx, p.summary.game)),
    h("div", { class: "buttons" }, [
      h(AgainButton, { ctx, p }),
      h("button", { type: "button", onClick: () => { p.overClosed = null; rerender(); } }, t("Scores")),
      h("a", { class: "button", href: gameLink(ctx.id, ctx.state.games_played - 1) }, t("Replay this game")),
      h("a", { class: "button", href: gameLink(ctx.id, ctx.state.games_played - 1, true) }, t("Review this game")),
      h("a", { class: "button", href: "#/" }, t("Back to the lobby")),
    ]),
  ]);
}

function overHeadline(ctx, game) {
  const { view, names } = ctx;
  if (game === "vatikanen") {
    const end = view.end;
    const won = end && end.winners.length ? end.winners.map((s) => names[s]).join(", ") : null;
    // a blocked game (V15) says so and why: nobody went out
    if (end && end.reason === "blocked") return t("The game is blocked: the stock is empty and every player passed in turn (V15). {names} won with the lowest hand.", { names: won });
    if (end && end.reason === "no_winner") return t("The game is blocked: the stock is empty and every player passed in turn. At this table a blocked game has no winner and no payments.");
    return won ? t("{names} won", { names: won }) : t("Nobody won");
  }
  return t("{names} won with the lowest total", { names: (view.winners || []).map((s) => names[s]).join(", ") });
}

/** Every hand as the game ended (Vatikanen's end says only their values): the last
 * position of the game's record, replayed by the server. */
/** The replay (or the review) of the table's finished game ``n`` (from 0). */
function gameLink(id, n, review = false) {
  return `#/r/${encodeURIComponent(id)}/g/${n}` + (review ? "/review" : "");
}

/** The table's finished games before the one on the page (GET /api/tables/ID/games), asked
 * again when a game begins or ends. */
async function loadEarlierGames(p, key) {
  p.earlier = { key, games: p.earlier ? p.earlier.games : [] };
  try {
    const answer = await api("GET", `api/tables/${encodeURIComponent(p.id)}/games`);
    if (page !== p || !p.earlier || p.earlier.key !== key) return;
    p.earlier = { key, games: answer.games.filter((g) => g.status === "over") };
  } catch (err) {
    return; // the list waits for the next change
  }
  rerender();
}

/** The table's earlier games, each with its replay and review. */
function EarlierGames({ p, state }) {
  if (state.games_played < 2) return null;
  const key = `${state.games_played}:${state.status}`;
  if (!p.earlier || p.earlier.key !== key) loadEarlierGames(p, key);
  const shown = p.earlier.games.filter((g) => g.game < state.games_played - 1);
  if (!shown.length) return null;
  return h("section", { class: "earlier-games", "aria-label": t("Earlier games") }, [
    h("h2", null, t("Earlier games")),
    h(
      "ul",
      null,
      shown.map((g) =>
        h("li", { "data-game": g.game }, [
          h("span", null, t("Game {n}", { n: g.game + 1 })),
          h("a", { class: "chip", href: gameLink(p.id, g.game) }, t("Replay")),
          h("a", { class: "chip", href: gameLink(p.id, g.game, true) }, t("Review")),
        ]),
      ),
    ),
  ]);
}

async function loadFinalHands(p, version, n) {
  p.finalHands = { version, hands: null };
  try {
    const record = await api("GET", `api/tables/${encodeURIComponent(p.id)}/games/${n}/record`);
    const positions = record.deals.reduce((n, deal) => n + (deal.actions || []).length + 1, 0);
    const answer = await api("POST", "api/replay", { record, seat: null, start: positions - 1, count: 1 });
    if (page === p && p.finalHands.version === version && answer.frames.length) p.finalHands.hands = answer.frames[0].hands;
  } catch (err) {
    return; // the values alone are shown
  }
  rerender();
}

function points(n) {
  return n === 1 ? t("1 point") : t("{n} points", { n });
}

function GameOver({ ctx, p, past }) {
  const { view, state, names } = ctx;
  const game = p.summary.game;
  const rows = [];
  let winners = view.winners || [];
  let last = null;
  if (game === "vatikanen") {
    const end = view.end;
    winners = end ? end.winners : [];
    // (the end of a game the next one followed: only the hands already fetched for it)
    if (!past && (!p.finalHands || p.finalHands.version !== state.version)) loadFinalHands(p, state.version, state.games_played - 1);
    const hands = p.finalHands && p.finalHands.version === state.version && p.finalHands.hands;
    names.forEach((name, s) => {
      const left = end
        ? h("span", { class: "left-in-hand" }, [
            hands && hands[s] && hands[s].length ? h("span", { class: "mini-cards" }, hands[s].map((card) => h(StaticCard, { card, extra: "mini" }))) : null,
            h("span", { class: "points" }, points(end.hand_values[s])),
          ])
        : "";
      rows.push([
        name,
        left,
        end ? signed(end.payments[s]) : "",
        signed(view.balances[s] || 0), // the session's balance, this game's payment in it
      ]);
    });
  } else {
    names.forEach((name, s) => rows.push([name, String(view.totals[s])]));
    const ends = view.log.filter((e) => e.type === "deal_end");
    last = ends.length ? ends[ends.length - 1] : null;
  }
  const heads =
    game === "vatikanen"
      ? [t("Player"), t("Left in hand"), t("This game"), t("Balance")]
      : [t("Player"), t("Penalty points")];
  const close = () => {
    if (past) p.lastOver = null;
    else p.overClosed = state.version;
    rerender();
  };
  return h(Modal, { title: t("The game is over"), onClose: close }, [
    past ? h("p", { class: "notice-line", role: "status" }, t("The next game has begun: it waits for you.")) : null,
    h("p", { class: "headline" }, overHeadline(ctx, game)),
    h("table", { class: "scores" }, [
      h("thead", null, h("tr", null, heads.map((x) => h("th", null, x)))),
      h("tbody", null, rows.map((r, s) => h("tr", { class: winners.includes(s) ? "winner" : "" }, r.map((x) => h("td", null, x))))),
    ]),
    last ? h("h3", null, t("The last deal")) : null,
    last ? h(DealEnd, { entry: last, names }) : null,
    game === "kontrakt" ? h("p", { class: "muted" }, t("Lower is better: the penalty points of the seven deals.")) : h("p", { class: "muted" }, t("The balance carries on from game to game at this table.")),
    h("div", { class: "buttons" }, [
      past
        ? h("button", { type: "button", class: "primary", onClick: close }, t("To the next game"))
        : h(AgainButton, { ctx, p }),
      // the game this dialog shows, by its number: also once the next game has begun
      h("a", { class: "button", href: gameLink(ctx.id, state.games_played - 1) }, t("Replay this game")),
      h("a", { class: "button", href: gameLink(ctx.id, state.games_played - 1, true) }, t("Review this game")),
      h("a", { class: "button", href: "#/" }, t("Back to the lobby")),
    ]),
  ]);
}

function signed(x) {
  const n = Math.round(x * 100) / 100;
  return n > 0 ? "+" + n : String(n);
}
