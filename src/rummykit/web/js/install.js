// The installed app: the service worker (sw.js) that keeps the page's own files for a fast
// start, and a start without a connection; and whether the page is connected at all, so that
// a page with no connection says so rather than showing what it had.

import { h } from "../vendor/preact/preact.module.js";
import { t } from "./i18n.js";
import { rerender } from "./store.js";

export const net = { online: navigator.onLine !== false, failed: false };

/** Register the service worker, and follow the browser's word on the network. */
export function startInstall() {
  window.addEventListener("online", () => {
    net.online = true;
    rerender();
  });
  window.addEventListener("offline", () => {
    net.online = false;
    rerender();
  });
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("sw.js").catch(() => {
      // no worker: the page works, only not offline
    });
  }
}

/** A request to the server failed for want of a network (true) or went through (false). */
export function setReachable(ok) {
  if (net.failed !== !ok) {
    net.failed = !ok;
    rerender();
  }
}

/** Whether the page is without a connection: the browser says so, or the server did not
 * answer at all. */
export function offline() {
  return !net.online || net.failed;
}

/** "No connection", where the page would show what the server says. */
export function NoConnection() {
  return h("section", { class: "no-connection", role: "status" }, [
    h("h2", null, t("No connection")),
    h("p", null, t("The server cannot be reached. The page tries again by itself, and shows the tables as soon as it is back.")),
  ]);
}
