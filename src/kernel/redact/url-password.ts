/**
 * A URL that carries a password (`DATABASE_URL=postgres://app:hunter2x@db/app`): the whole URL
 * is a credential, and so is the password, which a tool may print on its own.
 */

// The scheme, a user without `:` or `@` (it may be empty, as in `redis://:pw@host`), then the
// password up to the last `@` before the path, query or fragment.
const URL_WITH_PASSWORD = /^[a-z][a-z\d+.-]*:\/\/[^:/?#@\s]*:([^/?#\s]+)@\S*$/i;

/** The password of `value` when all of it is a URL with one (`scheme://user:password@host…`), as written, else null. */
export function urlPassword(value: string): string | null {
  return URL_WITH_PASSWORD.exec(value)?.[1] ?? null;
}
