// Translations: the page's strings and city names in English, simplified and traditional Chinese.
// Every key the page uses must exist in all three files (tests/web/test_i18n.py checks).

export const LANGS = ["en", "zh-Hans", "zh-Hant"];
const STORE_KEY = "ttr.lang";
let lang = "en";
let strings = {};
let cities = {};
const listeners = [];

/** The language the browser prefers, among ours (zh-TW, zh-HK, zh-MO and zh-Hant are traditional). */
export function browserLang() {
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const raw of prefs) {
    const p = String(raw).toLowerCase();
    if (p.startsWith("zh")) {
      return /hant|tw|hk|mo/.test(p) ? "zh-Hant" : "zh-Hans";
    }
    if (p.startsWith("en")) return "en";
  }
  return "en";
}

/** The chosen language: the one saved by the switcher, or the browser's. */
export function initialLang() {
  const saved = localStorage.getItem(STORE_KEY);
  return LANGS.includes(saved) ? saved : browserLang();
}

/** Load a language's file and tell every listener. */
export async function setLang(next, save = false) {
  if (!LANGS.includes(next)) next = "en";
  const res = await fetch(`/i18n/${next}.json`);
  if (!res.ok) throw new Error(`cannot load /i18n/${next}.json: ${res.status}`);
  const data = await res.json();
  cities = data.cities || {};
  delete data.cities;
  strings = data;
  lang = next;
  if (save) localStorage.setItem(STORE_KEY, next);
  document.documentElement.lang = next;
  document.title = t("app.title");
  translateDom(document);
  for (const fn of listeners) fn(lang);
}

export function currentLang() {
  return lang;
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** A string by key, `{name}` placeholders filled from `params`; the key itself if missing. */
export function t(key, params = {}) {
  if (params.n === 1 && Object.prototype.hasOwnProperty.call(strings, `${key}.one`)) key = `${key}.one`; // "1 card"
  const text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A string by key, or `fallback` where no language has that key (e.g. a bot level the page does not know). */
export function tOr(key, fallback, params = {}) {
  return Object.prototype.hasOwnProperty.call(strings, key) ? t(key, params) : fallback;
}

/** A map's name in the current language; a map the page has no name for (a custom one) by its own name. */
export function mapLabel(name) {
  return tOr(`map.${name}`, name);
}

/** A bot level's name in the current language; a program the server offers (`cmd:COMMAND`) by its command. */
export function levelLabel(level) {
  return level.startsWith("cmd:") ? t("level.program", { command: level.slice(4) }) : tOr(`level.${level}`, level);
}

const INTERPRETER = /^(python|pypy|node|java|ruby|perl|bash|sh|lua|php|julia|deno|bun|Rscript)[0-9.]*$/;

/** A short label of a `cmd:COMMAND` level for seat names, as the server makes it (`programs.program_label`):
 * the program's file name, which after an interpreter (`python3`, `node`, `java`, ...) is its first word that
 * is no option. */
export function programLabel(level) {
  const words = [...level.slice(4).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  const base = (w) => w.split("/").pop();
  let program = words[0];
  if (INTERPRETER.test(base(program))) program = words.slice(1).find((w) => !w.startsWith("-")) || program;
  return (program && base(program)) || level.slice(4);
}

/** A level as part of a seat's name: a program by its short label (`programLabel`). */
export function seatLevelLabel(level) {
  return level.startsWith("cmd:") ? t("level.program", { command: programLabel(level) }) : levelLabel(level);
}

/** A city's name in the current language (the board's spelling if none). */
export function city(name) {
  return cities[name] || name;
}

/** "A-B" (a route or ticket name, maybe with "/track") in the current language. */
export function pairName(name) {
  const [pair, track] = String(name).split("/");
  const [a, b] = splitPair(pair);
  const text = `${city(a)} – ${city(b)}`;
  return track ? t("route.track", { route: text, track: /^\d+$/.test(track) ? track : colorName(track) }) : text;
}

/** Split "A-B" into its two city names (city names may hold spaces, not hyphens). */
export function splitPair(pair) {
  const i = pair.indexOf("-");
  return [pair.slice(0, i), pair.slice(i + 1)];
}

export function colorName(color) {
  return t(`color.${color}`);
}

/** Fill every element marked data-i18n (text), data-i18n-title, data-i18n-aria, data-i18n-placeholder. */
export function translateDom(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
