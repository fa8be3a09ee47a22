// The lobby: create a game (map, seats, bots), invite links, your games, recent games to watch or replay.
import { api, ApiError, loadSeats, saveSeat, forgetSeat, inviteLink } from "./api.js";
import { h, clear, announce } from "./dom.js";
import { errorLine, loadError } from "./errors.js";
import { levelLabel, mapLabel, seatLevelLabel, t, tOr, translateDom } from "./i18n.js";
import { loadNameForms, seatName } from "./names.js";
import { startTutorial } from "./coach.js";
import { accountGamesPanel, accountReady } from "./account.js";
import { quickPlayPanel } from "./quickplay.js";
import { openGamesPanel } from "./open_games.js";
import { clockFields, clockValue, newClockState } from "./clock_ui.js";

const SEED_MAX = 2n ** 63n - 1n; // the server takes seeds 0 to 2**63 - 1 (docs/web-protocol.md)

/** A seed typed in the lobby as a BigInt (exact beyond 2**53), or null when it is not a whole number in range. */
export function parseSeed(text) {
  if (!/^\d+$/.test(text)) return null;
  const seed = BigInt(text);
  return seed <= SEED_MAX ? seed : null;
}

export async function showLobby(main) {
  let maps;
  try {
    maps = await api.maps();
  } catch (err) {
    // the lobby cannot offer a game without the list of maps: say so in the page's language, worded again on a change
    const error = loadError(err, "error.load.maps", "error.load.maps_network");
    const view = { relabel: () => clear(main).append(errorLine(error, { id: "lobby-error" })) };
    view.relabel();
    return view;
  }
  const [bots] = await Promise.all([api.bots().catch(() => []), loadNameForms()]);
  await accountReady(); // the account's panels need to know who is logged in
  const levels = bots.length ? bots.map((b) => b.level) : ["easy", "medium", "hard", "expert"];
  const view = new Lobby(main, maps, levels);
  view.render();
  return view;
}

class Lobby {
  constructor(main, maps, levels) {
    this.main = main;
    this.maps = maps;
    this.levels = levels;
    this.mapName = maps.length ? maps[0].name : "europe";
    this.seats = [
      { type: "human", name: "" },
      { type: "bot", level: levels.includes("medium") ? "medium" : levels[0] },
    ];
    this.created = null;
    this.seed = "";
    this.wait = false;
    this.clock = newClockState();
    this.error = null; // the last failure to create a game: {key, params, detail?}, worded again on a language change
  }

  mapInfo() {
    return this.maps.find((m) => m.name === this.mapName) || { players_min: 2, players_max: 5 };
  }

  relabel() {
    this.render();
  }

  render() {
    const focusId = document.activeElement && document.activeElement.id;
    clear(this.main);
    this.main.append(
      h("h1", { "data-i18n": "lobby.title" }),
      this.created ? this.renderCreated() : this.renderForm(),
      quickPlayPanel(),
      accountGamesPanel(),
      openGamesPanel(() => clockValue(this.clock)),
      this.renderYourGames(),
      h("section", { class: "panel", "aria-labelledby": "recent-h" },
        h("h2", { id: "recent-h", "data-i18n": "lobby.recent" }),
        h("div", { id: "recent-games" }, h("p", { "data-i18n": "lobby.loading" }))),
    );
    translateDom(this.main);
    this.loadRecent();
    if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus();
  }

  renderForm() {
    const info = this.mapInfo();
    const form = h("form", { class: "panel create", id: "create-form", onsubmit: (ev) => { ev.preventDefault(); this.create(); } });
    const mapSelect = h("select", { id: "map-select", name: "map", onchange: (ev) => {
      this.mapName = ev.target.value;
      const max = this.mapInfo().players_max;
      this.seats = this.seats.slice(0, max);
      this.render();
    } }, this.maps.map((m) => h("option", { value: m.name, selected: m.name === this.mapName }, mapLabel(m.name))));
    form.append(
      h("h2", { "data-i18n": "lobby.create" }),
      h("label", { class: "field" }, h("span", { "data-i18n": "lobby.map" }), mapSelect),
      h("p", { class: "row" },
        h("a", { class: "button", id: "rules-link", href: `#/rules/${encodeURIComponent(this.mapName)}` }, t("rules.link")),
        h("button", { type: "button", id: "learn", onclick: () => startTutorial().catch((err) => this.createFailed(err)) }, t("coach.start"))),
      h("p", { class: "note" }, t("lobby.seat_range", { min: info.players_min, max: info.players_max })),
    );
    const list = h("ol", { class: "seat-list" });
    this.seats.forEach((seat, i) => list.append(this.renderSeat(seat, i, info)));
    form.append(list);
    // what each bot level does, to choose by (levels without a text are left out)
    const about = this.levels.map((lv) => tOr(`level_about.${lv}`, null)).filter((text) => text !== null);
    if (this.levels.some((lv) => lv.startsWith("cmd:"))) about.push(t("level_about.program"));
    if (about.length) form.append(h("ul", { class: "note level-notes", id: "level-notes" }, about.map((text) => h("li", {}, text))));
    form.append(
      h("div", { class: "row" },
        h("button", { type: "button", id: "add-seat", disabled: this.seats.length >= info.players_max, onclick: () => {
          this.seats.push({ type: "bot", level: this.levels.includes("medium") ? "medium" : this.levels[0] });
          this.render();
        }, "data-i18n": "lobby.add_seat" }),
        h("label", { class: "field inline" }, h("span", { "data-i18n": "lobby.seed" }),
          h("input", { id: "seed-input", type: "number", min: 0, inputmode: "numeric", value: this.seed,
            "data-i18n-placeholder": "lobby.seed_hint", oninput: (ev) => { this.seed = ev.target.value; } }))),
      h("label", { class: "field inline" },
        h("input", { id: "leave-wait", type: "checkbox", checked: this.wait, onchange: (ev) => { this.wait = ev.target.checked; } }),
        h("span", { "data-i18n": "lobby.wait" })),
      clockFields(this.clock),
      this.renderError(),
      h("button", { type: "submit", class: "primary", id: "create-game", disabled: this.seats.length < info.players_min,
        "data-i18n": "lobby.start" }),
    );
    return form;
  }

  renderSeat(seat, i, info) {
    const typeSelect = h("select", { id: `seat-${i}-type`, "aria-label": t("lobby.seat_type", { n: i + 1 }), onchange: (ev) => {
      seat.type = ev.target.value;
      if (seat.type === "bot" && !seat.level) seat.level = this.levels[0];
      this.render();
    } },
      h("option", { value: "human", selected: seat.type === "human" }, t("lobby.person")),
      h("option", { value: "bot", selected: seat.type === "bot" }, t("lobby.bot")));
    const li = h("li", { class: "seat-row" }, h("span", { class: "seat-no" }, t("lobby.seat", { n: i + 1 })), typeSelect);
    if (seat.type === "human") {
      li.append(h("input", { id: `seat-${i}-name`, type: "text", maxlength: 24, value: seat.name || "",
        placeholder: i === 0 ? t("lobby.you") : t("lobby.player", { n: i + 1 }),
        "aria-label": t("lobby.name_of", { n: i + 1 }), oninput: (ev) => { seat.name = ev.target.value; } }));
    } else {
      li.append(h("select", { id: `seat-${i}-level`, "aria-label": t("lobby.level_of", { n: i + 1 }), onchange: (ev) => { seat.level = ev.target.value; } },
        this.levels.map((lv) => h("option", { value: lv, selected: lv === seat.level }, levelLabel(lv)))));
    }
    li.append(h("button", { type: "button", class: "icon", id: `seat-${i}-remove`, disabled: this.seats.length <= info.players_min,
      "aria-label": t("lobby.remove_seat", { n: i + 1 }), onclick: () => { this.seats.splice(i, 1); this.render(); } }, "✕"));
    return li;
  }

  async create() {
    const seatsBody = this.seats.map((s, i) => s.type === "human"
      ? { type: "human", name: (s.name || "").trim() || (i === 0 ? t("lobby.you") : t("lobby.player", { n: i + 1 })) }
      : { type: "bot", level: s.level }); // the server names it from its level; the page words it (names.js)
    const body = { map: this.mapName, seats: seatsBody,
      when_people_leave: document.getElementById("leave-wait").checked ? "wait" : "finish" };
    const clock = clockValue(this.clock);
    if (clock) body.clock = clock;
    const seedText = document.getElementById("seed-input").value.trim();
    let seed = null;
    if (seedText !== "") {
      seed = parseSeed(seedText);
      if (seed === null) {
        this.showError({ key: "error.create.seed", params: { max: SEED_MAX.toString() } });
        return;
      }
    }
    this.showError(null);
    try {
      const game = await api.createGame(body, seed);
      const humans = game.seats.filter((s) => s.token);
      humans.forEach((s, k) => saveSeat({ game: game.id, seat: s.seat, token: s.token, name: s.name, map: this.mapName, invite: k > 0 }));
      if (humans.length === 1) {
        location.hash = `#/play/${game.id}/${humans[0].seat}/${humans[0].token}`;
        return;
      }
      if (humans.length === 0) { // bots only: nobody to invite, so watch them play
        location.hash = `#/watch/${encodeURIComponent(game.id)}`;
        return;
      }
      this.created = { game, humans };
      this.render();
      announce(t("lobby.created"));
    } catch (err) {
      this.createFailed(err);
    }
  }

  /** Why a game (or the guided game) could not be created: a known error code in the page's language, the
   * server's own (English) words kept beside it (no answer at all, the server unreachable: "network", with no
   * server words to show). */
  createFailed(err) {
    const code = err instanceof ApiError ? err.code : "network";
    const key = `error.create.${code}`;
    if (tOr(key, null) !== null) this.showError({ key, detail: code === "network" ? null : err.message });
    else this.showError({ key: "error.create", params: { message: err.message } });
  }

  /** The error line under the form: the translated message, and the server's words as a detail. */
  renderError() {
    return errorLine(this.error, { id: "create-error" });
  }

  showError(error) {
    this.error = error;
    const old = document.getElementById("create-error");
    if (old) old.replaceWith(this.renderError());
  }

  renderCreated() {
    const { game, humans } = this.created;
    const section = h("section", { class: "panel", id: "invites" },
      h("h2", { "data-i18n": "lobby.invites" }),
      h("p", { "data-i18n": "lobby.invites_note" }));
    const list = h("ul", { class: "invite-list" });
    for (const s of humans) {
      const link = inviteLink(game.id, s.seat, s.token);
      list.append(h("li", {},
        h("span", {}, t("lobby.seat", { n: s.seat + 1 }), ": ", s.name, " "),
        h("input", { type: "text", readonly: true, value: link, class: "invite", "aria-label": t("lobby.invite_for", { name: s.name }) }),
        h("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => announce(t("lobby.copied"))) }, t("lobby.copy")),
        h("a", { href: `#/play/${game.id}/${s.seat}/${encodeURIComponent(s.token)}`, class: "button" }, t("lobby.open_seat"))));
    }
    section.append(list,
      h("p", {}, h("a", { class: "button primary", id: "pass-and-play", href: `#/table/${encodeURIComponent(game.id)}` }, t("table.play_here")),
        " ", h("span", { class: "note" }, t("table.play_here_note"))),
      h("button", { type: "button", onclick: () => { this.created = null; this.render(); } }, t("lobby.new_game")));
    return section;
  }

  renderYourGames() {
    const seats = loadSeats();
    const section = h("section", { class: "panel", "aria-labelledby": "yours-h" }, h("h2", { id: "yours-h", "data-i18n": "lobby.yours" }));
    if (!seats.length) {
      section.append(h("p", { "data-i18n": "lobby.none" }));
      return section;
    }
    const list = h("ul", { class: "game-list", id: "your-games" });
    for (const s of seats) {
      list.append(h("li", { dataset: { game: s.game } },
        h("a", { href: `#/play/${encodeURIComponent(s.game)}/${s.seat}/${encodeURIComponent(s.token)}` },
          `${mapLabel(s.map)} · ${s.game} · ${t("lobby.seat", { n: s.seat + 1 })} ${s.name || ""}`),
        s.invite ? h("span", { class: "tag" }, t("lobby.invite_tag")) : null,
        h("span", { class: "game-status" }),
        h("button", { type: "button", class: "icon", "aria-label": t("lobby.forget"), onclick: () => { forgetSeat(s.game, s.seat); this.render(); } }, "✕")));
    }
    section.append(list);
    return section;
  }

  async loadRecent() {
    const box = document.getElementById("recent-games");
    if (!box) return;
    let games = [];
    try {
      games = await api.games(30);
    } catch (err) {
      // in the page's language (render() on a language change loads the list again), the server's words below
      clear(box).append(errorLine(loadError(err, "error.load.games", "error.load.games_network"), { id: "recent-error" }));
      return;
    }
    clear(box);
    // your games among the recent ones: whether each is still going (a finished one can be replayed)
    const byId = new Map(games.map((g) => [g.id, g]));
    for (const li of document.querySelectorAll("#your-games li[data-game]")) {
      const g = byId.get(li.dataset.game);
      const slot = li.querySelector(".game-status");
      if (!g || !slot) continue;
      clear(slot).append(h("span", { class: "tag" }, t(`status.${g.status}`)));
      if (g.status === "finished") slot.append(h("a", { href: `#/replay/${encodeURIComponent(g.id)}`, class: "button" }, t("lobby.replay")));
    }
    if (!games.length) {
      box.append(h("p", { "data-i18n": "lobby.no_games" }));
      translateDom(box);
      return;
    }
    const list = h("ul", { class: "game-list" });
    for (const g of games) {
      const names = g.seats.map((s) => seatName(s, s.name, s.seat)).join(", ");
      const status = t(`status.${g.status}`);
      list.append(h("li", { dataset: { game: g.id } },
        h("span", {}, `${mapLabel(g.map)} · ${names} · ${status}`),
        " ",
        g.seed_chosen ? h("span", { class: "tag seed-chosen", title: t("seed.chosen_title") }, t("seed.chosen")) : null,
        g.seed_chosen ? " " : null,
        g.status === "finished"
          ? h("a", { href: `#/replay/${encodeURIComponent(g.id)}`, class: "button" }, t("lobby.replay"))
          : h("a", { href: `#/watch/${encodeURIComponent(g.id)}`, class: "button" }, t("lobby.watch"))));
    }
    box.append(list);
  }
}

