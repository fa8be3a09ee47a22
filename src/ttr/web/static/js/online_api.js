// The online API (accounts, ratings, profiles): calls that carry the session's CSRF token, and the session.
import { ApiError, call } from "./api.js";

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
  const headers = method !== "GET" && session.csrf ? { "X-CSRF-Token": session.csrf } : {};
  try {
    return await call(method, path, body, headers);
  } catch (err) {
    if (err instanceof ApiError && err.code === "session_expired") setSession(null, null, true);
    throw err;
  }
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
