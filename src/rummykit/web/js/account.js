// An optional account (docs/accounts.md): sign up, sign in with a password or a passkey,
// sign out, delete; and "my tables" following the account: signing in adopts the seats this
// browser holds (POST api/account/seats), and the seats the account holds elsewhere are kept
// in this browser too (GET api/account/seats), so the lobby's "My tables" lists them. Playing
// never needs an account: without one nothing here is asked of the server but "who am I".

import { h } from "../vendor/preact/preact.module.js";
import { useState } from "../vendor/preact/hooks.module.js";
import { api, heldSeats, keepSeat, load, save, seatOf } from "./api.js";
import { t } from "./i18n.js";
import { rerender } from "./store.js";

export const account = { me: null, loaded: false };

let syncing = false;

/** Ask the server who is signed in here (null: nobody); unless ``always``, only if this
 * browser has signed in before (``rummykit.account``), so that a page of a player who never
 * signed in asks nothing more of the server than it did before accounts. */
export async function refreshAccount(always) {
  if (!always && !load("account", false)) {
    account.loaded = true;
    return;
  }
  try {
    account.me = await api("GET", "api/account/me");
  } catch (err) {
    account.me = null;
  }
  save("account", account.me ? true : null);
  account.loaded = true;
  if (account.me) await syncSeats();
  rerender();
}

/** This browser's seats go to the account, and the account's seats come to this browser. */
async function syncSeats() {
  try {
    const held = heldSeats().map((s) => ({ table: s.id, seat: s.seat, token: s.token }));
    for (let k = 0; k < held.length; k += 100) await api("POST", "api/account/seats", { seats: held.slice(k, k + 100) });
    const answer = await api("GET", "api/account/seats");
    syncing = true;
    for (const s of answer.seats) {
      const here = seatOf(s.table);
      if (!here || here.token !== s.token) keepSeat(s.table, { seat: s.seat, token: s.token, name: null });
    }
  } catch (err) {
    // the tables stay in this browser; the next sign-in tries again
  } finally {
    syncing = false;
  }
}

// a seat taken (or forgotten) in this browser while signed in goes to the account at once
window.addEventListener("rummykit:seat", (event) => {
  if (syncing || !account.me) return;
  const { id, seat } = event.detail;
  const call = seat
    ? api("POST", "api/account/seats", { seats: [{ table: id, seat: seat.seat, token: seat.token }] })
    : api("POST", "api/account/seats/forget", { table: id });
  call.catch(() => {});
});

/** The header's link: the account's name, or "Sign in". */
export function AccountLink() {
  const label = account.me ? account.me.name : t("Sign in");
  return h("a", { class: "account-link", href: "#/account", title: account.me ? t("Your account") : t("Sign in or make an account") }, label);
}

/** The lobby's line with the same link, for a phone, whose header has no room for it. */
export function LobbyAccount() {
  return h("p", { class: "lobby-account" }, h(AccountLink, null));
}

function problemText(err) {
  const known = {
    bad_login: t("Wrong name or password."),
    rate_limited: t("Too many tries. Wait a minute and try again."),
    name_taken: t("That name (or one that looks like it) has an account already."),
    not_signed_in: t("You are not signed in."),
    bad_passkey: t("The passkey was not accepted."),
    unavailable: t("The server is busy. Try again in a moment."),
    network: t("No connection to the server."),
  };
  return known[err.code] || err.message;
}

// ------------------------------------------------------------------ passkeys (WebAuthn)

export function passkeysWork() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function fromB64(text) {
  const base = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base + "=".repeat((4 - (base.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  const bytes = new Uint8Array(buffer);
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(options) {
  return {
    ...options,
    challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function requestOptions(options) {
  return {
    ...options,
    challenge: fromB64(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function credentialJson(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    if (r.userHandle) response.userHandle = toB64(r.userHandle);
  }
  return { id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response, clientExtensionResults: {} };
}

async function addPasskey() {
  const begun = await api("POST", "api/account/passkey/register/begin", {});
  const cred = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
  await api("POST", "api/account/passkey/register/finish", { challenge: begun.challenge, credential: credentialJson(cred) });
}

async function passkeySignIn() {
  const begun = await api("POST", "api/account/passkey/login/begin", {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
  return api("POST", "api/account/passkey/login/finish", { challenge: begun.challenge, credential: credentialJson(cred) });
}

// ------------------------------------------------------------------ the page

function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(null);
  const [done, setDone] = useState(null);
  const run = async (fn, doneText) => {
    setBusy(true);
    setProblem(null);
    setDone(null);
    try {
      await fn();
      if (doneText) setDone(doneText);
    } catch (err) {
      if (err && err.name === "NotAllowedError") setProblem(t("The passkey was cancelled."));
      else setProblem(err && err.code !== undefined ? problemText(err) : t("The passkey was not accepted."));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, done, run };
}

function Feedback({ action }) {
  return [
    action.problem ? h("p", { class: "error", role: "alert" }, action.problem) : null,
    action.done ? h("p", { class: "notice-line", role: "status" }, action.done) : null,
  ];
}

function signedOut() {
  account.me = null;
  save("account", null);
}

function signedIn(me) {
  account.me = me;
  save("account", true);
  account.loaded = true;
  return syncSeats().then(() => {
    location.hash = "#/";
    rerender();
  });
}

function NameAndPassword({ prefix, submitText, onSubmit, busy, newPassword }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const submit = (e) => {
    e.preventDefault();
    onSubmit(name.trim(), password);
  };
  return h("form", { class: "account-form", onSubmit: submit }, [
    h("label", null, [t("Name"), h("input", { name: `${prefix}-name`, value: name, maxLength: 40, autocomplete: "username", required: true, onInput: (e) => setName(e.target.value) })]),
    h("label", null, [
      t("Password"),
      h("input", { type: "password", name: `${prefix}-password`, value: password, minLength: newPassword ? 8 : undefined, maxLength: 256, autocomplete: newPassword ? "new-password" : "current-password", required: true, onInput: (e) => setPassword(e.target.value) }),
    ]),
    newPassword ? h("p", { class: "muted small" }, t("At least 8 characters. There is no e-mail: keep your password safe, or add a passkey.")) : null,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", disabled: busy }, submitText)),
  ]);
}

function SignInPanels() {
  const action = useAction();
  const signIn = (name, password) => action.run(async () => signedIn(await api("POST", "api/account/login", { name, password })));
  const signUp = (name, password) => action.run(async () => signedIn(await api("POST", "api/account/signup", { name, password })));
  const withPasskey = () => action.run(async () => signedIn(await passkeySignIn()));
  return [
    h(Feedback, { action }),
    h("section", { class: "card-panel sign-in", "aria-label": t("Sign in") }, [
      h("h2", null, t("Sign in")),
      h(NameAndPassword, { prefix: "login", submitText: t("Sign in"), onSubmit: signIn, busy: action.busy }),
      passkeysWork() ? h("div", { class: "buttons" }, h("button", { type: "button", class: "passkey-sign-in", disabled: action.busy, onClick: withPasskey }, t("Sign in with a passkey"))) : null,
    ]),
    h("section", { class: "card-panel sign-up", "aria-label": t("New account") }, [
      h("h2", null, t("New account")),
      h(NameAndPassword, { prefix: "signup", submitText: t("Make my account"), onSubmit: signUp, busy: action.busy, newPassword: true }),
    ]),
  ];
}

function AccountPanel({ me }) {
  const action = useAction();
  const [deleting, setDeleting] = useState(false);
  const [password, setPassword] = useState("");
  const out = (everywhere) =>
    action.run(async () => {
      await api("POST", "api/account/logout", { everywhere });
      signedOut();
      rerender();
    });
  const passkey = () =>
    action.run(async () => {
      await addPasskey();
      account.me = await api("GET", "api/account/me");
      rerender();
    }, t("Passkey added: next time you can sign in with it."));
  const remove = (e) => {
    e.preventDefault();
    action.run(async () => {
      await api("POST", "api/account/delete", { password });
      signedOut();
      location.hash = "#/";
      rerender();
    });
  };
  return [
    h(Feedback, { action }),
    h("section", { class: "card-panel signed-in", "aria-label": t("Your account") }, [
      h("h2", null, t("Signed in as {name}", { name: me.name })),
      h("p", null, [h("a", { href: `#/u/${encodeURIComponent(me.name)}` }, t("Your profile and ratings")), " · ", h("a", { href: "#/leaderboard" }, t("Leaderboard"))]),
      h("p", null, t("Your tables follow your account: sign in on another device and they are in its lobby under My tables.")),
      h("p", { class: "muted small" }, me.passkeys === 1 ? t("One passkey.") : t("Passkeys: {n}", { n: me.passkeys })),
      h("div", { class: "buttons" }, [
        h("a", { class: "button primary", href: "#/" }, t("To the lobby")),
        passkeysWork() ? h("button", { type: "button", class: "add-passkey", disabled: action.busy, onClick: passkey }, t("Add a passkey")) : null,
        h("button", { type: "button", class: "sign-out", disabled: action.busy, onClick: () => out(false) }, t("Sign out")),
        h("button", { type: "button", class: "sign-out-everywhere", disabled: action.busy, onClick: () => out(true) }, t("Sign out everywhere")),
      ]),
    ]),
    h("section", { class: "card-panel delete-account", "aria-label": t("Delete my account") }, [
      h("h2", null, t("Delete my account")),
      h("p", { class: "muted small" }, t("Your name, password, passkeys, sessions and the list of your tables are deleted. Finished games stay as they were played.")),
      deleting
        ? h("form", { onSubmit: remove }, [
            h("label", null, [t("Password"), h("input", { type: "password", name: "delete-password", value: password, maxLength: 256, autocomplete: "current-password", required: true, onInput: (e) => setPassword(e.target.value) })]),
            h("div", { class: "buttons" }, [
              h("button", { type: "submit", class: "danger", disabled: action.busy }, t("Delete my account for good")),
              h("button", { type: "button", onClick: () => setDeleting(false) }, t("Cancel")),
            ]),
          ])
        : h("div", { class: "buttons" }, h("button", { type: "button", onClick: () => setDeleting(true) }, t("Delete my account…"))),
    ]),
  ];
}

/** #/account: sign in or up, or the signed-in account. */
export function AccountPage() {
  let body;
  if (!account.loaded) body = h("p", { class: "muted" }, t("Loading…"));
  else if (account.me) body = h(AccountPanel, { me: account.me });
  else body = [h("p", null, t("An account is optional: you can play without one. With one, your tables follow you to your other devices.")), h(SignInPanels)];
  return h("main", { class: "page account" }, [h("h1", null, account.me ? t("Your account") : t("Account")), body]);
}
