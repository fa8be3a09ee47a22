// The page's entry point: language, then the route in the URL fragment.
import { initialLang, setLang, currentLang, onLangChange } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";
import { showRules } from "./rules.js";
import { showReview } from "./review.js";
import { showEditor } from "./editor.js";
import { ApiError } from "./api.js";
import { clear, h } from "./dom.js";
import { errorLine, loadError } from "./errors.js";
import { t } from "./i18n.js";
import { applyPatterns } from "./patterns.js";
import { onlineRoute } from "./online_routes.js";
import "./profile.js"; // adds the profile and leaderboard routes
import { initAccount } from "./account.js";

let current = null; // the open view: {stop(), relabel()}

// why a page did not open: [the server answered with an error, the server did not answer]
const LOAD_ERRORS = {
  game: ["error.load.game", "error.load.game_network"],
  replay: ["error.load.replay", "error.load.replay_network"],
  lobby: ["error.load.maps", "error.load.maps_network"],
  editor: ["error.load.maps", "error.load.maps_network"],
};

/** A page that did not open: why, in the page's language (worded again on a change), the server's own words
 * kept below as a detail, and the way back to the lobby. */
function loadFailed(main, err, page) {
  let error;
  // no such game (a mistyped or forgotten link): the page's words, not the server's
  if (err instanceof ApiError && err.code === "not_found") error = { key: "error.not_found" };
  else if (err instanceof ApiError && err.code === "not_finished") error = { key: "error.load.replay_running", detail: err.message };
  else error = loadError(err, ...LOAD_ERRORS[page]);
  const view = {
    relabel: () => clear(main).append(errorLine(error, { id: "load-error" }), h("a", { class: "button", href: "#/" }, t("nav.lobby"))),
  };
  view.relabel();
  return view;
}

async function route() {
  if (current && current.stop) current.stop();
  current = null;
  const main = clear(document.getElementById("main"));
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  let page = "lobby";
  const online = onlineRoute(parts);
  try {
    if (online) {
      page = online.page;
      current = await online.open(main);
    } else if (parts[0] === "play" && parts.length >= 4) {
      page = "game";
      current = await showGame(main, { game: parts[1], seat: Number(parts[2]), token: parts[3] });
    } else if (parts[0] === "rules" && parts[1]) {
      current = await showRules(main, parts[1]);
    } else if (parts[0] === "table" && parts[1]) {
      page = "game";
      current = await showTable(main, parts[1]);
      if (!current) current = await showGame(main, { game: parts[1], seat: null, token: null }); // no seat here: watch
    } else if (parts[0] === "watch" && parts[1]) {
      page = "game";
      current = await showGame(main, { game: parts[1], seat: null, token: null });
    } else if (parts[0] === "replay" && parts[1]) {
      page = "replay";
      current = await showReplay(main, parts[1], Number(parts[2] || 0));
    } else if (parts[0] === "review" && parts[1]) {
      page = "replay";
      current = await showReview(main, parts[1], Number(parts[2] || 0));
    } else if (parts[0] === "editor") {
      page = "editor";
      current = await showEditor(main);
    } else current = await showLobby(main);
  } catch (err) {
    current = loadFailed(main, err, page);
  }
  document.body.dataset.ready = "1";
}

async function boot() {
  applyPatterns();
  const select = document.getElementById("lang-select");
  await setLang(initialLang());
  select.value = currentLang();
  initAccount().then((accountLabel) => onLangChange(accountLabel)); // the lobby waits for it, a game does not
  select.addEventListener("change", () => setLang(select.value, true));
  onLangChange(() => {
    select.value = currentLang();
    if (current && current.relabel) current.relabel();
  });
  // "Skip to content" moves the focus; following its #main would replace the page's route (the fragment)
  document.querySelector("a.skip").addEventListener("click", (ev) => {
    ev.preventDefault();
    document.getElementById("main").focus();
  });
  window.addEventListener("hashchange", route);
  await route();
}

boot();
