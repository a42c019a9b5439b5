// The lobby (#/): my tables first (the seats this browser holds), make a table (its game,
// seats, house rules and pace), join or watch the open ones, replay finished games or a
// record file. Without a connection it says so, and shows no table it cannot vouch for.

import { h } from "../vendor/preact/preact.module.js";
import { useEffect, useState } from "../vendor/preact/hooks.module.js";
import { account, LobbyAccount } from "./account.js";
import { api, keepSeat, load, save, seatOf } from "./api.js";
import { t } from "./i18n.js";
import { NoConnection, offline, setReachable } from "./install.js";
import { MyTables, forgetMine, myTableIds, refreshMine } from "./mytables.js";
import { giveUp, PlayNow } from "./playnow.js";
import { CLOCKS, PACES, awayText, clockText, graceFor, paceLine, paceOf, paceTitle } from "./pace.js";
import { specOf } from "./spec.js";
import { gameTitle } from "./words.js";
import { keepRecordText } from "./replay.js";
import { rerender, settings } from "./store.js";

const lobby = { games: null, open: [], over: [], error: null, timer: null };

export function enterLobby() {
  refresh();
  clearInterval(lobby.timer);
  lobby.timer = setInterval(refresh, 5000);
  window.addEventListener("online", refresh);
}

export function leaveLobby() {
  giveUp(false); // a search is given up when its page leaves the lobby
  clearInterval(lobby.timer);
  lobby.timer = null;
  window.removeEventListener("online", refresh);
}

async function refresh() {
  try {
    if (!lobby.games) lobby.games = (await api("GET", "api/games")).games;
    const [open, over] = await Promise.all([api("GET", "api/tables"), api("GET", "api/tables?status=over"), refreshMine()]);
    lobby.open = open.tables;
    lobby.over = over.tables;
    lobby.error = null;
    setReachable(true);
  } catch (err) {
    if (err.status === 0) {
      // no connection: nothing is shown that the server did not just say
      lobby.open = [];
      lobby.over = [];
      forgetMine();
      lobby.error = null;
      setReachable(false);
    } else {
      lobby.error = t("The server cannot be reached: {why}", { why: err.message });
    }
  }
  rerender();
}

export function LobbyPage() {
  if (offline() && !lobby.games) {
    return h("main", { class: "page lobby offline" }, [h("h1", { class: "visually-hidden" }, t("Lobby")), h(NoConnection)]);
  }
  return h("main", { class: "page lobby" }, [
    h("h1", { class: "visually-hidden" }, t("Lobby")),
    offline() ? h(NoConnection) : null,
    lobby.error ? h("p", { class: "error", role: "alert" }, lobby.error) : null,
    h(LobbyAccount),
    h(PlayNow, null),
    h("p", { class: "puzzle-link" }, [h("a", { class: "button", href: "#/learn" }, t("Learn to play")), " ", h("a", { class: "button", href: "#/puzzles" }, t("Puzzles")), " ", h("a", { class: "button", href: "#/leaderboard" }, t("Leaderboard"))]),
    h(MyTables),
    lobby.games ? h(NewTable, { games: lobby.games }) : h("p", { class: "muted" }, t("Loading…")),
    h(OpenTables),
    h(Finished),
    h(RecordFile),
  ]);
}

function NewTable({ games }) {
  const kept = load("game", null); // the game chosen last time
  const [game, chooseGame] = useState(games.some((g) => g.name === kept) ? kept : games[0].name);
  const setGame = (name) => {
    save("game", name);
    chooseGame(name);
  };
  const spec = games.find((g) => g.name === game);
  const details = specOf(game); // its words in the page's language, from the server
  const [count, setCount] = useState(spec.default_players);
  const [seats, setSeats] = useState({});
  const [options, setOptions] = useState({});
  const [clock, setClock] = useState(0);
  const [standIn, setStandIn] = useState(true);
  const [rated, setRated] = useState(false);
  const [name, setName] = useState(settings.name || "");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    setCount(spec.default_players);
    setSeats({});
    setOptions({});
  }, [game]);
  const seatKind = (s) => seats[s] || (s === 0 ? "human" : "bot:" + spec.default_bot);
  const create = async (event) => {
    event.preventDefault();
    if (!name.trim()) {
      setProblem(t("Write your name first."));
      return;
    }
    setBusy(true);
    setProblem(null);
    const list = [];
    for (let s = 0; s < count; s++) list.push(seatKind(s));
    const chosen = {};
    for (const rule of spec.house_rules) chosen[rule.name] = rule.name in options ? options[rule.name] : rule.default;
    try {
      const table = await api("POST", "api/tables", { game, seats: list, options: chosen, clock: Number(clock), grace: graceFor(Number(clock)), stand_in: standIn, rated: rated && !!account.me });
      const joined = await api("POST", `api/tables/${encodeURIComponent(table.id)}/join`, { name: name.trim(), seat: 0 });
      keepSeat(table.id, { seat: joined.seat, token: joined.token, name: name.trim() });
      settings.name = name.trim();
      save("name", settings.name);
      location.hash = `#/t/${table.id}`;
    } catch (err) {
      setProblem(err.message);
      setBusy(false);
    }
  };
  const counts = [];
  for (let n = spec.min_players; n <= spec.max_players; n++) counts.push(n);
  return h("section", { class: "card-panel new-table" }, [
    h("h2", null, t("New table")),
    h("form", { onSubmit: create }, [
      h("fieldset", { class: "games" }, [
        h("legend", null, t("Game")),
        games.map((g) =>
          h("label", { class: "game-choice" + (g.name === game ? " on" : "") }, [
            h("input", { type: "radio", name: "game", value: g.name, checked: g.name === game, onChange: () => setGame(g.name) }),
            h("span", { class: "game-name" }, gameTitle(g.name)),
            h("span", { class: "muted small" }, (specOf(g.name) || {}).blurb || ""),
          ]),
        ),
      ]),
      h("label", null, [t("Your name"), h("input", { name: "name", value: name, maxLength: 40, autocomplete: "nickname", required: true, onInput: (e) => setName(e.target.value) })]),
      h("label", null, [
        t("Players"),
        h("select", { name: "players", value: count, onChange: (e) => setCount(Number(e.target.value)) }, counts.map((n) => h("option", { value: n }, String(n)))),
      ]),
      h("fieldset", { class: "seat-kinds" }, [
        h("legend", null, t("Seats")),
        Array.from({ length: count }, (_, s) =>
          s === 0
            ? h("div", { class: "seat-row" }, [h("span", null, t("Seat {n}", { n: 1 })), h("span", null, t("You"))])
            : h("label", { class: "seat-row" }, [
                h("span", null, t("Seat {n}", { n: s + 1 })),
                h(
                  "select",
                  { name: "seat" + s, value: seatKind(s), onChange: (e) => setSeats({ ...seats, [s]: e.target.value }) },
                  [
                    h("option", { value: "human" }, t("a friend (send the invite link)")),
                    (details ? details.bots : []).map((b) => h("option", { value: "bot:" + b.level, title: b.summary }, botTitle(b))),
                  ],
                ),
                h("span", { class: "muted small seat-what" }, botLine(details, seatKind(s))),
              ]),
        ),
      ]),
      details && details.house_rules.length
        ? h("fieldset", { class: "house-rules" }, [
            h("legend", null, t("House rules")),
            details.house_rules.map((rule) =>
              h("label", { class: "check" }, [
                h("input", {
                  type: "checkbox",
                  name: rule.name,
                  checked: rule.name in options ? options[rule.name] : rule.default,
                  onChange: (e) => setOptions({ ...options, [rule.name]: e.target.checked }),
                }),
                h("span", null, [h("strong", null, rule.title), " ", h("span", { class: "rule" }, rule.rule), " ", rule.summary]),
              ]),
            ),
          ])
        : null,
      h(Pace, { clock, setClock, standIn, setStandIn }),
      account.me
        ? h("label", { class: "check" }, [
            h("input", { type: "checkbox", name: "rated", checked: rated, onChange: (e) => setRated(e.target.checked) }),
            h("span", null, t("Rated: one game, and every player signs in (your rating changes; bots keep theirs)")),
          ])
        : null,
      problem ? h("p", { class: "error", role: "alert" }, problem) : null,
      h("button", { type: "submit", class: "primary", disabled: busy }, t("Create the table")),
    ]),
  ]);
}

/** The table's pace: fast, normal or a move a day, and the clock and stand-ins they set. */
function Pace({ clock, setClock, standIn, setStandIn }) {
  const chosen = paceOf(clock, standIn);
  const choose = (pace) => {
    setClock(pace.clock);
    setStandIn(pace.standIn);
  };
  const grace = graceFor(clock);
  return h("fieldset", { class: "pace" }, [
    h("legend", null, t("Pace")),
    PACES.map((pace) =>
      h("label", { class: "game-choice" + (pace.name === chosen ? " on" : "") }, [
        h("input", { type: "radio", name: "pace", value: pace.name, checked: pace.name === chosen, onChange: () => choose(pace) }),
        h("span", { class: "game-name" }, paceTitle(pace.name)),
        h("span", { class: "muted small" }, paceLine(pace.name)),
      ]),
    ),
    h("label", null, [
      t("Turn clock"),
      h("select", { name: "clock", value: clock, onChange: (e) => setClock(Number(e.target.value)) }, [
        h("option", { value: 0 }, t("none")),
        CLOCKS.filter((s) => s > 0).map((s) => h("option", { value: s }, clockText(s))),
      ]),
    ]),
    h("label", { class: "check" }, [
      h("input", { type: "checkbox", name: "stand_in", checked: standIn, onChange: (e) => setStandIn(e.target.checked) }),
      h("span", null, t("A bot plays for a player away for longer than {time}", { time: awayText(grace) })),
    ]),
    h(
      "p",
      { class: "muted small" },
      [
        clock ? t("A turn not played within {time} is played by a bot.", { time: awayText(clock) }) : t("No turn clock: the table waits for each move."),
        " ",
        standIn ? t("A bot stands in for a player who is away, until they are back.") : t("Nobody plays for an away player: the table waits for them."),
      ].join(""),
    ),
  ]);
}

/** A bot level as the seat chooser names it, with its rating on the ladder where it has one. */
function botTitle(bot) {
  return bot.rating == null ? t("bot: {level}", { level: bot.title }) : t("bot: {level}, rated {rating}", { level: bot.title, rating: bot.rating });
}

/** The bot of a seat: its rating on the ladder (docs/ratings.md) and how it plays ("plays the
 * most cards it can"), or nothing for a friend. */
function botLine(details, kind) {
  const bot = details && kind.startsWith("bot:") ? details.bots.find((b) => "bot:" + b.level === kind) : null;
  if (!bot) return "";
  return bot.rating == null ? bot.summary : t("Rated {rating}: {how}", { rating: bot.rating, how: bot.summary });
}

function seatsLine(table) {
  return table.seats.map((s) => (s.kind === "bot" ? `${s.name} (${t("bot")})` : s.taken ? s.name : t("free"))).join(", ");
}

function statusText(status) {
  return { waiting: t("waiting for players"), playing: t("playing"), over: t("over") }[status] || status;
}

function OpenTables() {
  const mine = myTableIds(); // listed under "my tables"
  const open = lobby.open.filter((table) => !mine.has(table.id));
  return h("section", { class: "card-panel" }, [
    h("h2", null, t("Open tables")),
    open.length
      ? h(
          "ul",
          { class: "tables" },
          open.map((table) => {
            const mine = seatOf(table.id);
            const free = table.seats.some((s) => s.kind === "human" && !s.taken);
            return h("li", { class: "table-row" }, [
              h("span", { class: "table-game" }, gameTitle(table.game)),
              h("span", { class: "table-seats" }, seatsLine(table)),
              h(
                "span",
                { class: "muted small" },
                statusText(table.status) +
                  (table.waiting_for_players ? " · " + t("paused until a player is back") : "") +
                  (table.clock ? " · " + clockText(table.clock) : ""),
              ),
              h("span", { class: "table-buttons" }, [
                mine
                  ? h("a", { class: "button primary", href: `#/t/${table.id}` }, t("Back to my seat"))
                  : free
                    ? h("a", { class: "button primary", href: `#/t/${table.id}` }, t("Join"))
                    : null,
                mine ? null : h("a", { class: "button", href: `#/t/${table.id}/watch` }, t("Watch")),
              ]),
            ]);
          }),
        )
      : h("p", { class: "muted" }, t("No table is open. Make one above and send the link to your friends.")),
  ]);
}

function Finished() {
  const mine = myTableIds(); // listed under "my tables"
  const over = lobby.over.filter((table) => !mine.has(table.id));
  if (!over.length) return null;
  return h("section", { class: "card-panel" }, [
    h("h2", null, t("Finished games")),
    h(
      "ul",
      { class: "tables" },
      over.slice(0, 30).map((table) =>
        h("li", { class: "table-row" }, [
          h("span", { class: "table-game" }, gameTitle(table.game)),
          h("span", { class: "table-seats" }, seatsLine(table)),
          h("span", { class: "table-buttons" }, [
            h("a", { class: "button", href: `#/r/${table.id}` }, t("Replay")),
            seatOf(table.id) ? h("a", { class: "button", href: `#/t/${table.id}` }, t("Back to the table")) : null,
          ]),
        ]),
      ),
    ),
  ]);
}

function RecordFile() {
  const [problem, setProblem] = useState(null);
  const open = async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const text = await file.text();
    try {
      JSON.parse(text);
    } catch (err) {
      setProblem(t("This file is not a record: it is not JSON."));
      return;
    }
    keepRecordText(text);
    location.hash = "#/r/file";
    rerender();
  };
  return h("section", { class: "card-panel" }, [
    h("h2", null, t("Replay a record file")),
    h("p", { class: "muted small" }, t("A game saved by rummykit: played in the terminal, at this server's tables, or in a simulation.")),
    h("input", { type: "file", accept: ".json,application/json", "aria-label": t("Open a record file"), onChange: open }),
    problem ? h("p", { class: "error", role: "alert" }, problem) : null,
  ]);
}
