// The page: the header (home, language, four colours), and the route from the address:
//   #/            the lobby
//   #/t/ID        a table (the invite link); #/t/ID/watch watches it
//   #/t/ID/seat/N/TOKEN  a seat's link for another device: kept, then dropped from the address
//   #/r/ID        the replay of a finished table; #/r/file a record file opened in the lobby;
//                 #/r/ID/review the same with the review of the game (docs/review.md);
//                 #/r/ID/g/N (and .../review) the table's finished game N, from 0
//   #/puzzles     the puzzles (puzzles.js); #/puzzles/kontrakt a game's; #/puzzles/ID one by id
//   #/learn       the tutorial's lessons; #/learn/LESSON one lesson (learn.js)
//   #/u/NAME      a player's profile; #/leaderboard/GAME(/PAGE) a game's leaderboard (profile.js)

import { h, render } from "../vendor/preact/preact.module.js";
import { AccountLink, AccountPage, refreshAccount } from "./account.js";
import { setBaseTitle } from "./alerts.js";
import { keepSeat } from "./api.js";
import { chosenLanguage, language, LANGUAGES, loadLanguage, t } from "./i18n.js";
import { startInstall } from "./install.js";
import { enterLearn, enterLesson, LearnPage, relanguageLearn } from "./learn.js";
import { enterLobby, leaveLobby, LobbyPage } from "./lobby.js";
import { BoardPage, enterBoard, enterProfile, ProfilePage } from "./profile.js";
import { enterPuzzles, PuzzlePage } from "./puzzles.js";
import { enterReplay, leaveReplay, ReplayPage } from "./replay.js";
import { rerender, setRenderer, setSetting, settings } from "./store.js";
import { enterTable, leaveTable, TablePage, tableState } from "./table.js";

let route = { name: "lobby" };

function readRoute() {
  const hash = location.hash.replace(/^#\/?/, "");
  const parts = hash.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "t" && parts[1] && parts[2] === "seat" && /^\d+$/.test(parts[3] || "") && parts[4]) {
    return { name: "table", id: parts[1], watch: false, seat: { seat: Number(parts[3]), token: parts[4] } };
  }
  if (parts[0] === "t" && parts[1]) return { name: "table", id: parts[1], watch: parts[2] === "watch" };
  if (parts[0] === "r" && parts[1] && parts[2] === "g" && /^\d+$/.test(parts[3] || "")) {
    return { name: "replay", source: parts[1], game: Number(parts[3]), review: parts[4] === "review" };
  }
  if (parts[0] === "account") return { name: "account" };
  if (parts[0] === "puzzles") return { name: "puzzles", id: parts[1] || null };
  if (parts[0] === "learn") return { name: "learn", lesson: parts[1] || null };
  if (parts[0] === "u" && parts[1]) return { name: "profile", player: parts[1] };
  if (parts[0] === "leaderboard") return { name: "board", game: parts[1] || "vatikanen", page: Number(parts[2]) || 0 };
  if (parts[0] === "r" && parts[1]) return { name: "replay", source: parts[1], game: null, review: parts[2] === "review" };
  const query = new URLSearchParams(location.search);
  if (query.get("table")) return { name: "table", id: query.get("table"), watch: false };
  return { name: "lobby" };
}

function follow() {
  const next = readRoute();
  if (next.seat) {
    // a seat's link from another device: this browser holds the seat from now on, and the
    // secret leaves the address (and the history) at once
    keepSeat(next.id, { ...next.seat, name: null, moved: true });
    history.replaceState(null, "", `#/t/${encodeURIComponent(next.id)}`);
    leaveTable();
  }
  if (next.name !== "lobby") leaveLobby();
  if (next.name !== "table") leaveTable();
  if (next.name !== "replay") leaveReplay();
  route = next;
  if (next.name !== "table") setBaseTitle(t("rummykit: Vatikanen and Kontraktsrummy")); // a table names itself
  if (next.name === "lobby") enterLobby();
  else if (next.name === "table") enterTable(next.id, next.watch, !!next.seat);
  else if (next.name === "account") refreshAccount(true);
  else if (next.name === "puzzles") enterPuzzles(next.id);
  else if (next.name === "learn") (next.lesson ? enterLesson(next.lesson) : enterLearn());
  else if (next.name === "profile") enterProfile(next.player);
  else if (next.name === "board") enterBoard(next.game, next.page);
  else enterReplay(next.source, next.review, next.game);
  window.scrollTo(0, 0);
  rerender();
}

async function switchLanguage(code) {
  localStorage.setItem("rummykit.lang", code);
  await loadLanguage(code);
  setBaseTitle(t("rummykit: Vatikanen and Kontraktsrummy"));
  if (route.name === "learn") relanguageLearn(); // the lessons' words are the server's
  rerender();
}

function Header() {
  return h("header", { class: "top" }, [
    h("a", { class: "home", href: "#/" }, [h("span", { class: "logo", "aria-hidden": "true" }, "♠♥"), "rummykit"]),
    h("nav", { class: "top-tools" }, [
      h(AccountLink, null),
      h("label", { class: "four", title: t("Four colours: clubs green, diamonds blue") }, [
        h("input", { type: "checkbox", checked: settings.fourColours, onChange: (e) => setSetting("fourColours", e.target.checked) }),
        t("4 colours"),
      ]),
      h("label", { class: "lang" }, [
        h("span", { class: "visually-hidden" }, t("Language")),
        h(
          "select",
          { value: language(), "aria-label": t("Language"), onChange: (e) => switchLanguage(e.target.value) },
          LANGUAGES.map((code) => h("option", { value: code }, code === "sv" ? "Svenska" : "English")),
        ),
      ]),
    ]),
  ]);
}

function App() {
  let body;
  if (route.name === "table") body = h(TablePage, null);
  else if (route.name === "replay") body = h(ReplayPage, null);
  else if (route.name === "account") body = h(AccountPage, null);
  else if (route.name === "puzzles") body = h(PuzzlePage, null);
  else if (route.name === "learn") body = h(LearnPage, null);
  else if (route.name === "profile") body = h(ProfilePage, null);
  else if (route.name === "board") body = h(BoardPage, null);
  else body = h(LobbyPage, null);
  return [h(Header, null), body];
}

async function boot() {
  await loadLanguage(chosenLanguage());
  setBaseTitle(t("rummykit: Vatikanen and Kontraktsrummy"));
  const root = document.getElementById("app");
  root.textContent = "";
  setRenderer(() => render(h(App, null), root));
  window.addEventListener("hashchange", follow);
  follow();
  if (route.name !== "account") refreshAccount(); // the account page asks itself
  startInstall();
  window.rummykit = { ready: true, state: tableState };
}

boot();
