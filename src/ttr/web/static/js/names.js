// Seats' names as the page shows them: a bot's name made from its level in the page's language ("中等电脑 3"
// on a Chinese page, "medium bot 3" on an English one) wherever the name is one made from its level (the
// server's "Bot 3 (medium)", or a lobby's in any of the page's languages); a name someone chose stays as it is.
import { LANGS, seatLevelLabel, t, programLabel } from "./i18n.js";

let forms = null; // language -> {bot_name, levels: {level: label}, program}

/** Load the level words of every language once (to recognise a name a lobby made in another language). */
export async function loadNameForms() {
  if (forms) return forms;
  const loaded = {};
  await Promise.all(LANGS.map(async (lang) => {
    try {
      const res = await fetch(`/i18n/${lang}.json`);
      if (!res.ok) return;
      const data = await res.json();
      const levels = {};
      for (const [k, v] of Object.entries(data)) if (k.startsWith("level.") && k !== "level.program") levels[k.slice(6)] = v;
      loaded[lang] = { botName: data["lobby.bot_name"] || "{level} {n}", levels, program: data["level.program"] || "{command}" };
    } catch {
      // a language that does not load: its names are not recognised, nothing else changes
    }
  }));
  forms = loaded;
  return forms;
}

function fill(pattern, params) {
  return pattern.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Whether `name` is one made from the bot's level for seat `seat` (0-based), in any language. */
export function isLevelName(name, seat, level) {
  if (!level) return false;
  const n = seat + 1;
  const label = level.startsWith("cmd:") ? programLabel(level) : level;
  if (name === `Bot ${n} (${label})`) return true; // the server's own
  for (const f of Object.values(forms || {})) {
    const word = level.startsWith("cmd:") ? fill(f.program, { command: programLabel(level) }) : f.levels[level];
    if (word && name === fill(f.botName, { level: word, n })) return true;
  }
  return false;
}

/** A seat's name for the page: `info` is the seat's `{seat, type, level, deleted?}` (from `seats`), `name` its
 * name; a deleted account's seat reads "a deleted player" in the page's language. */
export function seatName(info, name, seat) {
  if (info && info.deleted) return t("account.deleted_player");
  if (info && info.type === "bot" && isLevelName(name, seat, info.level)) {
    return t("lobby.bot_name", { level: seatLevelLabel(info.level), n: seat + 1 });
  }
  return name;
}
