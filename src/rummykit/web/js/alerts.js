// "Your turn", told to a player whose page is hidden (another tab, the phone's screen off):
// the tab's title and icon change, a short sound plays (off by default: a switch), a system
// notification comes (if the player allowed it: asked only when they turn the bell on), and
// a phone vibrates. Only when the player's own seat comes to act: never for another
// player's move. The title and icon come back when the page is seen again.

import { h } from "../vendor/preact/preact.module.js";
import { load, save } from "./api.js";
import { t } from "./i18n.js";
import { rerender } from "./store.js";

export const alertSettings = {
  sound: load("turnSound", false),
  notify: load("turnNotify", false),
};

const toAct = new Map(); // key ("table:ID") -> whether the player's seat was to act, last seen
let shown = null; // {key, title, base} while the title says "your turn"
let problem = null; // why the bell could not be turned on
let audio = null; // the AudioContext, made on a gesture (browsers allow sound after one)

/** Whether a state asks its receiver's seat to act: its turn, or (Kontrakt) the upcard
 * offered to it. */
export function mustAct(state) {
  if (!state || state.status !== "playing" || state.seat === null || state.seat === undefined || !state.view) return false;
  const view = state.view;
  if (view.phase === "upcard_offer") return view.offer_to === state.seat;
  if (view.phase && view.phase !== "draw" && view.phase !== "play") return false;
  return view.turn === state.seat && !view.end;
}

/** Tell ``key``'s news: ``acting`` is whether the player's seat is to act there now. When it
 * becomes so (not on the first look: a page opened on its turn is no news) and the page is
 * hidden, the player is told; when it no longer is, the title comes back. */
export function seeTurn(key, acting, what) {
  const before = toAct.get(key);
  toAct.set(key, acting);
  if (!acting) {
    if (shown && shown.key === key) restore();
    return;
  }
  if (before === false && document.visibilityState === "hidden") tell(key, what || {});
}

/** Forget ``key`` (its page is left): the next look at it is a first look again. */
export function forgetTurn(key) {
  toAct.delete(key);
  if (shown && shown.key === key) restore();
}

function tell(key, { title, body, url }) {
  const heading = title || t("Your turn");
  if (!shown) shown = { key, base: document.title };
  shown.key = key;
  document.title = "● " + heading;
  setIcon("icon-turn.svg");
  if (alertSettings.sound) beep();
  if (alertSettings.notify && notificationsAllowed()) notify(heading, body || "", url || location.href, key);
  try {
    if (navigator.vibrate) navigator.vibrate([150, 80, 150]);
  } catch (err) {
    // no vibration here
  }
}

function restore() {
  if (!shown) return;
  document.title = shown.base;
  shown = null;
  setIcon("icon.svg");
}

function setIcon(href) {
  const link = document.querySelector("link[rel=icon]");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The page's title as it is when the player looks (the app sets it; "your turn" aside). */
export function setBaseTitle(text) {
  if (shown) shown.base = text;
  else document.title = text;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") {
    restore();
    closeNotifications();
  }
});

// ------------------------------------------------------------------ the notification

function notificationsAllowed() {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

async function notify(title, body, url, tag) {
  const options = { body, tag, renotify: true, icon: "icon-192.png", badge: "icon-192.png", data: { url } };
  try {
    // with a service worker (a phone's installed app) only the worker may show one
    const registration = navigator.serviceWorker && (await navigator.serviceWorker.getRegistration());
    if (registration && registration.active) {
      await registration.showNotification(title, options);
      return;
    }
  } catch (err) {
    // fall back on the page's own
  }
  try {
    const note = new Notification(title, options);
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch (err) {
    // not allowed here after all
  }
}

async function closeNotifications() {
  try {
    const registration = navigator.serviceWorker && (await navigator.serviceWorker.getRegistration());
    if (!registration) return;
    for (const note of await registration.getNotifications()) if (String(note.tag).startsWith("table:")) note.close();
  } catch (err) {
    // nothing to close
  }
}

async function switchNotify() {
  problem = null;
  if (alertSettings.notify) {
    alertSettings.notify = false;
  } else if (typeof Notification === "undefined") {
    problem = t("This browser shows no notifications.");
  } else {
    // asked only here, on the player's own tap
    const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    if (answer === "granted") alertSettings.notify = true;
    else problem = t("Notifications are blocked for this site: allow them in the browser's settings.");
  }
  save("turnNotify", alertSettings.notify);
  rerender();
}

// ------------------------------------------------------------------ the sound

function soundContext() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Two short soft notes, made here (no sound file): a rising "ding-dong". */
export function beep() {
  const ctx = soundContext();
  if (!ctx) return;
  const start = ctx.currentTime + 0.02;
  [
    [659.25, 0],
    [987.77, 0.16],
  ].forEach(([frequency, after]) => {
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + after);
    gain.gain.exponentialRampToValueAtTime(0.3, start + after + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + after + 0.3);
    tone.connect(gain);
    gain.connect(ctx.destination);
    tone.start(start + after);
    tone.stop(start + after + 0.32);
  });
}

function switchSound() {
  alertSettings.sound = !alertSettings.sound;
  save("turnSound", alertSettings.sound);
  if (alertSettings.sound) beep(); // this is the sound (and the tap lets the page play it)
  rerender();
}

// a browser lets a page play sound after a gesture: the first one on a page with the sound on
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => alertSettings.sound && soundContext(), { capture: true, passive: true });
}

// ------------------------------------------------------------------ the switches

/** A small icon drawn here (no font has every symbol): a bell or a loudspeaker, struck
 * through when off. */
function Icon({ kind, on }) {
  const paths = {
    bell: "M12 3a5 5 0 0 0-5 5v4.5L5 16h14l-2-3.5V8a5 5 0 0 0-5-5zM9.8 18a2.2 2.2 0 0 0 4.4 0z",
    sound: "M3 9h4l5-4v14l-5-4H3z",
  };
  return h("svg", { class: "icon", viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true" }, [
    h("path", { d: paths[kind], fill: "currentColor" }),
    kind === "sound" && on ? h("path", { d: "M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }) : null,
    on ? null : h("path", { d: "M4 4l16 16", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round" }),
  ]);
}

/** The bell (notifications) and the sound switches, with a line when the bell cannot ring. */
export function AlertSwitches() {
  const bell = alertSettings.notify && notificationsAllowed();
  return h("span", { class: "alert-switches", role: "group", "aria-label": t("When it is my turn") }, [
    h(
      "button",
      {
        type: "button",
        class: "chip bell" + (bell ? " on" : ""),
        "aria-pressed": bell ? "true" : "false",
        title: t("A notification when it is your turn and this page is not in view"),
        onClick: switchNotify,
      },
      [h(Icon, { kind: "bell", on: bell }), h("span", { class: "label" }, t("Notify me"))],
    ),
    h(
      "button",
      {
        type: "button",
        class: "chip sound" + (alertSettings.sound ? " on" : ""),
        "aria-pressed": alertSettings.sound ? "true" : "false",
        title: t("A short sound when it is your turn and this page is not in view"),
        onClick: switchSound,
      },
      [h(Icon, { kind: "sound", on: alertSettings.sound }), h("span", { class: "label" }, t("Sound"))],
    ),
    problem ? h("span", { class: "alert-problem small", role: "alert" }, problem) : null,
  ]);
}
