// Cards: the text notation of docs/record.md, names in words, sorting, and the SVG faces.
//
// A card is text: rank A 2-9 T J Q K then suit c d h s ("7h", "Th"), or a joker "*";
// a table joker says what it stands for: "*:4c" (in a run), "*:9" (a group's rank).

import { h } from "../vendor/preact/preact.module.js";
import { t } from "./i18n.js";

export const RANK_CHARS = "A23456789TJQK";
export const SUITS = ["s", "h", "c", "d"]; // sorting order: colours alternate

const SUIT_INPUT = { c: "c", d: "d", h: "h", s: "s", "♣": "c", "♦": "d", "♥": "h", "♠": "s" };

/** A card's parts: {joker, rank (1-13 or null), suit ("c".."s" or null), label}. */
export function parseCard(text) {
  const s = String(text).trim();
  if (s.startsWith("*")) {
    const rest = s.slice(1);
    if (!rest) return { joker: true, rank: null, suit: null, label: null };
    if (!rest.startsWith(":")) return null;
    const label = parsePlain(rest.slice(1), true);
    if (!label) return null;
    return { joker: true, rank: null, suit: null, label };
  }
  const plain = parsePlain(s, false);
  return plain ? { joker: false, rank: plain.rank, suit: plain.suit, label: null } : null;
}

function parsePlain(s, rankOnly) {
  let rankText = s.slice(0, -1);
  let suitText = s.slice(-1);
  let suit = SUIT_INPUT[suitText.toLowerCase()];
  if (!suit && rankOnly) {
    rankText = s;
    suit = null;
  } else if (!suit) {
    return null;
  }
  rankText = rankText.toUpperCase();
  if (rankText === "10") rankText = "T";
  if (rankText.length !== 1) return null;
  const rank = RANK_CHARS.indexOf(rankText) + 1;
  if (rank < 1) return null;
  return { rank, suit };
}

/** The canonical text of a card typed by a player ("10H" -> "Th"), or null. */
export function normalCard(text) {
  const c = parseCard(text);
  if (!c) return null;
  if (c.joker) return c.label ? "*:" + RANK_CHARS[c.label.rank - 1] + (c.label.suit || "") : "*";
  return RANK_CHARS[c.rank - 1] + c.suit;
}

/** The card as it is in a hand: a joker without what it stood for. */
export function plainCard(text) {
  return String(text).startsWith("*") ? "*" : text;
}

export function rankLabel(rank) {
  return rank === 10 ? "10" : RANK_CHARS[rank - 1];
}

const SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** Short text for people: "7♥", "10♠", "★", "★=4♣". */
export function shortCard(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.joker) {
    if (!c.label) return "★";
    return "★=" + rankLabel(c.label.rank) + (c.label.suit ? SYMBOL[c.label.suit] + "\uFE0E" : "");
  }
  return rankLabel(c.rank) + SYMBOL[c.suit] + "\uFE0E";
}

export function shortCards(cards) {
  return cards.map(shortCard).join(" ");
}

function rankName(rank) {
  return [
    t("ace"),
    t("two"),
    t("three"),
    t("four"),
    t("five"),
    t("six"),
    t("seven"),
    t("eight"),
    t("nine"),
    t("ten"),
    t("jack"),
    t("queen"),
    t("king"),
  ][rank - 1];
}

function suitName(suit) {
  return { c: t("clubs"), d: t("diamonds"), h: t("hearts"), s: t("spades") }[suit];
}

/** The card in words, for screen readers: "seven of hearts", "joker (for four of clubs)". */
export function cardName(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.joker) {
    if (!c.label) return t("joker");
    const meant = c.label.suit
      ? t("{rank} of {suit}", { rank: rankName(c.label.rank), suit: suitName(c.label.suit) })
      : t("any {rank}", { rank: rankName(c.label.rank) });
    return t("joker standing for {card}", { card: meant });
  }
  return t("{rank} of {suit}", { rank: rankName(c.rank), suit: suitName(c.suit) });
}

/** Card values for the penalty shown at a deal's end: Kontrakt K6, Vatikanen V13. */
export function cardValue(text, game) {
  const c = parseCard(text);
  if (!c) return 0;
  if (c.joker) return game === "kontrakt" ? 15 : 25;
  if (c.rank === 1) return 15;
  if (c.rank >= 10) return 10;
  return c.rank;
}

/** A sort key: by suit then rank ("suit"), or by rank then suit ("rank"); jokers last. */
export function sortKey(text, mode) {
  const c = parseCard(text);
  if (!c || c.joker) return [9, 99];
  const s = SUITS.indexOf(c.suit);
  return mode === "rank" ? [c.rank, s] : [s, c.rank];
}

export function compareCards(a, b, mode) {
  const x = sortKey(a, mode);
  const y = sortKey(b, mode);
  return x[0] - y[0] || x[1] - y[1];
}

// ------------------------------------------------------------------ the faces (SVG)

const SUIT_PATHS = {
  h: "M50 90C22 68 4 50 4 30 4 15 16 5 29 5c9 0 16 5 21 13C55 10 62 5 71 5c13 0 25 10 25 25 0 20-18 38-46 60z",
  d: "M50 3 88 50 50 97 12 50z",
  s: "M50 4C33 28 6 40 6 60c0 14 11 23 24 23 8 0 14-4 18-9-1 9-5 16-12 22h28c-7-6-11-13-12-22 4 5 10 9 18 9 13 0 24-9 24-23C94 40 67 28 50 4z",
  c: "M31 28a19 19 0 1 0 38 0 19 19 0 1 0-38 0zM9 61a19 19 0 1 0 38 0 19 19 0 1 0-38 0zM53 61a19 19 0 1 0 38 0 19 19 0 1 0-38 0zM46 48 37 96h26L54 48z",
};
const STAR = "M50 4 61 38 97 38 68 59 79 94 50 73 21 94 32 59 3 38 39 38z";

const TWO_COLOURS = { c: "#1b1b1b", s: "#1b1b1b", h: "#c8102e", d: "#c8102e" };
const FOUR_COLOURS = { c: "#14753a", s: "#1b1b1b", h: "#c8102e", d: "#1557b0" };

export function suitColour(suit, fourColours) {
  return (fourColours ? FOUR_COLOURS : TWO_COLOURS)[suit] || "#1b1b1b";
}

function pip(suit, x, y, size, fill) {
  return h("path", {
    d: suit === "joker" ? STAR : SUIT_PATHS[suit],
    fill,
    transform: `translate(${x} ${y}) scale(${size / 100})`,
  });
}

/** The SVG face of a card (a 50 x 70 box); aria-hidden: the button around it names it. */
export function cardFace(text, { fourColours = false } = {}) {
  const c = parseCard(text);
  const kids = [
    h("rect", { x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 4.5, class: "card-bg" }),
  ];
  if (!c) {
    kids.push(h("text", { x: 25, y: 40, "text-anchor": "middle", class: "card-rank" }, "?"));
  } else if (c.joker) {
    const purple = "#6b2fa3";
    kids.push(pip("joker", 3, 4, 17, purple));
    kids.push(pip("joker", 12, 20, 27, purple));
    if (c.label) {
      const fill = c.label.suit ? suitColour(c.label.suit, fourColours) : "#444";
      kids.push(
        h(
          "text",
          { x: 4, y: 65, class: "card-label", fill },
          rankLabel(c.label.rank),
        ),
      );
      if (c.label.suit) kids.push(pip(c.label.suit, c.label.rank === 10 ? 21 : 15, 55.5, 11, fill));
    } else {
      kids.push(h("text", { x: 25, y: 64, "text-anchor": "middle", class: "card-joker" }, "JOKER"));
    }
  } else {
    const fill = suitColour(c.suit, fourColours);
    const ten = c.rank === 10;
    kids.push(
      h(
        "text",
        { x: ten ? 2.5 : 4, y: 21, class: ten ? "card-rank ten" : "card-rank", fill },
        rankLabel(c.rank),
      ),
    );
    kids.push(pip(c.suit, 4.5, 25, 15, fill));
    kids.push(pip(c.suit, 20, 38, 27, fill));
  }
  return h(
    "svg",
    { viewBox: "0 0 50 70", class: "card-face", "aria-hidden": "true", focusable: "false" },
    kids,
  );
}

/** A card's back (the stock). */
export function cardBack() {
  return h(
    "svg",
    { viewBox: "0 0 50 70", class: "card-face", "aria-hidden": "true", focusable: "false" },
    [
      h("rect", { x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 4.5, class: "card-back" }),
      h("rect", { x: 5, y: 5, width: 40, height: 60, rx: 3, class: "card-back-inner" }),
      pip("joker", 15, 25, 20, "rgba(255,255,255,.55)"),
    ],
  );
}
