// HTTP: docs/protocol.md's JSON requests, relative to the page (the server may sit under a path).

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error;
  }
}

export function apiUrl(path) {
  return new URL(path, document.baseURI).href;
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(apiUrl(path), init);
  } catch (err) {
    throw new ApiError(0, { error: "network", message: "network" });
  }
  const text = await answer.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (err) {
    data = null;
  }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return data;
}

// ------------------------------------------------------------------ what the browser keeps

const PREFIX = "rummykit.";

export function load(key, fallback) {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? fallback : JSON.parse(text);
  } catch (err) {
    return fallback;
  }
}

export function save(key, value) {
  try {
    if (value === undefined || value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch (err) {
    // private mode or full: the page still works, it only forgets
  }
}

/** The seat this browser holds at a table: {seat, token, name}, or null. */
export function seatOf(tableId) {
  return load("seat." + tableId, null);
}

export function keepSeat(tableId, seat) {
  save("seat." + tableId, seat && { kept: Date.now(), ...seat });
  // told to the account, if one is signed in (account.js)
  window.dispatchEvent(new CustomEvent("rummykit:seat", { detail: { id: tableId, seat } }));
}

/** Every seat this browser holds: [{id, seat, token, name, kept}] (the lobby's "my tables"). */
export function heldSeats() {
  const out = [];
  try {
    for (let k = 0; k < localStorage.length; k++) {
      const key = localStorage.key(k);
      if (!key || !key.startsWith(PREFIX + "seat.")) continue;
      const id = key.slice((PREFIX + "seat.").length);
      const seat = load("seat." + id, null);
      if (id && seat && typeof seat.token === "string" && Number.isInteger(seat.seat)) out.push({ ...seat, id });
    }
  } catch (err) {
    // no storage: no seats kept
  }
  return out;
}
