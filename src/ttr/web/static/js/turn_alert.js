// When it becomes your turn while the tab is hidden: the page's title says so and, if allowed, a browser
// notification (the Notifications API) does too. The title comes back when the tab is seen again.
import { h } from "./dom.js";
import { t } from "./i18n.js";

let savedTitle = null;
let wasMine = false;

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && savedTitle !== null) {
    document.title = savedTitle;
    savedTitle = null;
  }
});

/** Call after each state: alerts once when the turn becomes this seat's while the tab is hidden. */
export function turnAlert(mine, gameText) {
  const became = mine && !wasMine;
  wasMine = mine;
  if (!became || !document.hidden) return;
  if (savedTitle === null) savedTitle = document.title;
  document.title = t("notify.title");
  if ("Notification" in window && Notification.permission === "granted") {
    try {
      new Notification(t("notify.your_turn"), { body: gameText, tag: "ttr-turn" });
    } catch {
      // some browsers refuse notifications outside a service worker; the title still says it
    }
  }
}

/** Forget the last turn (a new game opens). */
export function resetTurnAlert() {
  wasMine = false;
}

/** A button that asks for permission to notify (hidden where it is granted or the browser has none). */
export function notifyButton() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = h("button", { type: "button", id: "notify-button", onclick: async () => {
    await Notification.requestPermission();
    button.hidden = Notification.permission !== "default";
  } }, t("notify.ask"));
  return button;
}
