// REST calls and the seats this browser holds (docs/web-protocol.md).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A JSON call to the server (`headers` added to the request); a refusal is an ApiError. */
export async function call(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
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
    throw new ApiError(res.status, err.code || String(res.status), err.message || res.statusText);
  }
  return data;
}

export const api = {
  maps: () => call("GET", "/api/maps"),
  map: (name) => call("GET", `/api/maps/${encodeURIComponent(name)}`),
  boardSvg: async (name) => {
    const res = await fetch(`/api/maps/${encodeURIComponent(name)}/board.svg`);
    if (!res.ok) throw new ApiError(res.status, "board", `cannot load the board of ${name}`);
    return res.text();
  },
  bots: () => call("GET", "/api/bots"),
  /** Create a game; `seed` (a BigInt, or null for a random one) is written out digit for digit, since a
   * JavaScript number would round a seed above 2**53. */
  createGame: (body, seed = null) => {
    const text = JSON.stringify(body);
    return call("POST", "/api/games", seed === null ? text : `${text.slice(0, -1)},"seed":${BigInt(seed).toString()}}`);
  },
  games: (limit = 50) => call("GET", `/api/games?limit=${limit}`),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  replay: (id, step) => call("GET", `/api/games/${encodeURIComponent(id)}/replay/${step}`),
  review: (id, seat) => call("GET", `/api/games/${encodeURIComponent(id)}/review/${seat}`),
  startReview: (id, seat) => call("POST", `/api/games/${encodeURIComponent(id)}/review/${seat}`),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
};

const SEATS_KEY = "ttr.seats";

/** The seats this browser holds: [{game, seat, token, name, map, invite?}]. */
export function loadSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && s.game && Number.isInteger(s.seat) && s.token) : [];
  } catch {
    return [];
  }
}

/** Remember a seat (replacing an older entry for the same game and seat). */
export function saveSeat(entry) {
  const list = loadSeats().filter((s) => !(s.game === entry.game && s.seat === entry.seat));
  list.unshift(entry);
  localStorage.setItem(SEATS_KEY, JSON.stringify(list.slice(0, 100)));
}

export function forgetSeat(game, seat) {
  const list = loadSeats().filter((s) => !(s.game === game && s.seat === seat));
  localStorage.setItem(SEATS_KEY, JSON.stringify(list));
}

/** The invite link of a seat: the token rides in the fragment, never in a request. */
export function inviteLink(game, seat, token) {
  return `${location.origin}/#/play/${encodeURIComponent(game)}/${seat}/${encodeURIComponent(token)}`;
}

const CACHE = new Map();
/** Map data and board SVG, fetched once per map. */
export async function mapBundle(name) {
  if (!CACHE.has(name)) {
    CACHE.set(name, Promise.all([api.map(name), api.boardSvg(name)]).then(([data, svg]) => ({ data, svg })));
  }
  return CACHE.get(name);
}
