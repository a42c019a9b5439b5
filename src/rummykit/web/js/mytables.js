// "My tables": every seat this browser holds (the tokens kept in localStorage), listed first
// in the lobby from the server's summaries (GET /api/tables?ids=), those where it is the
// player's turn marked and first; and a seat's link for another device of the player's (the
// token in the address's fragment, which no server sees), as text to copy and a QR code.

import { h } from "../vendor/preact/preact.module.js";
import { useState } from "../vendor/preact/hooks.module.js";
import qrcode from "../vendor/qrcode-generator/qrcode.module.js";
import { AlertSwitches, seeTurn } from "./alerts.js";
import { api, heldSeats, keepSeat } from "./api.js";
import { t } from "./i18n.js";
import { clockText, paceOf, paceTitle } from "./pace.js";
import { rerender } from "./store.js";
import { Modal } from "./ui.js";
import { gameTitle } from "./words.js";

const PAGE = 100; // ids in one request (the server's page)

export const mine = { held: [], tables: [], gone: [], loaded: false };

/** Ask the server how the tables this browser holds seats at stand. Throws what api throws. */
export async function refreshMine() {
  const held = heldSeats();
  const found = [];
  for (let k = 0; k < held.length; k += PAGE) {
    const ids = held.slice(k, k + PAGE).map((s) => encodeURIComponent(s.id)).join(",");
    const answer = await api("GET", `api/tables?ids=${ids}`);
    found.push(...answer.tables);
  }
  const byId = new Map(found.map((s) => [s.id, s]));
  mine.held = held;
  mine.tables = held.filter((s) => byId.has(s.id)).map((s) => ({ seat: s, summary: byId.get(s.id) }));
  mine.gone = held.filter((s) => !byId.has(s.id));
  mine.loaded = true;
  for (const { seat, summary } of mine.tables) {
    seeTurn("table:" + summary.id, yourTurn(summary, seat), {
      title: t("Your turn: {game}", { game: gameTitle(summary.game) }),
      body: t("It is your turn at the table with {names}.", { names: others(summary, seat) }),
      url: tableLink(summary.id),
    });
  }
  mine.tables.sort(order);
}

/** Clear the list (no connection: nothing is shown that the server did not just say). */
export function forgetMine() {
  mine.tables = [];
  mine.gone = [];
  mine.loaded = false;
}

/** The ids of the tables listed as mine (the lobby's other lists leave them out). */
export function myTableIds() {
  return new Set(mine.held.map((s) => s.id));
}

function yourTurn(summary, seat) {
  return summary.status === "playing" && summary.to_act === seat.seat;
}

function rank(item) {
  const s = item.summary;
  if (yourTurn(s, item.seat)) return 0;
  return { playing: 1, waiting: 2, over: 3 }[s.status] || 4;
}

function order(a, b) {
  return rank(a) - rank(b) || b.summary.created - a.summary.created;
}

function others(summary, seat) {
  return summary.seats
    .filter((s) => s.seat !== seat.seat)
    .map((s) => s.name || t("free"))
    .join(", ");
}

function tableLink(id) {
  const url = new URL(document.baseURI);
  url.hash = `#/t/${id}`;
  return url.href;
}

function statusText(summary, seat) {
  if (yourTurn(summary, seat)) return t("Your turn");
  if (summary.status === "playing") {
    const s = summary.seats.find((x) => x.seat === summary.to_act);
    return s ? t("{name} to play", { name: s.name }) : t("playing");
  }
  return { waiting: t("waiting for players"), over: t("over") }[summary.status] || summary.status;
}

function forget(id) {
  if (!window.confirm(t("Forget your seat at this table in this browser? Without the seat's link you cannot take it again."))) return;
  keepSeat(id, null);
  mine.held = mine.held.filter((s) => s.id !== id);
  mine.tables = mine.tables.filter((x) => x.summary.id !== id);
  mine.gone = mine.gone.filter((s) => s.id !== id);
  rerender();
}

/** The lobby's first list: the tables where this browser holds a seat. */
export function MyTables() {
  if (!mine.loaded || (!mine.tables.length && !mine.gone.length)) return null;
  const turns = mine.tables.filter((x) => yourTurn(x.summary, x.seat)).length;
  return h("section", { class: "card-panel my-tables", "aria-label": t("My tables") }, [
    h("div", { class: "my-tables-head" }, [
      h("h2", null, [t("My tables"), turns ? h("span", { class: "turn-count" }, turns === 1 ? t("your turn at one") : t("your turn at {n}", { n: turns })) : null]),
      h(AlertSwitches, null),
    ]),
    h("ul", { class: "tables" }, [
      mine.tables.map(({ seat, summary }) => {
        const turn = yourTurn(summary, seat);
        const pace = summary.clock ? paceOf(summary.clock, summary.stand_in !== false) : null;
        return h("li", { class: "table-row mine" + (turn ? " your-turn" : ""), "data-table": summary.id }, [
          h("span", { class: "table-game" }, gameTitle(summary.game)),
          h("span", { class: "table-seats" }, others(summary, seat) ? t("with {names}", { names: others(summary, seat) }) : ""),
          h("span", { class: "table-status small" }, [
            h("span", { class: turn ? "badge turn" : "muted" }, statusText(summary, seat)),
            summary.clock ? h("span", { class: "muted" }, " · " + (pace ? paceTitle(pace) : clockText(summary.clock))) : null,
          ]),
          h("span", { class: "table-buttons" }, [
            h("a", { class: "button" + (turn ? " primary" : ""), href: `#/t/${summary.id}` }, summary.status === "over" ? t("Back to the table") : t("Back to my seat")),
            summary.status === "over" ? h("a", { class: "button", href: `#/r/${summary.id}` }, t("Replay")) : null,
            h("button", { type: "button", class: "forget", title: t("Forget this seat in this browser"), onClick: () => forget(summary.id) }, t("Forget")),
          ]),
        ]);
      }),
      mine.gone.map((seat) =>
        h("li", { class: "table-row mine gone", "data-table": seat.id }, [
          h("span", { class: "table-game muted" }, "—"),
          h("span", { class: "table-seats" }, t("A table this server no longer has")),
          h("span", { class: "table-status small muted" }, seat.name ? t("you were {name}", { name: seat.name }) : ""),
          h("span", { class: "table-buttons" }, h("button", { type: "button", class: "forget", onClick: () => forget(seat.id) }, t("Forget"))),
        ]),
      ),
    ]),
  ]);
}

// ------------------------------------------------------------------ a seat on another device

/** The address that gives a seat to the browser that opens it: the token in the fragment. */
export function seatLink(id, held) {
  const url = new URL(document.baseURI);
  url.hash = `#/t/${encodeURIComponent(id)}/seat/${held.seat}/${encodeURIComponent(held.token)}`;
  return url.href;
}

/** A QR code of ``text`` as SVG (Preact elements: no markup is written). */
export function QrCode({ text, label }) {
  const code = qrcode(0, "M");
  code.addData(text);
  code.make();
  const n = code.getModuleCount();
  const quiet = 4;
  let path = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (code.isDark(r, c)) path += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  const size = n + 2 * quiet;
  return h("svg", { class: "qr", viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges" }, [
    h("rect", { width: size, height: size, fill: "#fff" }),
    h("path", { d: path, fill: "#000" }),
  ]);
}

/** The player's own seat, to take to another device: a warning, the link, a QR code. */
export function SeatLinkDialog({ id, held, onClose }) {
  const [copied, setCopied] = useState(false);
  const link = seatLink(id, held);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch (err) {
      const field = document.querySelector(".seat-link input");
      if (field) field.select();
    }
  };
  return h(Modal, { title: t("Play on another device"), onClose }, [
    h("p", { class: "warning", role: "note" }, [
      h("strong", null, t("This link is your seat.")),
      " ",
      t("Whoever opens it plays in your place. Open it on your own phone or computer, and never send it to anyone else: friends join with the invite link."),
    ]),
    h("div", { class: "seat-link" }, [
      h("input", { readOnly: true, value: link, "aria-label": t("Your seat's link"), onFocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "primary", onClick: copy }, copied ? t("Link copied") : t("Copy the link")),
    ]),
    h("p", { class: "muted small" }, t("Or scan this code with the other device's camera:")),
    h(QrCode, { text: link, label: t("QR code of your seat's link") }),
  ]);
}
