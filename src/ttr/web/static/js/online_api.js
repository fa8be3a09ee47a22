// The online API (accounts, ratings, profiles): calls that carry the session's CSRF token, and the session.
import { ApiError } from "./api.js";

/** The logged-in account ({name, created}) or null, its CSRF token, and whether a session just expired. */
export const session = { account: null, csrf: null, expired: false };
const listeners = [];

/** Call `fn` whenever the session changes (log in, log out, expiry). */
export function onSession(fn) {
  listeners.push(fn);
}

export function setSession(account, csrf, expired = false) {
  session.account = account;
  session.csrf = csrf || null;
  session.expired = expired;
  for (const fn of listeners) fn(session);
}

/** A JSON call to the server; a state-changing one sends the CSRF token; an error is an ApiError. A call
 * refused because the session expired logs the page out. */
export async function onlineCall(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET" && session.csrf) init.headers["X-CSRF-Token"] = session.csrf;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    if (err.code === "session_expired") setSession(null, null, true);
    throw new ApiError(res.status, err.code || String(res.status), err.message || res.statusText);
  }
  return data;
}

/** Ask the server who is logged in. */
export async function loadSession() {
  try {
    const me = await onlineCall("GET", "/api/account");
    setSession(me.account, me.csrf, Boolean(me.session_expired));
  } catch {
    setSession(null, null);
  }
  return session;
}
