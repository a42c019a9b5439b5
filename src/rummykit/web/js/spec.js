// What the server says of a game (GET /api/games/NAME): its line, house rules, the bots a
// table can seat, the contracts (K4), the command help, in the page's language. The page
// asks once per game and language; until the answer comes, specOf gives null and the page
// is drawn again when it does.

import { api } from "./api.js";
import { language } from "./i18n.js";
import { rerender } from "./store.js";

const known = new Map(); // "name|lang" -> the spec, or the request on its way

export function specOf(name) {
  const key = `${name}|${language()}`;
  const got = known.get(key);
  if (got && !(got instanceof Promise)) return got;
  if (!got) {
    known.set(
      key,
      api("GET", `api/games/${encodeURIComponent(name)}?lang=${language()}`)
        .then((spec) => {
          known.set(key, spec);
          rerender();
        })
        .catch(() => known.delete(key)),
    );
  }
  return null;
}

/** A bot level's name as the server says it ("girig"), else the level itself. */
export function botTitle(spec, level) {
  const bot = spec && spec.bots.find((b) => b.level === level);
  return bot ? bot.title : level;
}

/** A contract in words (the server's, in the page's language); ``fallback`` until then. */
export function contractWords(spec, deal, fallback) {
  return spec && spec.contracts && spec.contracts[deal] ? spec.contracts[deal].text : fallback || "";
}
