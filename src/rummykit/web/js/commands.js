// Keyboard play: the line typed is read by the server with the terminal's own grammar
// (POST /api/games/NAME/command, docs/playing.md): one grammar for both. The answer is an
// action, a command for the page, or why the line is neither. Whether the action is legal is
// the engine's word, later.

import { api } from "./api.js";
import { language } from "./i18n.js";

export class CommandError extends Error {}

/** What ``text`` means at a ``game`` table: {action} or {ui, cards?}; CommandError why not. */
export async function readCommand(text, game) {
  try {
    return await api("POST", `api/games/${encodeURIComponent(game)}/command`, { text, lang: language() });
  } catch (err) {
    throw new CommandError(err.message);
  }
}
