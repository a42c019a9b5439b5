// Keyboard play: the terminal's commands (docs/playing.md), read into an action or a UI
// command. Only the text is read here; whether the action is legal is the server's word.
//
//   Vatikanen: play 7h 8h 9h | play 7h | 7h 8h 9h | Tc Th Ts | draw | pass
//   Kontrakt:  take | decline | buy | pass | draw [discard] | meld 7h 7d 7s | 4c 5c 6c
//              layoff Th on 3 [as 9h] | swap 7h on 2 | discard Qs
//   Both:      ok (play the staged cards) | undo | reset | hint | arrange 7h | sort | next | help

import { normalCard } from "./cards.js";
import { t } from "./i18n.js";

export class CommandError extends Error {}

const UI = {
  ok: "ok",
  yes: "ok",
  y: "ok",
  confirm: "ok",
  undo: "undo",
  u: "undo",
  back: "undo",
  reset: "reset",
  help: "help",
  h: "help",
  "?": "help",
  sort: "sort",
  hint: "hint",
  scores: "scores",
  score: "scores",
  next: "next",
  new: "next",
};

function cards(text, missing) {
  const words = text.split(/[\s,]+/).filter(Boolean);
  if (!words.length) throw new CommandError(missing);
  return words.map((w) => {
    const card = normalCard(w);
    if (!card) throw new CommandError(t("'{text}' is not a card: write cards like 7h, Td, As or *", { text: w }));
    return card.startsWith("*") ? "*" : card;
  });
}

function melds(text, example) {
  const parts = text.split("|").map((p) => p.trim());
  if (!text.trim() || parts.some((p) => !p)) throw new CommandError(example);
  return parts.map((p) => cards(p, example));
}

function nothingAfter(word, rest) {
  if (rest) throw new CommandError(t("'{word}' takes nothing after it", { word }));
}

/** Read one line; {ui: name, cards?} or {action}; CommandError with the reason. */
export function parseCommand(text, game) {
  const line = text.trim();
  if (!line) return { ui: "ok" };
  const space = line.indexOf(" ");
  const word = (space < 0 ? line : line.slice(0, space)).toLowerCase();
  const rest = space < 0 ? "" : line.slice(space + 1).trim();
  if (word === "arrange" || word === "a") {
    return { ui: "arrange", cards: cards(rest, t("name the cards to arrange, like: arrange 7h 8h")) };
  }
  if (word in UI) {
    nothingAfter(word, rest);
    return { ui: UI[word] };
  }
  if (game === "vatikanen") {
    if (word === "play" || word === "p") {
      const bar = rest.indexOf("|");
      const addText = bar < 0 ? rest : rest.slice(0, bar);
      const add = cards(addText, t("name the cards to play from your hand, like: play 7h 8h 9h"));
      const action = { type: "play", add };
      if (bar >= 0) {
        action.table = melds(rest.slice(bar + 1), t("after the first | write the whole new table, meld by meld, like: play 7h | 7h 8h 9h | Tc Th Ts"));
      }
      return { action };
    }
    if (word === "draw" || word === "d") {
      nothingAfter(word, rest);
      return { action: { type: "draw" } };
    }
    if (word === "pass") {
      nothingAfter(word, rest);
      return { action: { type: "pass" } };
    }
  } else {
    const simple = { take: "take_upcard", decline: "decline_upcard", buy: "buy_upcard", pass: "pass_upcard" };
    if (word in simple) {
      nothingAfter(word, rest);
      return { action: { type: simple[word] } };
    }
    if (word === "draw" || word === "d") {
      const source = rest.toLowerCase();
      if (source === "" || source === "stock") return { action: { type: "draw", from: "stock" } };
      if (["discard", "pile", "discard pile"].includes(source)) return { action: { type: "draw", from: "discard" } };
      throw new CommandError(t("draw takes from the stock (draw) or the discard pile (draw discard)"));
    }
    if (word === "meld" || word === "m" || word === "lay") {
      return { action: { type: "meld", melds: melds(rest, t("name the cards of each meld, like: meld 7h 7d 7s | 4c 5c 6c")) } };
    }
    const on = /^(\S+)\s+(?:on\s+|to\s+)?#?(\d+)(.*)$/i.exec(rest);
    if (word === "layoff" || word === "lo") {
      if (!on) throw new CommandError(t("write a lay-off as: layoff Th on 3 (the card, then the meld number)"));
      const [card] = cards(on[1], "");
      const action = { type: "layoff", card, meld: Number(on[2]) };
      const tail = on[3].trim();
      if (tail) {
        const m = /^as\s+(\S+)$/i.exec(tail);
        if (!m) throw new CommandError(t("after the meld number only 'as 9h' may follow (for a joker)"));
        action.as = cards(m[1], "")[0];
      }
      return { action };
    }
    if (word === "swap" || word === "sw") {
      if (!on) throw new CommandError(t("write a joker swap as: swap 7h on 2 (your card, then the meld number)"));
      let cardText = on[1];
      const tail = on[3].trim();
      if (cardText === "*") {
        const m = /^with\s+(\S+)$/i.exec(tail);
        if (!m) throw new CommandError(t("write a joker swap as: swap * on 2 with 7h"));
        cardText = m[1];
      } else if (tail) {
        throw new CommandError(t("write a joker swap as: swap 7h on 2"));
      }
      return { action: { type: "swap_joker", card: cards(cardText, "")[0], meld: Number(on[2]) } };
    }
    if (word === "discard" || word === "x") {
      const list = cards(rest, t("name the card to discard, like: discard Qs"));
      if (list.length !== 1) throw new CommandError(t("discard exactly one card, like: discard Qs"));
      return { action: { type: "discard", card: list[0] } };
    }
  }
  throw new CommandError(t("unknown command '{word}': type help to see the commands", { word }));
}

export function commandHelp(game) {
  if (game === "vatikanen") {
    return [
      ["play 7h 8h 9h", t("play these cards; the server arranges the table")],
      ["play 7h | 7h 8h 9h | Tc Th Ts", t("play 7h, and the whole new table, meld by meld")],
      ["arrange 7h 8h", t("let the solver fit these cards into the table (staged)")],
      ["ok", t("play what is staged")],
      ["undo / reset", t("take back the last change / every change")],
      ["draw / pass", t("draw from the stock / pass when it is empty")],
      ["hint / sort / next", t("suggest plays / sort the hand / the next game")],
    ];
  }
  return [
    ["take / decline", t("förhand: take or decline the first upcard")],
    ["buy / pass", t("buy the upcard (with a penalty card) or pass")],
    ["draw / draw discard", t("draw from the stock / take the top of the discard pile")],
    ["meld 7h 7d 7s | 4c 5c 6c", t("lay down melds")],
    ["layoff Th on 3", t("lay Th off on meld #3")],
    ["swap 7h on 2", t("put 7h in place of the joker in meld #2")],
    ["discard Qs", t("discard Qs and end the turn")],
    ["hint / sort / scores / next", t("suggest moves / sort the hand / the score sheet / the next game")],
  ];
}
