// The pieces every page uses: a card, a hand kept in the player's order, a dialog.

import { h } from "../vendor/preact/preact.module.js";
import { useEffect, useRef } from "../vendor/preact/hooks.module.js";
import { load, save } from "./api.js";
import { cardFace, cardName, compareCards } from "./cards.js";
import { pointerDown } from "./drag.js";
import { t } from "./i18n.js";
import { settings } from "./store.js";

/**
 * A card as a button: tap or click (or Enter / Space) calls onTap; with drag, a pointer that
 * moves drags it (drag: the payload handed to the drop handler).
 */
export function Card({ card, selected, onTap, drag, slot, id, extra, disabled, title }) {
  const props = {
    type: "button",
    class: "card" + (selected ? " selected" : "") + (extra ? " " + extra : "") + (drag ? " draggable" : ""),
    "aria-label": title || cardName(card),
    "data-card": card,
    onClick: onTap && !disabled ? () => onTap() : undefined,
    disabled: disabled || undefined,
  };
  if (onTap) props["aria-pressed"] = selected ? "true" : "false";
  if (slot !== undefined) props["data-slot"] = String(slot);
  if (id) props["data-id"] = id;
  if (drag && !disabled) props.onPointerDown = (event) => pointerDown(event, drag);
  return h("button", props, cardFace(card, { fourColours: settings.fourColours }));
}

/**
 * A board's action button (both games' boards, and the puzzles and lessons that reuse them).
 * With a reason it cannot be pressed now (why), it is greyed with aria-disabled, not disabled:
 * a phone shows no tooltip (issue 45), so a tap (or Enter, Space) reaches it and says the
 * reason in the dock's message line (ctx.notify) instead of acting. It stays in the tab
 * order, a screen reader hears it unavailable and the reason as its description (title).
 */
export function actionButton(ctx, { why, title, onClick, ...props }, label) {
  if (!why) return h("button", { type: "button", ...props, title, onClick }, label);
  const explain = (event) => {
    event.preventDefault();
    ctx.notify(why);
    // a dock taller than its room scrolls: its message line, at its top, is brought in view
    requestAnimationFrame(() => {
      const line = document.querySelector(".dock .notice-line");
      if (line) line.scrollIntoView({ block: "nearest" });
    });
  };
  return h("button", { type: "button", ...props, title: why, "aria-disabled": "true", onClick: explain }, label);
}

/** A card that is only shown (a replay, another player's meld): no button. */
export function StaticCard({ card, extra }) {
  return h(
    "span",
    { class: "card static" + (extra ? " " + extra : ""), role: "img", "aria-label": cardName(card), "data-card": card },
    cardFace(card, { fourColours: settings.fourColours }),
  );
}

/**
 * The order the player keeps the hand in, across turns and reloads: sorted by suit, by rank,
 * or the player's own order (cards drawn since go to the end).
 */
export class HandOrder {
  constructor(key) {
    this.key = key;
    const saved = load(key, null);
    this.mode = saved && ["suit", "rank", "own"].includes(saved.mode) ? saved.mode : "suit";
    this.cards = saved && Array.isArray(saved.cards) ? saved.cards : [];
  }

  /** The hand's indexes in the order to show them. */
  arrange(hand) {
    const indexes = hand.map((_, i) => i);
    if (this.mode !== "own") {
      return indexes.sort((a, b) => compareCards(hand[a], hand[b], this.mode) || a - b);
    }
    const used = new Set();
    const out = [];
    for (const card of this.cards) {
      const i = indexes.find((k) => !used.has(k) && hand[k] === card);
      if (i !== undefined) {
        used.add(i);
        out.push(i);
      }
    }
    for (const i of indexes) if (!used.has(i)) out.push(i);
    return out;
  }

  setMode(mode, hand) {
    if (mode === "own" && hand) this.cards = this.arrange(hand).map((i) => hand[i]);
    this.mode = mode;
    this.keep();
  }

  /** Move hand cards ``moving`` (indexes) to stand before display position ``before``. */
  move(hand, moving, before) {
    const order = this.arrange(hand);
    const set = new Set(moving);
    let at = 0;
    for (let k = 0; k < Math.min(before, order.length); k++) if (!set.has(order[k])) at++;
    const rest = order.filter((i) => !set.has(i));
    const kept = order.filter((i) => set.has(i));
    rest.splice(at, 0, ...kept);
    this.cards = rest.map((i) => hand[i]);
    this.mode = "own";
    this.keep();
  }

  keep() {
    save(this.key, { mode: this.mode, cards: this.cards });
  }
}

export function SortButtons({ order, hand, onChange }) {
  const button = (mode, label) =>
    h(
      "button",
      {
        type: "button",
        class: "chip" + (order.mode === mode ? " on" : ""),
        "aria-pressed": order.mode === mode ? "true" : "false",
        onClick: () => {
          order.setMode(mode, hand);
          onChange();
        },
      },
      label,
    );
  return h("div", { class: "sort", role: "group", "aria-label": t("Sort the hand") }, [
    button("suit", t("By suit")),
    button("rank", t("By rank")),
    button("own", t("My order")),
  ]);
}

/** A dialog over the page; Escape or the close button closes it. */
export function Modal({ title, onClose, children, wide }) {
  const ref = useRef(null);
  useEffect(() => {
    const key = (event) => {
      if (event.key === "Escape" && onClose) onClose();
    };
    document.addEventListener("keydown", key);
    if (ref.current) ref.current.focus();
    return () => document.removeEventListener("keydown", key);
  }, []);
  return h("div", { class: "modal-back", onClick: (e) => e.target === e.currentTarget && onClose && onClose() }, [
    h("div", { class: "modal" + (wide ? " wide" : ""), role: "dialog", "aria-modal": "true", "aria-label": title, tabIndex: -1, ref }, [
      h("div", { class: "modal-head" }, [
        h("h2", null, title),
        onClose ? h("button", { type: "button", class: "close", "aria-label": t("Close"), onClick: onClose }, "×") : null,
      ]),
      h("div", { class: "modal-body" }, children),
    ]),
  ]);
}

export function plural(n, one, many) {
  return n === 1 ? one : many;
}

/** "1 card", "7 cards": a hand's size in words. */
export function cardCount(n) {
  return n === 1 ? t("1 card") : t("{n} cards", { n });
}

/** One numbered line of a log: the number is text of its own, so that a wide one (100 and
 * up) is never cut at the panel's edge. */
export function LogLine({ n, entry, text, current }) {
  return h("li", { class: "log-" + entry.type + (current ? " current" : "") }, [h("span", { class: "log-no", "aria-hidden": "true" }, String(n)), h("span", { class: "log-text" }, text)]);
}

/**
 * Bring the last element of ``selector`` into view above the dock once the page is drawn:
 * the dock stays at the bottom of the view (sticky), and what it covers cannot be seen (a
 * meld just built, with its verdict: issue 45). Nothing moves when it is already in view.
 */
export function showAboveDock(selector) {
  const reveal = () => {
    const found = document.querySelectorAll(selector);
    const el = found[found.length - 1];
    const dock = document.querySelector(".dock");
    if (!el || !dock) return;
    const box = el.getBoundingClientRect();
    const room = dock.getBoundingClientRect().top - 8;
    if (box.bottom > room) window.scrollBy(0, Math.min(box.bottom - room, box.top - 8));
    else if (box.top < 0) window.scrollBy(0, box.top - 8);
  };
  // after the page is drawn again (a microtask), at the next frame
  requestAnimationFrame(reveal);
}
