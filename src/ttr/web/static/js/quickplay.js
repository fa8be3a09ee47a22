// Quick play in the lobby (logged in): choose a queue and how long to wait, find a game; matched, the page
// opens the seat (by account). After the wait the player may fill the table with bots near their rating.
import { h, clear, announce } from "./dom.js";
import { errorLine } from "./errors.js";
import { levelLabel, t } from "./i18n.js";
import { onlineCall, session } from "./online_api.js";
import { accountError } from "./account.js";

const QUEUES = ["europe-2", "europe-3-5", "new_york-2", "new_york-3-4"];
const choice = { queue: "new_york-2", wait: 60 };

/** The lobby's quick-play panel (hidden for a guest). */
export function quickPlayPanel() {
  const box = h("section", { class: "panel", id: "quick-play", "aria-labelledby": "quick-h", hidden: !session.account });
  if (!session.account) return box;
  let error = null;
  let status = null;
  let timer = null;

  const poll = async () => {
    if (!document.body.contains(box)) { clearInterval(timer); return; } // the lobby was left
    try {
      status = await onlineCall("GET", "/api/queue");
    } catch (err) {
      error = accountError(err);
    }
    if (status && status.match && !status.queued) {
      clearInterval(timer);
      location.hash = `#/seat/${encodeURIComponent(status.match.game)}/${status.match.seat}`;
      return;
    }
    draw();
  };
  const act = async (path, body) => {
    try {
      status = await onlineCall("POST", path, body);
      error = null;
    } catch (err) {
      error = accountError(err);
    }
    if (status && status.queued && !timer) timer = setInterval(poll, 1000);
    if (status && status.match && !status.queued) return poll();
    draw();
    return undefined;
  };

  const draw = () => {
    clear(box).append(h("h2", { id: "quick-h" }, t("queue.title")));
    const q = status && status.queued;
    if (q) {
      box.append(h("p", { id: "queue-status", role: "status" },
        t("queue.waiting", { queue: t(`queue.${q.queue}`), s: Math.floor(q.waited), n: q.others })),
      h("div", { class: "row" },
        h("button", { type: "button", id: "queue-leave", onclick: () => act("/api/queue/leave") }, t("queue.leave")),
        h("button", { type: "button", id: "queue-fill", disabled: !q.can_fill, onclick: () => act("/api/queue/fill") },
          q.can_fill ? t("queue.fill", { level: levelLabel(q.bot_level || "medium") }) : t("queue.fill_after", { s: Math.max(0, Math.ceil(q.wait - q.waited)) }))));
    } else {
      const select = h("select", { id: "queue-select", onchange: (ev) => { choice.queue = ev.target.value; } },
        QUEUES.map((name) => h("option", { value: name, selected: name === choice.queue }, t(`queue.${name}`))));
      const wait = h("input", { id: "queue-wait", type: "number", inputmode: "numeric", value: choice.wait,
        oninput: (ev) => { choice.wait = ev.target.value; } });
      box.append(h("p", { class: "note" }, t("queue.note")),
        h("div", { class: "row" }, h("label", { class: "field inline" }, h("span", {}, t("queue.which")), select),
          h("label", { class: "field inline" }, h("span", {}, t("queue.wait")), wait)),
        h("button", { type: "button", class: "primary", id: "queue-join",
          onclick: () => act("/api/queue", { queue: choice.queue, wait: Number(choice.wait) }).then(() => announce(t("queue.joined"))) }, t("queue.join")));
    }
    box.append(errorLine(error, { id: "queue-error" }));
  };
  draw();
  poll().then(() => { if (status && status.queued && !timer) timer = setInterval(poll, 1000); });
  return box;
}
