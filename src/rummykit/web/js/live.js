// The live connection of docs/protocol.md: hello, states, actions, errors, help requests.
//
// It never desyncs: every state carries the table's version; the log is kept by appending
// from log_start, and any gap asks for the whole state again (a hello). A dropped
// connection is opened again at once and then with a growing pause, and says hello with the
// last version seen; a connection that has been quiet for a while is asked for the state,
// so that a dead network is noticed even when the browser does not say so.

import { language } from "./i18n.js";

const QUIET = 25000; // ms without any message before the connection is asked for the state
const ANSWER = 10000; // ms the server has to answer that before the connection is dropped
const FATAL = new Set([4401, 4403, 4404, 4400]);

export class Live {
  constructor(tableId, token, onChange) {
    this.tableId = tableId;
    this.token = token;
    this.onChange = onChange;
    this.status = "connecting"; // connecting, open, reconnecting, closed
    this.fatal = null; // an error that ends the connection for good
    this.state = null;
    this.log = [];
    this.version = null;
    this.ws = null;
    this.refs = 0;
    this.waiting = new Map(); // ref -> {resolve, kind, version}
    this.attempt = 0;
    this.timer = null;
    this.lastHeard = Date.now();
    this.stopped = false;
    this.reconnects = 0;
    this.onOnline = () => this.soon(0);
    window.addEventListener("online", this.onOnline);
    window.addEventListener("focus", this.onOnline);
    this.watchdog = setInterval(() => this.check(), 2000);
    this.connect();
  }

  url() {
    const url = new URL(`api/tables/${encodeURIComponent(this.tableId)}/live`, document.baseURI);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this.dropped();
      return;
    }
    this.ws = ws;
    this.asked = null;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      ws.send(JSON.stringify({ type: "hello", token: this.token, version: this.version, lang: language() }));
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.asked = null;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      this.receive(message);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (FATAL.has(event.code)) {
        this.fatal = this.fatal || { code: String(event.code), message: "" };
        this.setStatus("closed");
        this.failAll();
        return;
      }
      this.dropped();
    };
    ws.onerror = () => {};
  }

  dropped() {
    this.failAll();
    if (this.stopped) return;
    this.setStatus("reconnecting");
    const pause = Math.min(8000, this.attempt === 0 ? 300 : 500 * 2 ** (this.attempt - 1));
    this.attempt += 1;
    this.soon(pause);
  }

  soon(ms) {
    if (this.stopped || this.fatal) return;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), ms);
  }

  /** Every 2 s: a quiet open connection is asked for the state; no answer drops it. */
  check() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.asked && now - this.asked > ANSWER) {
      this.ws = null;
      try {
        ws.close();
      } catch (err) {
        // already closing
      }
      this.dropped();
    } else if (!this.asked && now - this.lastHeard > QUIET) {
      this.asked = now;
      this.resync();
    }
  }

  resync() {
    this.sendRaw({ type: "hello", token: this.token, version: this.version, lang: language() });
  }

  setStatus(status) {
    if (this.status !== status) {
      this.status = status;
      this.onChange("status");
    }
  }

  receive(message) {
    if (message.type === "state") {
      this.attempt = 0;
      if (this.status !== "open") {
        if (this.status === "reconnecting") this.reconnects += 1;
        this.status = "open";
      }
      if (this.version !== null && message.version < this.version) return; // never go back
      const view = message.view;
      if (view) {
        if (message.log_start === 0) {
          this.log = view.log.slice();
        } else if (message.log_start === this.log.length) {
          this.log = this.log.concat(view.log);
        } else {
          this.resync(); // a gap: ask for everything again
          return;
        }
        message.view = { ...view, log: this.log };
      } else {
        this.log = [];
      }
      const newer = this.version !== message.version;
      this.version = message.version;
      this.state = message;
      for (const [ref, wait] of this.waiting) {
        if (wait.kind === "action" && message.version > wait.version) {
          this.waiting.delete(ref);
          wait.resolve({ type: "state" });
        }
      }
      this.onChange(newer ? "state" : "same");
      return;
    }
    if (message.type === "error" && ["not_found", "unauthorized", "bad_message"].includes(message.code) && !this.state && message.ref == null) {
      this.fatal = message;
      this.onChange("status");
    }
    const ref = message.ref;
    if (ref != null && this.waiting.has(ref)) {
      const wait = this.waiting.get(ref);
      this.waiting.delete(ref);
      wait.resolve(message);
      return;
    }
    if (message.type === "error") this.onChange("error", message);
  }

  failAll() {
    for (const [, wait] of this.waiting) wait.resolve({ type: "error", code: "offline", rule: null, message: "" });
    this.waiting.clear();
  }

  sendRaw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send a message and wait for its answer (a state for an action, else the same ref). */
  request(message) {
    const ref = ++this.refs;
    const kind = message.type === "action" || message.type === "next" ? "action" : message.type;
    return new Promise((resolve) => {
      if (!this.sendRaw({ ...message, ref })) {
        resolve({ type: "error", code: "offline", rule: null, message: "" });
        return;
      }
      this.waiting.set(ref, { resolve, kind, version: message.version });
    });
  }

  act(action) {
    return this.request({ type: "action", version: this.version, action });
  }

  next() {
    return this.request({ type: "next", version: this.version });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("focus", this.onOnline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this.failAll();
  }
}
