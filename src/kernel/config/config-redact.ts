import { SECRET_ENV_NAME } from "../redact/secrets.js";
import { isPlainObject } from "./config.js";

/** What `bosun config` shows in place of a secret value. */
export const REDACTED = "[redacted]";

/**
 * Whether the value at `path` in `bosun.json` is a secret: a provider's `apiKey` or any of its
 * `headers` (they carry keys and tokens), or a key named as the agent's secret rules name
 * credential variables (`api_key`, `token`, `password`…).
 */
export function isSecretConfigPath(path: readonly string[]): boolean {
  const [section, , field] = path;
  if (section === "providers" && ((field === "apiKey" && path.length === 3) || (field === "headers" && path.length === 4))) return true;
  const key = path.at(-1);
  return key !== undefined && SECRET_ENV_NAME.test(key);
}

/**
 * A copy of a config value with every secret replaced by `[redacted]` (a secret object or list
 * whole), and the password of any URL too: what `bosun config` prints, so it never shows a key.
 */
export function redactConfig(value: unknown, path: string[] = []): unknown {
  if (path.length > 0 && isSecretConfigPath(path)) return REDACTED;
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactConfig(inner, [...path, key])]));
  if (Array.isArray(value)) return value.map((item) => redactConfig(item, path));
  return typeof value === "string" ? withoutUrlPassword(value) : value;
}

/** `scheme://user:password@…`: the password runs to the last `@` before the path. */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)[^/?#]+@/i;

function withoutUrlPassword(text: string): string {
  return text.replace(URL_PASSWORD, `$1${REDACTED}@`);
}
