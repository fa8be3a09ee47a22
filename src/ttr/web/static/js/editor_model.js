// The map editor's document: a ttr-map/1 map file being edited, with undo and redo, kept in localStorage.
// Cities sit at their `board` places (0-100 board units); their lat/lon follow the place (docs/maps.md).

const STORE_KEY = "ttr.editor.doc";
const HISTORY = 200;

/** A blank sheet: no cities yet, the rules of a small two- to four-player game. */
export function blankMap() {
  return {
    format: "ttr-map/1",
    name: "my_map",
    title: "My map",
    cards: { colors: ["red", "blue", "green", "yellow", "black", "white"], per_color: 10, wild: "locomotive", wild_count: 8 },
    rules: {
      players_min: 2, players_max: 4, pieces: 20, piece_name: "trains", stations: 0, station_costs: [],
      starting_hand: 4, face_up: 5, face_up_wild_limit: 3, face_up_max_resets: 3,
      setup_tickets: { long: 0, regular: 2, keep_min: 1, returned: "bottom" },
      draw_tickets: { draw: 2, keep_min: 1 },
      double_routes_single_use_max_players: 3, end_trigger_pieces: 2, tunnel_reveal: 3,
      route_points: { 1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15 },
      longest_path_bonus: 10, unbuilt_station_points: 0, attraction_points: 0,
      tiebreaks: ["tickets_completed", "longest_path"],
    },
    cities: [],
    board: {},
    routes: [],
    tickets: [],
  };
}

/** lat/lon that follow a board place (the rules never use them; the check wants them in range). */
export function coordsFor(x, y) {
  return { lat: Math.round((60 - y * 0.3) * 1000) / 1000, lon: Math.round((-30 + x * 0.6) * 1000) / 1000 };
}

export class EditorDoc {
  constructor() {
    this.undoStack = [];
    this.redoStack = [];
    this.listeners = [];
    this.data = this.load() || blankMap();
  }

  load() {
    try {
      const text = localStorage.getItem(STORE_KEY);
      const data = text ? JSON.parse(text) : null;
      return data && typeof data === "object" ? data : null;
    } catch {
      return null;
    }
  }

  onChange(fn) {
    this.listeners.push(fn);
  }

  emit() {
    localStorage.setItem(STORE_KEY, JSON.stringify(this.data));
    for (const fn of this.listeners) fn();
  }

  /** Change the map: `fn(data)` edits it in place; the state before is kept for undo. */
  change(fn) {
    const before = JSON.stringify(this.data);
    fn(this.data);
    if (JSON.stringify(this.data) === before) return;
    this.undoStack.push(before);
    if (this.undoStack.length > HISTORY) this.undoStack.shift();
    this.redoStack = [];
    this.emit();
  }

  /** Replace the whole map (a start, a loaded file): undoable like any change. */
  replace(data) {
    this.change((d) => {
      for (const key of Object.keys(d)) delete d[key];
      Object.assign(d, JSON.parse(JSON.stringify(data)));
    });
  }

  undo() {
    if (!this.undoStack.length) return;
    this.redoStack.push(JSON.stringify(this.data));
    this.data = JSON.parse(this.undoStack.pop());
    this.emit();
  }

  redo() {
    if (!this.redoStack.length) return;
    this.undoStack.push(JSON.stringify(this.data));
    this.data = JSON.parse(this.redoStack.pop());
    this.emit();
  }

  place(name) {
    const board = this.data.board || {};
    return board[name] || [50, 35];
  }

  /** A new city at (x, y) board units, named "City N" (the first free N); its name. */
  addCity(x, y) {
    const names = new Set(this.data.cities.map((c) => c.name));
    let n = this.data.cities.length + 1;
    while (names.has(`City ${n}`)) n += 1;
    const name = `City ${n}`;
    this.change((d) => {
      d.cities.push({ name, ...coordsFor(x, y) });
      d.board = d.board || {};
      d.board[name] = [x, y];
    });
    return name;
  }

  moveCity(name, x, y, record = true) {
    const apply = (d) => {
      d.board = d.board || {};
      d.board[name] = [x, y];
      const city = d.cities.find((c) => c.name === name);
      if (city) Object.assign(city, coordsFor(x, y));
    };
    // a drag moves the city at every step; undo takes it back to where the drag began
    if (this.moveStart === undefined || this.moveStart === null) this.moveStart = JSON.stringify(this.data);
    apply(this.data);
    if (!record) {
      for (const fn of this.listeners) fn();
      return;
    }
    const before = this.moveStart;
    this.moveStart = null;
    if (JSON.stringify(this.data) === before) return;
    this.undoStack.push(before);
    if (this.undoStack.length > HISTORY) this.undoStack.shift();
    this.redoStack = [];
    this.emit();
  }

  renameCity(old, name) {
    if (!name || old === name) return;
    this.change((d) => {
      for (const c of d.cities) if (c.name === old) c.name = name;
      if (d.board && d.board[old]) {
        d.board[name] = d.board[old];
        delete d.board[old];
      }
      for (const item of [...d.routes, ...d.tickets]) {
        if (item.a === old) item.a = name;
        if (item.b === old) item.b = name;
      }
      if (Array.isArray(d.tourist_attractions)) d.tourist_attractions = d.tourist_attractions.map((c) => (c === old ? name : c));
    });
  }

  deleteCity(name) {
    this.change((d) => {
      d.cities = d.cities.filter((c) => c.name !== name);
      if (d.board) delete d.board[name];
      d.routes = d.routes.filter((r) => r.a !== name && r.b !== name);
      d.tickets = d.tickets.filter((t) => t.a !== name && t.b !== name);
    });
  }

  addRoute(a, b, length) {
    this.change((d) => d.routes.push({ a, b, length, color: "gray", tunnel: false, ferry_locomotives: 0 }));
    return this.data.routes.length - 1;
  }

  /** A second track beside route `i`, of another colour than the first. */
  addTwin(i) {
    const r = this.data.routes[i];
    if (!r) return -1;
    const colors = this.data.cards.colors || [];
    const color = r.color === "gray" ? "gray" : colors.find((c) => c !== r.color) || "gray";
    this.change((d) => d.routes.splice(i + 1, 0, { ...r, color }));
    return i + 1;
  }

  addTicket(a, b, points) {
    this.change((d) => d.tickets.push({ a, b, points, long: false }));
  }
}
