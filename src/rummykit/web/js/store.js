// What every page shares: the settings the player chose, and a way to draw the page again.

import { load, save } from "./api.js";

export const settings = {
  fourColours: load("fourColours", false),
  name: load("name", ""),
};

export function setSetting(key, value) {
  settings[key] = value;
  save(key, value);
  rerender();
}

let renderer = null;
let queued = false;

export function setRenderer(fn) {
  renderer = fn;
}

/** Draw the page again (once, however many times it is asked for in one go). */
export function rerender() {
  if (queued) return;
  queued = true;
  queueMicrotask(() => {
    queued = false;
    if (renderer) renderer();
  });
}
