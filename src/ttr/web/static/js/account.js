// Accounts: the header's account link, the account page (#/account: log in, register, log out, change the
// password, delete the account), and the games an account holds, for the lobby.
import { loadSeats } from "./api.js";
import { h, clear, announce } from "./dom.js";
import { errorLine } from "./errors.js";
import { mapLabel, t, tOr, translateDom } from "./i18n.js";
import { onlineCall, session, setSession, onSession, loadSession } from "./online_api.js";

/** An error of the online API in the page's language: `error.account.{code}` when the page has it, the
 * server's own words kept as the detail. */
export function accountError(err) {
  const code = err && err.code ? err.code : "network";
  const key = `error.account.${code}`;
  if (tOr(key, null) !== null) return { key, detail: code === "network" ? null : err.message };
  return { key: "error.account.other", params: { message: err.message || String(err) }, detail: null };
}

/** The seats this browser holds, as the server claims them for an account. */
function storedSeats() {
  return loadSeats().map((s) => ({ game: s.game, seat: s.seat, token: s.token }));
}

/** Give the logged-in account a seat this browser opened by its token (quietly: nothing to show). */
export function claimSeat(game, seat, token) {
  if (!session.account) return;
  onlineCall("POST", "/api/account/seats", { seats: [{ game, seat, token }] }).catch(() => {});
}

let ready = null; // the first answer to "who is logged in"

/** Resolves once the page knows who is logged in (the lobby waits for it; a game does not). */
export function accountReady() {
  return ready || Promise.resolve();
}

/** The header's links: the account (or "Log in"), the leaderboard; resolves to the function that words the
 * account link again (on a language change). */
export function initAccount() {
  ready = setUpAccount();
  return ready;
}

async function setUpAccount() {
  const nav = document.querySelector(".top-nav");
  const link = h("a", { id: "account-link", href: "#/account" });
  nav.append(" ", h("a", { id: "leaderboard-link", href: "#/leaderboard", "data-i18n": "nav.leaderboard" }), " ", link);
  const label = () => {
    link.textContent = session.account ? t("account.nav_as", { name: session.account.name }) : t("account.nav_login");
  };
  onSession(label);
  await loadSession();
  label();
  return label;
}

/** The account page. */
export async function showAccount(main) {
  await loadSession();
  const view = new AccountPage(main);
  view.render();
  return view;
}

class AccountPage {
  constructor(main) {
    this.main = main;
    this.error = null;
    this.note = null;
  }

  /** Render again in the new language, keeping what was typed in the forms. */
  relabel() {
    const typed = [...this.main.querySelectorAll("input[id]")].map((el) => [el.id, el.value]);
    this.render();
    for (const [id, value] of typed) {
      const input = document.getElementById(id);
      if (input) input.value = value;
    }
  }

  render() {
    clear(this.main);
    this.main.append(h("h1", { "data-i18n": "account.title" }));
    if (session.expired && !session.account) this.main.append(h("p", { class: "error", id: "session-expired", role: "alert" }, t("account.expired")));
    if (this.note) this.main.append(h("p", { class: "note", id: "account-note", role: "status" }, t(this.note.key, this.note.params || {})));
    this.main.append(errorLine(this.error, { id: "account-error" }));
    if (session.account) this.renderAccount();
    else this.renderForms();
    translateDom(this.main);
  }

  field(id, key, type, autocomplete) {
    return h("label", { class: "field" }, h("span", { "data-i18n": key }),
      h("input", { id, type, required: true, autocomplete, maxlength: type === "password" ? 200 : 24 }));
  }

  renderForms() {
    const login = h("form", { class: "panel", id: "login-form", onsubmit: (ev) => { ev.preventDefault(); this.enter("login"); } },
      h("h2", { "data-i18n": "account.login" }),
      this.field("login-name", "account.name", "text", "username"),
      this.field("login-password", "account.password", "password", "current-password"),
      h("button", { type: "submit", class: "primary", id: "login-button", "data-i18n": "account.login" }));
    const register = h("form", { class: "panel", id: "register-form", onsubmit: (ev) => { ev.preventDefault(); this.enter("register"); } },
      h("h2", { "data-i18n": "account.register" }),
      h("p", { class: "note", "data-i18n": "account.register_note" }),
      this.field("register-name", "account.name", "text", "username"),
      this.field("register-password", "account.password", "password", "new-password"),
      h("button", { type: "submit", class: "primary", id: "register-button", "data-i18n": "account.register" }));
    this.main.append(h("p", { class: "note", "data-i18n": "account.guest_note" }), login, register);
  }

  async enter(kind) {
    const name = document.getElementById(`${kind}-name`).value;
    const password = document.getElementById(`${kind}-password`).value;
    try {
      const answer = await onlineCall("POST", `/api/account/${kind}`, { name, password, seats: storedSeats() });
      setSession(answer.account, answer.csrf);
      this.error = null;
      this.note = { key: kind === "register" ? "account.registered" : "account.logged_in", params: { name: answer.account.name, n: answer.claimed } };
      announce(t(this.note.key, this.note.params));
    } catch (err) {
      this.error = accountError(err);
      this.note = null;
    }
    this.render();
  }

  renderAccount() {
    const name = session.account.name;
    const change = h("form", { class: "panel", id: "password-form", onsubmit: (ev) => { ev.preventDefault(); this.changePassword(); } },
      h("h2", { "data-i18n": "account.change_password" }),
      this.field("old-password", "account.password", "password", "current-password"),
      this.field("new-password", "account.new_password", "password", "new-password"),
      h("button", { type: "submit", id: "password-button", "data-i18n": "account.change_password" }));
    const remove = h("form", { class: "panel", id: "delete-form", onsubmit: (ev) => { ev.preventDefault(); this.remove(); } },
      h("h2", { "data-i18n": "account.delete" }),
      h("p", { class: "note", "data-i18n": "account.delete_note" }),
      this.field("delete-password", "account.password", "password", "current-password"),
      h("button", { type: "submit", class: "danger", id: "delete-button", "data-i18n": "account.delete" }));
    this.main.append(
      h("section", { class: "panel", id: "account-info" },
        h("p", {}, t("account.logged_in_as", { name })),
        h("div", { class: "row" },
          h("a", { class: "button", id: "my-profile", href: `#/player/${encodeURIComponent(name)}`, "data-i18n": "account.profile" }),
          h("button", { type: "button", id: "logout-button", onclick: () => this.logout(), "data-i18n": "account.logout" }))),
      change, remove);
  }

  async logout() {
    try {
      await onlineCall("POST", "/api/account/logout");
      setSession(null, null);
      this.error = null;
      this.note = { key: "account.logged_out" };
    } catch (err) {
      this.error = accountError(err);
    }
    this.render();
  }

  async changePassword() {
    try {
      await onlineCall("POST", "/api/account/password", { password: document.getElementById("old-password").value,
        new_password: document.getElementById("new-password").value });
      this.error = null;
      this.note = { key: "account.password_changed" };
    } catch (err) {
      this.error = accountError(err);
      this.note = null;
    }
    this.render();
  }

  async remove() {
    try {
      await onlineCall("POST", "/api/account/delete", { password: document.getElementById("delete-password").value });
      setSession(null, null);
      this.error = null;
      this.note = { key: "account.deleted" };
    } catch (err) {
      this.error = accountError(err);
      this.note = null;
    }
    this.render();
  }
}

/** The lobby's panel of the logged-in account's games (any browser): its turn first; empty for a guest. */
export function accountGamesPanel() {
  const box = h("section", { class: "panel", id: "account-games", "aria-labelledby": "account-games-h", hidden: true });
  if (!session.account) return box;
  onlineCall("GET", "/api/account/seats").then((seats) => {
    clear(box).append(h("h2", { id: "account-games-h" }, t("account.games", { name: session.account.name })));
    box.hidden = false;
    if (!seats.length) {
      box.append(h("p", {}, t("lobby.none")));
      return;
    }
    seats.sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
    const list = h("ul", { class: "game-list" });
    for (const s of seats) {
      const href = s.status === "finished" ? `#/replay/${encodeURIComponent(s.game)}` : `#/seat/${encodeURIComponent(s.game)}/${s.seat}`;
      list.append(h("li", { dataset: { game: s.game, yourTurn: s.your_turn ? "1" : "0" } },
        h("a", { href }, `${mapLabel(s.map)} · ${s.game} · ${t("lobby.seat", { n: s.seat + 1 })} ${s.name}`),
        " ", h("span", { class: "tag" }, s.your_turn ? t("account.your_turn") : t(`status.${s.status}`))));
    }
    box.append(list);
  }).catch(() => {});
  return box;
}
