// Error lines: a failure worded in the page's language, the server's own (English) words kept below it.
import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** An error line: the message in the page's language (`error` is {key, params, detail?}), the server's own
 * (English) words kept below it as a detail. The lobby's errors and a game or replay that does not open use it. */
export function errorLine(error, attrs = {}) {
  const box = h("div", { class: "error", role: "alert", ...attrs });
  if (!error) return box;
  box.append(h("span", { class: "error-text" }, t(error.key, error.params || {})));
  if (error.detail) {
    box.append(h("small", { class: "error-detail" }, t("error.server_said"), " ", h("span", { lang: "en" }, error.detail)));
  }
  return box;
}

/** Something that did not load: `key` when the server answered with an error (its words as the detail),
 * `networkKey` when it did not answer at all (no server words to show). */
export function loadError(err, key, networkKey) {
  return err instanceof ApiError ? { key, detail: err.message } : { key: networkKey, detail: null };
}
