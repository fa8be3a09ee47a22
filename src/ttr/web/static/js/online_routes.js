// The online pages' routes: #/account, #/seat/{game}/{seat} (a seat of the logged-in account, from any
// browser), #/player/{name}, #/leaderboard.
import { showAccount } from "./account.js";
import { showGame } from "./game.js";

const PAGES = {
  account: () => ({ page: "lobby", open: (main) => showAccount(main) }),
  seat: (parts) => (parts[1] && /^\d+$/.test(parts[2] || "")
    ? { page: "game", open: (main) => showGame(main, { game: parts[1], seat: Number(parts[2]), token: null, byAccount: true }) }
    : null),
};

/** The online page a route names ({page, open(main)}), or null when it is none of them. */
export function onlineRoute(parts) {
  const make = PAGES[parts[0]];
  return make ? make(parts) : null;
}

/** Add a page to the online routes (`make(parts)` gives {page, open(main)} or null). */
export function addOnlineRoute(name, make) {
  PAGES[name] = make;
}
