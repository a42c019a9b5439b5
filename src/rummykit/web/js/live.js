// The live connection of docs/protocol.md: hello, states, actions, errors, help requests,
// chat (handed to the page as they come).
//
// It never desyncs: every state carries the table's version; the log is kept by appending
// from log_start, and any gap asks for the whole state again (a hello). A dropped
// connection is opened again at once and then with a growing pause, and says hello with the
// last version seen.
//
// The heartbeat (PROTOCOL.md): the server speaks at least every 5 s (a ping when it has
// nothing else); the page pings too when it has heard nothing for 5 s, and a connection
// silent for 12 s is lost: it is closed and opened again, and the page says so meanwhile.
//
// An action is never applied twice: it carries the version it was made on, and the server
// applies it only on that version. Its answer is the state that holds it (the server echoes
// its "ref", or the log shows it), or its error. When the connection is lost while an action
// is on its way, the first state after the reconnection says whether it arrived: if its log
// holds it, it did ("state"); if the table is still at the action's version, it is sent
// again on the new connection with the same version, so that whichever copy comes first is
// applied and the other is stale; if the table moved on without it, it can never arrive (an
// error "lost"). An action asked for while the page is not connected is refused at once
// ("offline": nothing was sent).

import { load } from "./api.js";
import { language } from "./i18n.js";

const BEAT = load("heartbeat", null); // tests may shorten the heartbeat: {ping, silence} in ms
const PING = (BEAT && BEAT.ping) || 5000; // ms of silence before the page pings
const SILENCE = (BEAT && BEAT.silence) || 12000; // ms of silence before the connection is lost
const OPENING = 10000; // ms a connection may take to open
const FATAL = new Set([4401, 4403, 4404, 4400]);

/** Whether a log entry is the action ``action`` of ``seat`` (what the page sent). */
export function sameAction(entry, action, seat) {
  if (!entry || entry.seat !== seat || entry.type !== action.type) return false;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const plain = (cards) => (cards || []).map((c) => (String(c).startsWith("*") ? "*" : c)).sort();
  switch (action.type) {
    case "play":
      return same(plain(entry.add), plain(action.add));
    case "discard":
    case "layoff":
    case "swap_joker":
      return entry.card === action.card;
    case "draw":
      return !action.from || !entry.from || entry.from === action.from;
    case "meld":
      return same(
        entry.melds.map(plain).sort(),
        action.melds.map(plain).sort(),
      );
    default:
      return true;
  }
}

export class Live {
  constructor(tableId, token, onChange) {
    this.tableId = tableId;
    this.token = token;
    this.onChange = onChange;
    this.status = "connecting"; // connecting, open, reconnecting, closed
    this.fatal = null; // an error that ends the connection for good
    this.state = null;
    this.log = [];
    this.logText = [];
    this.version = null;
    this.ws = null;
    this.refs = 0;
    this.answered = new Set(); // refs of actions sent twice, settled by a state: a late "stale" is not news
    this.waiting = new Map(); // ref -> {resolve, kind, version, action, logSize, games}
    this.attempt = 0;
    this.timer = null;
    this.lastHeard = Date.now();
    this.opened = 0;
    this.pinged = 0;
    this.stopped = false;
    this.reconnects = 0;
    this.onOnline = () => this.soon(0);
    window.addEventListener("online", this.onOnline);
    window.addEventListener("focus", this.onOnline);
    this.watchdog = setInterval(() => this.check(), Math.min(250, PING / 2)); // a loss is said within 12.25 s
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
    this.opened = Date.now();
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.pinged = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token, version: this.version, lang: language() }));
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.pinged = 0;
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
        this.failAll("offline");
        return;
      }
      this.dropped();
    };
    ws.onerror = () => {};
  }

  /** The connection is gone: what was asked of it has no answer; open it again soon. */
  dropped() {
    this.failHelp();
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

  /** The heartbeat: a quiet connection is pinged; a silent one, or one that does not open,
   * is lost. */
  check() {
    const now = Date.now();
    const ws = this.ws;
    if (!ws) return;
    const stuck = ws.readyState === WebSocket.CONNECTING && now - this.opened > OPENING;
    const silent = ws.readyState === WebSocket.OPEN && now - this.lastHeard > SILENCE;
    if (stuck || silent) {
      this.ws = null;
      try {
        ws.close();
      } catch (err) {
        // already closing
      }
      this.dropped();
    } else if (ws.readyState === WebSocket.OPEN && now - this.lastHeard > PING && now - this.pinged > PING) {
      this.pinged = now;
      this.sendRaw({ type: "ping", ref: "ping" });
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
    if (message.type === "ping" || message.type === "pong") return;
    if (message.ref === "ping") return; // a server without the heartbeat answers a ping so
    if (message.type === "state") {
      this.attempt = 0;
      if (this.status !== "open") {
        if (this.status === "reconnecting") this.reconnects += 1;
        this.status = "open";
      }
      if (this.version !== null && message.version < this.version) return; // never go back
      const view = message.view;
      const told = message.log_text || []; // the same entries in words (rummykit.narration)
      if (view) {
        if (message.log_start === 0) {
          this.log = view.log.slice();
          this.logText = told.slice();
        } else if (message.log_start === this.log.length) {
          this.log = this.log.concat(view.log);
          this.logText = this.logText.concat(told);
        } else {
          this.resync(); // a gap: ask for everything again
          return;
        }
        message.view = { ...view, log: this.log };
        message.log_text = this.logText;
      } else {
        this.log = [];
        this.logText = [];
      }
      const newer = this.version !== message.version;
      this.version = message.version;
      this.state = message;
      this.settle(message);
      this.onChange(newer ? "state" : "same");
      return;
    }
    if (message.type === "chat" || message.type === "chat_history") this.onChange(message.type, message);
    if (message.type === "error" && ["not_found", "unauthorized", "bad_message"].includes(message.code) && !this.state && message.ref == null) {
      this.fatal = message;
      this.onChange("status");
    }
    const ref = message.ref;
    if (ref != null && this.answered.has(ref)) {
      this.answered.delete(ref); // the other copy of an action sent twice: already settled
      return;
    }
    if (ref != null && this.waiting.has(ref)) {
      const wait = this.waiting.get(ref);
      if (wait.lost && message.type === "error" && message.code === "stale") return; // the first copy came first: its state settles it
      this.waiting.delete(ref);
      wait.resolve(message);
      return;
    }
    if (message.type === "error") this.onChange("error", message);
  }

  /** Which of the actions on their way a state answers: the one it echoes the ref of, or
   * the one its log shows. One lost with its connection and not yet shown is sent again on
   * this connection with its own version (the server applies at most one copy), or, when
   * the table moved on without it, can never arrive. */
  settle(state) {
    for (const [ref, wait] of this.waiting) {
      if (wait.kind !== "action") continue;
      let done = state.ref === ref;
      if (!done && state.version > wait.version) {
        if (wait.action) {
          const since = wait.games === state.games_played ? this.log.slice(wait.logSize) : [];
          done = since.some((entry) => sameAction(entry, wait.action, state.seat));
        } else {
          done = state.games_played > wait.games; // "next": the next game began
        }
      }
      if (done) {
        this.waiting.delete(ref);
        if (wait.lost) {
          if (this.answered.size > 20) this.answered.clear(); // kept for a moment, not for ever
          this.answered.add(ref); // a copy's "stale" may still come: not news
        }
        wait.resolve({ type: "state", late: !!wait.lost });
      } else if (wait.lost && state.version > wait.version) {
        this.waiting.delete(ref);
        wait.resolve({ type: "error", code: "lost", rule: null, message: "" });
      } else if (wait.lost && wait.sentOn !== this.ws && this.ws) {
        wait.sentOn = this.ws; // the table is still at its version: send it again
        const again = wait.action
          ? { type: "action", version: wait.version, action: wait.action, ref }
          : { type: "next", version: wait.version, ref };
        this.sendRaw(again);
      }
    }
  }

  /** Requests for help (check, hint, arrange) lost with their connection are answered
   * "offline"; actions wait for the next state to say whether they arrived. */
  failHelp() {
    for (const [ref, wait] of this.waiting) {
      if (wait.kind === "action") {
        if (!wait.lost) {
          wait.lost = true;
          this.onChange("lost");
        }
      } else {
        this.waiting.delete(ref);
        wait.resolve({ type: "error", code: "offline", rule: null, message: "" });
      }
    }
  }

  failAll(code) {
    for (const [, wait] of this.waiting) wait.resolve({ type: "error", code, rule: null, message: "" });
    this.waiting.clear();
  }

  /** Whether an action is on its way with its answer unknown (its connection was lost). */
  inDoubt() {
    for (const [, wait] of this.waiting) if (wait.lost) return true;
    return false;
  }

  sendRaw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send a message and wait for its answer (a state for an action, else the same ref: a
   * chat message's own copy, a help's answer, or an error). */
  request(message) {
    const ref = ++this.refs;
    const kind = message.type === "action" || message.type === "next" ? "action" : message.type;
    return new Promise((resolve) => {
      if (this.status !== "open" || !this.sendRaw({ ...message, ref })) {
        resolve({ type: "error", code: "offline", rule: null, message: "" });
        return;
      }
      this.waiting.set(ref, {
        resolve,
        kind,
        version: message.version,
        action: message.action || null,
        logSize: this.log.length,
        sentOn: this.ws,
        games: this.state ? this.state.games_played : 0,
      });
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
    this.failAll("offline");
  }
}
