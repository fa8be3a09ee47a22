// Chat in a game (docs/web-protocol.md, "Chat"): the seats talk, spectators read them and talk on their own
// channel; every message is shown as text (textContent, never markup); quick phrases in the reader's
// language; a player can mute another (kept in this browser). Also the chat of a replay, up to its step.
import { h, clear } from "./dom.js";
import { levelLabel, t } from "./i18n.js";

export const PHRASES = ["good_game", "your_turn", "thanks", "hello", "good_luck"];
const MUTED_KEY = "ttr.muted";
const MAX = 300;

function muted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch {
    return new Set();
  }
}

function setMuted(set) {
  localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(0, 200)));
}

/** A message's words: its text, or its quick phrase in the reader's language. */
export function chatText(m) {
  return m.phrase ? t(`chat.phrase.${m.phrase}`) : m.text;
}

/** One message as a list item (its text set as text, never as markup). */
function messageItem(m, onMute) {
  const li = h("li", { class: `chat-msg chat-${m.channel}`, dataset: { n: String(m.n), seat: m.seat === null ? "" : String(m.seat) } });
  const who = h("b", { class: "chat-name" });
  who.textContent = m.channel === "spectators" ? t("chat.spectator_name", { name: m.name }) : m.name;
  if (m.event) { // the server's line: a clock ran out
    li.classList.add("chat-event");
    li.textContent = m.event.kind === "autoplay" ? t("clock.event_autoplay", { name: m.name })
      : t("clock.event_timeout", { name: m.name, bot: levelLabel(m.event.bot) });
    return li;
  }
  const body = h("span", { class: "chat-text" });
  body.textContent = chatText(m);
  li.append(who, ": ", body);
  if (onMute) li.append(" ", h("button", { type: "button", class: "link chat-mute", "aria-label": t("chat.mute_name", { name: m.name }), onclick: () => onMute(m.name) }, t("chat.mute")));
  return li;
}

/** The chat panel of a game; `send(message)` sends on the game socket. */
export class ChatPanel {
  constructor(send, mySeat, myName) {
    this.send = send;
    this.seat = mySeat;
    this.myName = myName;
    this.messages = [];
    this.error = null;
    this.box = h("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-h" });
    this.render();
  }

  setSeat(seat, name) {
    this.seat = seat;
    this.myName = name;
    this.render();
  }

  onMessage(msg) {
    if (msg.type === "chat_history") this.messages = msg.messages || [];
    else if (msg.type === "chat") this.messages.push(msg.message);
    else return false;
    this.error = null;
    this.renderList();
    return true;
  }

  /** A refusal of a chat message, in the page's language. */
  showError(code, message) {
    const key = `error.${code}`;
    const text = t(key);
    this.error = text === key ? message : text;
    this.renderList();
  }

  relabel() {
    this.render();
  }

  render() {
    const input = h("input", { id: "chat-input", type: "text", maxlength: MAX, autocomplete: "off", "aria-label": t("chat.say") });
    const form = h("form", { class: "row chat-form", id: "chat-form", onsubmit: (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      this.send({ type: "chat", text });
      input.value = "";
    } }, input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")));
    const phrases = h("div", { class: "row chat-phrases" }, PHRASES.map((p) => h("button", { type: "button", class: "chat-phrase",
      dataset: { phrase: p }, onclick: () => this.send({ type: "chat", phrase: p }) }, t(`chat.phrase.${p}`))));
    this.list = h("ul", { class: "plain chat-list", id: "chat-list", "aria-live": "polite" });
    this.errorBox = h("p", { class: "error", id: "chat-error", role: "alert" });
    clear(this.box).append(h("h2", { id: "chat-h" }, this.seat === null ? t("chat.title_spectator") : t("chat.title")),
      this.list, this.errorBox, form, phrases);
    this.renderList();
  }

  renderList() {
    const hide = muted();
    const mute = (name) => {
      const set = muted();
      set.add(name);
      setMuted(set);
      this.renderList();
    };
    const shown = this.messages.filter((m) => m.event || !hide.has(m.name));
    clear(this.list).append(...shown.slice(-100).map((m) => messageItem(m, m.name !== this.myName ? mute : null)));
    const hidden = this.messages.length - shown.length;
    if (hide.size) {
      this.list.append(h("li", { class: "note" }, t("chat.muted", { n: hidden }), " ",
        h("button", { type: "button", class: "link", id: "chat-unmute", onclick: () => { setMuted(new Set()); this.renderList(); } }, t("chat.unmute"))));
    }
    this.errorBox.textContent = this.error || "";
    this.list.scrollTop = this.list.scrollHeight;
  }
}

/** The chat of a replay: the messages said up to the shown step (each placed at the game's version when it was said). */
export function replayChat(box, messages, step) {
  const said = messages.filter((m) => m.version <= step);
  clear(box).append(h("h2", {}, t("chat.title")),
    said.length ? h("ul", { class: "plain chat-list", id: "replay-chat" }, said.map((m) => messageItem(m, null))) : h("p", { class: "note" }, t("chat.none")));
}
