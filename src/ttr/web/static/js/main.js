// The page's entry point: language, then the route in the URL fragment.
import { initialLang, setLang, currentLang, onLangChange } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showReplay } from "./replay.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

let current = null; // the open view: {stop(), relabel()}

async function route() {
  if (current && current.stop) current.stop();
  current = null;
  const main = clear(document.getElementById("main"));
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  try {
    if (parts[0] === "play" && parts.length >= 4) current = await showGame(main, { game: parts[1], seat: Number(parts[2]), token: parts[3] });
    else if (parts[0] === "watch" && parts[1]) current = await showGame(main, { game: parts[1], seat: null, token: null });
    else if (parts[0] === "replay" && parts[1]) current = await showReplay(main, parts[1], Number(parts[2] || 0));
    else current = await showLobby(main);
  } catch (err) {
    // no such game (a mistyped or forgotten link): say so in the page's language, with the way back
    const text = err.code === "not_found" ? t("error.not_found") : t("error.load", { message: err.message });
    main.append(h("p", { class: "error", role: "alert" }, text), h("a", { class: "button", href: "#/" }, t("nav.lobby")));
  }
  document.body.dataset.ready = "1";
}

async function boot() {
  const select = document.getElementById("lang-select");
  await setLang(initialLang());
  select.value = currentLang();
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
