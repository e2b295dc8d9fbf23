/**
 * Something in a config file that bosun ignores instead of refusing to start over: shown once per
 * start on stderr, in `bosun status` and by `bosun config`. bosun never locks itself out over a
 * file it wrote or moved, so only a wrong value of a known key is an error.
 */
export interface ConfigWarning {
  /** `unknown-key`: a key the schema does not know; `ignored-project`: a project config bosun does not trust. */
  kind: "unknown-key" | "ignored-project";
  file: string;
  line: number | null;
  /** The key's full path (`plugins.demo.enable`), when the warning is about a key. */
  key: string | null;
  message: string;
  /** A known key at the same level that is close to the unknown one. */
  suggestion: string | null;
}

/** One line: `file:line: key: message; did you mean X?` (paths shown through `show`). */
export function describeWarning(warning: ConfigWarning, show: (path: string) => string = (path) => path): string {
  const place = warning.line === null ? show(warning.file) : `${show(warning.file)}:${warning.line}`;
  const hint = warning.suggestion ? `; did you mean ${warning.suggestion}?` : "";
  return [place, warning.key, warning.message + hint].filter(Boolean).join(": ");
}
