// The rules page of a map (`#/rules/{map}`), in the page's language: its numbers from the map data
// (`/api/maps/{name}`: pieces, cards, tickets, stations, route points, bonuses) and a section for each
// feature the map has (tunnels, ferries, double routes, stations, tourist attractions, the longest path).
import { mapBundle } from "./api.js";
import { h, clear } from "./dom.js";
import { colorName, mapLabel, t } from "./i18n.js";

/** The rules page of `mapName`. */
export async function showRules(main, mapName) {
  const bundle = await mapBundle(mapName);
  const view = { relabel: () => renderRules(main, bundle.data) };
  view.relabel();
  return view;
}

function renderRules(main, data) {
  const rules = data.rules || {};
  const routes = data.routes || [];
  const piece = t(`piece.${rules.piece_name || "trains"}`);
  const wild = colorName(data.wild || "locomotive");
  const stations = rules.stations > 0;
  const attractions = (data.cities || []).some((c) => c.attraction) && rules.attraction_points > 0;
  const longest = rules.longest_path_bonus > 0;
  const p = (key, params = {}) => h("p", { dataset: { rule: key } }, t(key, { piece, wild, ...params }));
  const points = Object.entries(rules.route_points || {});
  clear(main).append(h("article", { class: "panel rules", id: "rules", dataset: { map: data.name } },
    h("h1", {}, t("rules.title", { map: mapLabel(data.name) })),
    p("rules.goal"),
    p("rules.setup", { pieces: rules.pieces, hand: rules.starting_hand, face_up: rules.face_up, tickets: rules.setup_tickets,
      keep: rules.setup_keep_min }),
    p("rules.turn", { station_choice: stations ? t("rules.turn_station") : "" }),
    p("rules.draw"),
    p("rules.claim"),
    h("table", { class: "breakdown route-points", id: "route-points" },
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, t("rules.points_spaces")), points.map(([n]) => h("td", {}, n))),
        h("tr", {}, h("th", { scope: "row" }, t("rules.points_points")), points.map(([, v]) => h("td", {}, v))))),
    p("rules.tickets", { draw: rules.draw_tickets, draw_keep: rules.draw_keep_min }),
    routes.some((r) => r.double) ? p("rules.double", { single: rules.double_routes_single_use_max_players }) : null,
    routes.some((r) => r.tunnel) && rules.tunnel_reveal ? p("rules.tunnel", { reveal: rules.tunnel_reveal }) : null,
    routes.some((r) => r.locomotives > 0) ? p("rules.ferry") : null,
    stations ? p("rules.stations", { stations: rules.stations, costs: (rules.station_costs || []).join(t("list.sep")),
      station_points: rules.unbuilt_station_points }) : null,
    attractions ? p("rules.attractions", { attraction: rules.attraction_points }) : null,
    p("rules.end", { end: rules.end_trigger_pieces }),
    longest ? p("rules.longest", { bonus: rules.longest_path_bonus }) : null,
    p("rules.scoring", { extras: [stations ? t("rules.scoring_stations") : "", longest ? t("rules.scoring_longest") : "",
      attractions ? t("rules.scoring_attractions") : ""].join("") }),
    h("p", {}, h("a", { class: "button", href: "#/" }, t("nav.lobby")))));
}
