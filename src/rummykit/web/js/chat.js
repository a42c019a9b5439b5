// The chat at a table (docs/protocol.md, "chat"): every seat and spectator, the last 50
// messages on joining, quick phrases in the player's language, spectators muted at will, and a
// count of unread messages on the button that opens it. A message's text is only ever a text
// node (Preact's children), in a <bdi> of its own: never markup, and its direction stays its
// own.

import { h } from "../vendor/preact/preact.module.js";
import { useEffect, useRef, useState } from "../vendor/preact/hooks.module.js";
import { account } from "./account.js";
import { api, load, save } from "./api.js";
import { language, t } from "./i18n.js";
import { rerender } from "./store.js";

const MAX_TEXT = 300; // characters, as the server counts them
const COUNT_FROM = 250; // the counter shows from this many characters on
const KEEP = 200; // messages kept on the page

export const chatSettings = { muteSpectators: load("muteSpectators", false) };

/** A table's chat on the page: its messages, what was read, whether the panel is open. */
export function newChat(tableId) {
  return {
    id: tableId,
    messages: [],
    seenAt: load("chatSeen." + tableId, 0), // the newest message read, across reloads
    open: load("chatOpen", matchMedia("(min-width: 900px)").matches),
    problem: null,
  };
}

function keyOf(m) {
  return `${m.at}|${m.seat}|${m.name}|${m.text}`;
}

/** A chat message or a chat_history from the server. */
export function chatReceived(chat, message) {
  if (message.type === "chat_history") {
    const history = (message.messages || []).filter(valid);
    if (!history.length) return; // nothing said yet (or the server could not read it now)
    const known = new Set(history.map(keyOf));
    const last = history.length ? history[history.length - 1].at : 0;
    // a message that came just before the history, and is newer than it, stays
    const later = chat.messages.filter((m) => !known.has(keyOf(m)) && m.at > last);
    chat.messages = history.concat(later);
  } else if (valid(message)) {
    const key = keyOf(message);
    if (!chat.messages.slice(-60).some((m) => keyOf(m) === key)) chat.messages.push(message);
    if (chat.messages.length > KEEP) chat.messages = chat.messages.slice(-KEEP);
  }
  markRead(chat);
}

function valid(m) {
  return m && typeof m.text === "string" && typeof m.at === "number";
}

/** Messages the player sees: a muted spectator's are left out (their own never). */
function shownMessages(chat, seat) {
  return chat.messages.filter((m) => !chatSettings.muteSpectators || m.seat !== null || mine(m, seat));
}

function mine(m, seat) {
  // the server sends a message's ref only to its sender; a seat knows its own by its number
  return m.ref !== undefined || (seat !== null && m.seat === seat);
}

/** Messages not read yet: come while the panel was closed or the page hidden, by others. */
export function unreadCount(chat, seat) {
  return shownMessages(chat, seat).filter((m) => m.at > chat.seenAt && !mine(m, seat)).length;
}

function markRead(chat) {
  if (!chat.open || document.visibilityState === "hidden" || !chat.messages.length) return;
  const newest = chat.messages[chat.messages.length - 1].at;
  if (newest > chat.seenAt) {
    chat.seenAt = newest;
    save("chatSeen." + chat.id, newest);
  }
}

export function setChatOpen(chat, open) {
  chat.open = open;
  save("chatOpen", open);
  markRead(chat);
  rerender();
}

/** The button that opens the chat, with the count of unread messages. */
export function ChatButton({ chat, seat }) {
  const unread = unreadCount(chat, seat);
  const open = () => {
    setChatOpen(chat, !chat.open);
    if (chat.open) {
      // on a phone the panel is under the game: bring it into view
      requestAnimationFrame(() => {
        const panel = document.querySelector(".chat");
        if (panel && panel.getBoundingClientRect().top > innerHeight * 0.6) panel.scrollIntoView({ block: "start", behavior: "smooth" });
      });
    }
  };
  return h(
    "button",
    {
      type: "button",
      class: "chip chat-button" + (chat.open ? " on" : ""),
      "aria-expanded": chat.open ? "true" : "false",
      "aria-label": unread ? t("Chat: {n} unread", { n: unread }) : t("Chat"),
      onClick: open,
    },
    [t("Chat"), unread ? h("span", { class: "unread", "aria-hidden": "true" }, String(unread)) : null],
  );
}

/** The quick phrases, in the player's language (sent as they read). */
function phrases() {
  return [t("Hi!"), t("Good luck!"), t("Your turn"), t("One moment…"), t("Well played!"), t("Thanks for the game!")];
}

function when(at) {
  const date = new Date(at * 1000);
  const now = new Date();
  const sameDay = date.toDateString() === now.toDateString();
  const options = sameDay ? { hour: "2-digit", minute: "2-digit" } : { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  try {
    return date.toLocaleString(language() === "sv" ? "sv-SE" : "en-GB", options);
  } catch (err) {
    return date.toISOString();
  }
}

/** What may be done about another player's message: report it (to the server's host),
 * or, signed in, block its player (their chat hidden, never paired again). */
function MessageMenu({ chat, live, m }) {
  const [why, setWhy] = useState("");
  const done = (text) => {
    chat.menu = null;
    chat.problem = text;
    rerender();
  };
  const report = async (event) => {
    event.preventDefault();
    try {
      await api("POST", "api/reports", { table: live.tableId, n: m.n, name: m.name || null, reason: why.trim() || t("this message") });
      done(t("Reported. Thank you: the host will look at it."));
    } catch (err) {
      done(err.code === "rate_limited" ? t("Too many reports from here: try later.") : err.message);
    }
  };
  const block = async () => {
    try {
      await api("POST", "api/account/blocks", { table: live.tableId, seat: m.seat });
      done(t("Blocked: you will not see their chat, nor be paired with them."));
    } catch (err) {
      done(err.code === "not_found" ? t("Only a player with an account can be blocked.") : err.message);
    }
  };
  return h("div", { class: "chat-menu" }, [
    h("form", { class: "report", onSubmit: report }, [
      h("input", { name: "report-why", value: why, maxLength: 500, placeholder: t("Why? (optional)"), "aria-label": t("Why?"), onInput: (e) => setWhy(e.target.value) }),
      h("button", { type: "submit", class: "report-send" }, t("Report")),
    ]),
    account.me && m.seat !== null ? h("button", { type: "button", class: "block", onClick: block }, t("Block")) : null,
  ]);
}

/** The chat panel: the messages, the quick phrases, a line to write, mute the spectators. */
export function ChatPanel({ chat, live, seat }) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const list = useRef(null);
  const shown = shownMessages(chat, seat);
  const hidden = chat.messages.length - shown.length;
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [shown.length, chat.open]);
  if (!chat.open) return null;
  const send = async (words) => {
    const clean = words.trim();
    if (!clean || busy) return false;
    chat.problem = null;
    setBusy(true);
    const answer = await live.request({ type: "chat", text: clean });
    setBusy(false);
    if (answer.type === "error") {
      chat.problem =
        answer.code === "rate_limited"
          ? t("Not so fast: a message a second.")
          : answer.code === "bad_message"
            ? t("A message is one line of 1 to 300 characters.")
            : answer.code === "offline"
              ? t("Not connected: the message may not have been sent.")
              : answer.code === "muted"
                ? t("You are muted on this server: your message was not sent.")
                : answer.message || answer.code;
      rerender();
      return false;
    }
    rerender();
    return true;
  };
  const submit = async (event) => {
    event.preventDefault();
    if (await send(text)) setText("");
  };
  const mute = (event) => {
    chatSettings.muteSpectators = event.target.checked;
    save("muteSpectators", chatSettings.muteSpectators);
    rerender();
  };
  return h("section", { class: "chat", "aria-label": t("Chat") }, [
    h("div", { class: "chat-head" }, [
      h("h2", null, t("Chat")),
      h("label", { class: "check small mute" }, [
        h("input", { type: "checkbox", name: "mute-spectators", checked: chatSettings.muteSpectators, onChange: mute }),
        t("Mute spectators"),
      ]),
      h("button", { type: "button", class: "close", "aria-label": t("Close the chat"), onClick: () => setChatOpen(chat, false) }, "×"),
    ]),
    h(
      "ol",
      { class: "chat-list", ref: list, "aria-live": "polite" },
      shown.length
        ? shown.map((m) =>
            h("li", { class: "chat-message" + (mine(m, seat) ? " mine" : "") + (m.seat === null ? " spectator" : "") }, [
              h("span", { class: "chat-who" }, m.seat === null ? t("Spectator") : m.name || t("Seat {n}", { n: m.seat + 1 })),
              h("bdi", { class: "chat-text" }, m.text),
              h("time", { class: "chat-at", dateTime: new Date(m.at * 1000).toISOString() }, when(m.at)),
              !mine(m, seat) && m.n ? h("button", { type: "button", class: "chat-more", "aria-label": t("Report or block"), onClick: () => { chat.menu = chat.menu === m.n ? null : m.n; rerender(); } }, "⋯") : null,
              chat.menu === m.n ? h(MessageMenu, { chat, live, m }) : null,
            ]),
          )
        : h("li", { class: "chat-empty muted" }, t("No messages yet. Say hello!")),
    ),
    hidden ? h("p", { class: "muted small chat-muted" }, hidden === 1 ? t("1 message from a spectator is hidden.") : t("{n} messages from spectators are hidden.", { n: hidden })) : null,
    h(
      "div",
      { class: "phrases", role: "group", "aria-label": t("Quick phrases") },
      phrases().map((words) => h("button", { type: "button", class: "chip phrase", disabled: busy, onClick: () => send(words) }, words)),
    ),
    h("form", { class: "chat-form", onSubmit: submit }, [
      h("input", {
        name: "chat",
        value: text,
        maxLength: MAX_TEXT,
        autocomplete: "off",
        enterkeyhint: "send",
        "aria-label": t("Message"),
        placeholder: t("Write a message…"),
        onInput: (e) => setText(e.target.value),
      }),
      h("button", { type: "submit", disabled: busy || !text.trim() }, t("Send")),
    ]),
    // near the limit a counter, at it the limit said: the input takes no more, silently else
    text.length > COUNT_FROM
      ? h("p", { class: "chat-count small" + (text.length >= MAX_TEXT ? " full" : ""), role: "status", "aria-live": "polite" }, [
          `${text.length} / ${MAX_TEXT}`,
          text.length >= MAX_TEXT ? " · " + t("A message is at most {n} characters.", { n: MAX_TEXT }) : "",
        ])
      : null,
    chat.problem ? h("p", { class: "error small", role: "alert" }, chat.problem) : null,
  ]);
}

// read messages are marked read when the page is seen again
document.addEventListener("visibilitychange", () => rerender());

/** Mark what is shown as read (on each draw of the table page). */
export function chatSeen(chat) {
  markRead(chat);
}
