// The dialogs of a game: claim a route, build a station, confirm a move. Each names the card sets it may
// be paid with, the cheapest preselected, and sends the chosen action through `gv` (the page's GameView).
import { cardChip } from "./cards.js";
import { h, clear } from "./dom.js";
import { t, city, pairName } from "./i18n.js";

/** Open the dialog with the focus on its main button, so that Enter does it (Enter on a card-set choice
 * too; the arrow keys still move between the choices); the board's tooltip goes away with the click that
 * opened it. */
function openDialog(gv, title, content, buttons) {
  const dlg = clear(gv.dialog);
  gv.board.hideTip();
  dlg.append(h("h2", { id: "dialog-title" }, title), content, h("div", { class: "row" }, buttons));
  dlg.setAttribute("aria-labelledby", "dialog-title");
  dlg.onkeydown = (ev) => {
    const main = dlg.querySelector("button.primary");
    if (ev.key === "Enter" && main && ev.target instanceof HTMLInputElement && ev.target.type === "radio") {
      ev.preventDefault();
      main.click();
    }
  };
  if (!dlg.open) dlg.showModal();
  const first = dlg.querySelector("button.primary, button");
  if (first) first.focus();
}

function closeDialog(gv) {
  if (gv.dialog.open) gv.dialog.close();
}

/** Card-set choice as radio buttons, `chosen` (default the first, the cheapest) checked. */
function optionList(gv, options, name, chosen = 0) {
  const list = h("ul", { class: "options", role: "radiogroup" });
  options.forEach((entry, i) => {
    const id = `${name}-${i}`;
    list.append(h("li", {}, h("label", { for: id },
      h("input", { type: "radio", name, id, value: String(i), checked: i === chosen }), " ",
      Object.entries(entry.action.cards).map(([c, n]) => cardChip(c, gv.letters, n)))));
  });
  return list;
}

/** The set the guided game's coach names for its next move among `options`, else `fallback`. */
function coachChoice(gv, options, fallback) {
  const k = gv.coach ? gv.coach.choiceIn(options) : -1;
  return k >= 0 ? k : fallback;
}

/** The claim dialog for route `index`: the card sets that pay for it, the cheapest checked (or `chosen`; in
 * the guided game, the coach's). */
export function openClaim(gv, index, chosen = null) {
  const options = gv.claimsByRoute().get(index);
  if (!options) return;
  if (chosen === null) chosen = coachChoice(gv, options, 0);
  gv.reopen = () => openClaim(gv, index, chosen);
  const r = gv.board.routes[index];
  const content = h("div", {}, h("p", {}, gv.board.describe(index)),
    r.tunnel ? h("p", { class: "note" }, t("claim.tunnel_note")) : null,
    h("p", {}, t("claim.choose")), optionList(gv, options, "claim-option", chosen));
  openDialog(gv, t("claim.title", { route: pairName(r.name) }), content, [
    h("button", { type: "button", class: "primary", id: "claim-confirm", onclick: () => {
      const picked = gv.dialog.querySelector("input[name=claim-option]:checked");
      const k = Number(picked ? picked.value : 0);
      closeDialog(gv);
      gv.send(options[k], () => openClaim(gv, index, k));
    } }, t("claim.do")),
    h("button", { type: "button", onclick: () => closeDialog(gv) }, t("dialog.cancel")),
  ]);
}

/** The station dialog: a city (`cityName`, else the coach's in the guided game, else the first) and the card
 * sets that build there. */
export function openStation(gv, cityName, chosen = null) {
  const groups = gv.stationsByCity();
  if (!groups.size) return;
  if (!cityName && gv.coach) cityName = gv.coach.stationCity();
  if (chosen === null) chosen = cityName && groups.has(cityName) ? coachChoice(gv, groups.get(cityName), 0) : 0;
  gv.reopen = () => openStation(gv, cityName, chosen);
  const cities = [...groups.keys()].sort((a, b) => city(a).localeCompare(city(b)));
  let chosenCity = cityName && groups.has(cityName) ? cityName : cities[0];
  const optionsBox = h("div");
  let first = chosen;
  const fill = () => {
    clear(optionsBox).append(optionList(gv, groups.get(chosenCity), "station-option", first));
    first = 0;
  };
  const select = h("select", { id: "station-city", onchange: (ev) => { chosenCity = ev.target.value; fill(); } },
    cities.map((c) => h("option", { value: c, selected: c === chosenCity }, city(c))));
  fill();
  const content = h("div", {}, h("p", {}, t("station.note")),
    h("label", { class: "field" }, h("span", {}, t("station.city")), select), optionsBox);
  openDialog(gv, t("station.title"), content, [
    h("button", { type: "button", class: "primary", id: "station-confirm", onclick: () => {
      const picked = gv.dialog.querySelector("input[name=station-option]:checked");
      const k = Number(picked ? picked.value : 0);
      const where = chosenCity;
      closeDialog(gv);
      gv.send(groups.get(where)[k], () => openStation(gv, where, k));
    } }, t("station.do")),
    h("button", { type: "button", onclick: () => closeDialog(gv) }, t("dialog.cancel")),
  ]);
}

/** Ask before sending a move ("Confirm each move"); `go` sends it; `change` (if given) opens the dialog the
 * move was chosen in again, that choice selected, to pick another; nothing is sent until "Yes". */
export function confirmMove(gv, text, go, change = null) {
  openDialog(gv, t("confirm.title"), h("p", { id: "confirm-text" }, text), [
    h("button", { type: "button", class: "primary", id: "confirm-yes", onclick: () => { closeDialog(gv); go(); } }, t("confirm.yes")),
    change ? h("button", { type: "button", id: "confirm-change", onclick: () => change() }, t("confirm.change")) : null,
    h("button", { type: "button", onclick: () => closeDialog(gv) }, t("dialog.cancel")),
  ]);
}
