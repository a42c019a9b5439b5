// Words the page shows that are not a sentence of the catalog: the games' names, and the
// cards in text the server sends (its log in words, its errors) as people read them.
// The log is told by the server (rummykit.narration, the same words as the terminal's).

import { shortCard } from "./cards.js";
import { t } from "./i18n.js";

export function gameTitle(name) {
  return { vatikanen: t("Vatikanen"), kontrakt: t("Kontraktsrummy") }[name] || name;
}

// a card as the engine writes it (7h, Ts, *:5d, *:9) standing alone in a sentence
const CARD = /(^|[\s(:,|])(\*:[2-9TJQKA][cdhs]?|\*|[2-9TJQKA][cdhs])(?=$|[\s),.;:|])/g;

/**
 * A text of the server as shown: cards written as the engine writes them (2s 5s Kc) turned
 * into their symbols (2♠ 5♠ K♣), and every suit sign drawn as text, not as a coloured emoji.
 */
export function shownText(text) {
  return String(text == null ? "" : text)
    .replace(CARD, (whole, before, card) => (before === "" && card === "As" ? whole : before + shortCard(card)))
    .replace(/([♣♦♥♠])(?!\uFE0E)/g, "$1\uFE0E");
}

/**
 * A message of the engine shown on its own (an error, a verdict): its text as
 * :func:`shownText` shows it, begun with a capital as a sentence is (the engine writes its
 * messages to stand after a rule id or inside another sentence, so in lower case).
 */
export function shownSentence(text) {
  const shown = shownText(text);
  return shown.charAt(0).toLocaleUpperCase() + shown.slice(1);
}
