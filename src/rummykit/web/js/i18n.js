// Swedish and English: t("English text {name}", {name}) looks the text up in the catalog
// made from src/rummykit/i18n/locales/LANG/LC_MESSAGES/web.po (tools/i18n.py compile).

export const LANGUAGES = ["sv", "en"];

let catalog = {};
let current = "en";

/** The language to use: the player's choice, else the browser's first known language. */
export function chosenLanguage() {
  const saved = localStorage.getItem("rummykit.lang");
  if (LANGUAGES.includes(saved)) return saved;
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of tags) {
    const head = String(tag).toLowerCase().split("-")[0].split("_")[0];
    if (LANGUAGES.includes(head)) return head;
  }
  return "en";
}

export async function loadLanguage(code) {
  let entries = {};
  try {
    const answer = await fetch(`i18n/${code}.json`);
    if (answer.ok) entries = await answer.json();
  } catch (err) {
    entries = {};
  }
  catalog = entries;
  current = code;
  document.documentElement.lang = code;
}

export function language() {
  return current;
}

export function t(message, params) {
  let text = catalog[message] || message;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
  }
  return text;
}
