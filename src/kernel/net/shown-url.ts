/**
 * A URL as bosun shows it (errors, retry lines, the session file, the log): scheme, host, port and
 * path, without the user name, password, query and fragment, which is where credentials ride
 * (`http://bob:hunter2@host/v1`, `…/v1?token=…`, `?key=…`). A URL that does not parse is cut the
 * same way by its text, so even a broken one never shows what came before its `@`.
 */
export function shownUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed && parsed.host !== "") {
    // The parser reports a missing path as "/": show it only when it was written.
    const path = parsed.pathname === "/" && !/^[^:]+:\/\/[^/]*\//.test(url) ? "" : parsed.pathname;
    return `${parsed.protocol}//${parsed.host}${path}`;
  }
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url)?.[0] ?? "";
  const rest = url.slice(scheme.length);
  const pathStart = rest.indexOf("/") < 0 ? rest.length : rest.indexOf("/");
  const afterUser = rest.lastIndexOf("@", pathStart) + 1;
  return scheme + rest.slice(afterUser).replace(/[?#].*$/s, "");
}
