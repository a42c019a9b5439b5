// The log in words: every entry of a view's log (docs/bot-protocol.md) as a sentence.

import { compareCards, shortCard, shortCards } from "./cards.js";
import { t } from "./i18n.js";

/** The seven deals' contracts (K4). */
export const CONTRACTS = [
  { choices: [{ groups: 2, runs: 0 }], all_at_once: false },
  { choices: [{ groups: 1, runs: 1 }], all_at_once: false },
  { choices: [{ groups: 0, runs: 2 }], all_at_once: false },
  { choices: [{ groups: 3, runs: 0 }], all_at_once: false },
  { choices: [{ groups: 2, runs: 1 }], all_at_once: false },
  { choices: [{ groups: 1, runs: 2 }], all_at_once: false },
  { choices: [{ groups: 3, runs: 0 }, { groups: 0, runs: 3 }], all_at_once: true },
];

export function contractText(contract) {
  if (!contract) return "";
  const parts = contract.choices.map((choice) => {
    const bits = [];
    if (choice.groups === 1) bits.push(t("1 group"));
    else if (choice.groups > 1) bits.push(t("{n} groups", { n: choice.groups }));
    if (choice.runs === 1) bits.push(t("1 run"));
    else if (choice.runs > 1) bits.push(t("{n} runs", { n: choice.runs }));
    return bits.join(" + ");
  });
  const text = parts.join(" " + t("or") + " ");
  return contract.all_at_once ? t("{contract}, all at once", { contract: text }) : text;
}

function who(names, seat) {
  return names[seat] == null ? t("seat {n}", { n: seat + 1 }) : names[seat];
}

function meldsText(melds) {
  return melds.map(shortCards).join(" · ");
}

/** One log entry as a sentence; names are the players' names by seat. */
export function entryText(entry, names) {
  const name = entry.seat !== undefined ? who(names, entry.seat) : "";
  switch (entry.type) {
    case "play": {
      const cards = shortCards(entry.add.slice().sort((a, b) => compareCards(a, b, "suit")));
      if (entry.opening) return t("{name} opened with {cards}", { name, cards });
      return t("{name} played {cards}", { name, cards });
    }
    case "draw":
      if (entry.from === "discard") {
        const card = entry.shown && entry.shown.length ? shortCard(entry.shown[0]) : "";
        return t("{name} took {card} from the discard pile", { name, card });
      }
      if (entry.card) return t("{name} drew {card} from the stock", { name, card: shortCard(entry.card) });
      if (entry.drawn) return t("{name} drew {card} from the stock", { name, card: shortCard(entry.drawn) });
      return t("{name} drew from the stock", { name });
    case "pass":
      return t("{name} passed (the stock is empty)", { name });
    case "deal_start":
      return t("Deal {n} begins: {name} deals, the contract is {contract}, the upcard is {card}", {
        n: entry.deal + 1,
        name: who(names, entry.dealer),
        contract: contractText(CONTRACTS[entry.deal]) || entry.contract,
        card: shortCard(entry.upcard),
      });
    case "take_upcard":
      return t("{name} took the upcard {card}", { name, card: shortCards(entry.shown || []) });
    case "decline_upcard":
      return t("{name} declined the upcard", { name });
    case "buy_upcard":
      return t("{name} bought the upcard {card} and took a penalty card from the stock", {
        name,
        card: shortCard((entry.shown || ["?"])[0]),
      });
    case "pass_upcard":
      return t("{name} did not want the upcard", { name });
    case "meld":
      return t("{name} laid down {melds}", { name, melds: meldsText(entry.melds) });
    case "layoff":
      return t("{name} laid {card} off on meld #{n}", { name, card: shortCard(entry.card), n: entry.meld });
    case "swap_joker":
      return t("{name} put {card} in place of the joker in meld #{n} and took the joker", {
        name,
        card: shortCard(entry.card),
        n: entry.meld,
      });
    case "discard":
      return t("{name} discarded {card}", { name, card: shortCard(entry.card) });
    case "deal_end":
      if (entry.reason === "out" && entry.out !== null && entry.out !== undefined) {
        return t("{name} went out: deal {n} is over", { name: who(names, entry.out), n: entry.deal + 1 });
      }
      return t("Deal {n} is over: no card is left to draw", { n: entry.deal + 1 });
    default:
      return entry.type;
  }
}

/** Why a Vatikanen game ended, in words. */
export function vatikanenEnd(end, names) {
  if (!end) return "";
  if (end.reason === "out") return t("{name} went out", { name: who(names, end.winners[0]) });
  if (end.reason === "blocked") {
    const winners = end.winners.map((s) => who(names, s)).join(", ");
    return t("Everyone passed with an empty stock: the lowest hand wins ({names})", { names: winners });
  }
  return t("Everyone passed with an empty stock: nobody wins");
}

export function botLevelName(level) {
  return (
    {
      random: t("random (plays any legal move)"),
      greedy: t("greedy (plays the most cards it can)"),
      strong: t("strong (plans ahead)"),
      basic: t("basic (collects its contract)"),
    }[level] || level
  );
}

export function gameTitle(name) {
  return { vatikanen: t("Vatikanen"), kontrakt: t("Kontraktsrummy") }[name] || name;
}

export function gameBlurb(name) {
  return (
    {
      vatikanen: t("2-5 players: lay runs and groups on a shared table that anyone may rearrange; the first to empty the hand wins."),
      kontrakt: t("2-8 players, seven deals, each with its contract of groups and runs; the lowest penalty total wins."),
    }[name] || ""
  );
}

/** A house rule's one-line explanation, by its name (the server's summary otherwise). */
export function houseRuleText(rule) {
  return (
    {
      free_jokers: t("table jokers move freely as wild cards when the table is rearranged"),
      blocked_game: t("when everyone passes with an empty stock, the lowest hand wins the differences"),
      reshuffle_stock: t("an empty stock is refilled from the discard pile (off: the deal ends there)"),
      rediscard_pickup: t("a card taken from the discard pile may be discarded again the same turn"),
    }[rule.name] || rule.summary
  );
}

export function houseRuleName(rule) {
  return (
    {
      free_jokers: t("Free jokers"),
      blocked_game: t("Blocked game"),
      reshuffle_stock: t("Reshuffle the pile"),
      rediscard_pickup: t("Discard the card taken"),
    }[rule.name] || rule.name
  );
}
