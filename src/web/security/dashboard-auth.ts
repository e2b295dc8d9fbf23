import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The session cookie's name. */
export const SESSION_COOKIE = "bosun_session";
/** How long a launch link works (it works once). */
export const LAUNCH_TOKEN_MS = 10 * 60_000;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Who may use the dashboard: whoever opened a launch link `bosun serve` printed. A link's token
 * works once, within `LAUNCH_TOKEN_MS`; it is swapped for a session cookie (`<id>.<mac>`, signed
 * with the secret) and a per-session CSRF token (derived from the same secret), which every
 * request that changes something must send in a header. Nothing is kept per session: a restart
 * with the same secret keeps open tabs signed in.
 */
export class DashboardAuth {
  private readonly tokens = new Map<string, number>();
  /** Cookies already checked (their session): a page's requests are not each signed again. */
  private readonly known = new Map<string, string>();

  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new launch token. */
  mintLaunchToken(): string {
    const token = hex(24);
    this.tokens.set(token, this.now() + LAUNCH_TOKEN_MS);
    return token;
  }

  /** Takes a launch token: true once for one that was minted and has not expired (compared in constant time). */
  redeem(token: string | undefined): boolean {
    if (token === undefined) return false;
    const now = this.now();
    let found: string | null = null;
    for (const [known, expires] of this.tokens) {
      if (expires <= now) this.tokens.delete(known);
      else if (sameText(known, token)) found = known;
    }
    if (found === null) return false;
    this.tokens.delete(found);
    return true;
  }

  /** A new session: the cookie's value. */
  newSession(): string {
    const id = hex(16);
    return `${id}.${this.mac(`session:${id}`)}`;
  }

  /** The session a cookie's value stands for, or null when it is not one this secret signed. */
  sessionOf(cookie: string | undefined): string | null {
    if (!cookie) return null;
    const seen = this.known.get(cookie);
    if (seen !== undefined) return seen;
    const [id, mac, extra] = cookie.split(".");
    if (!id || !mac || extra !== undefined || !/^[0-9a-f]{32}$/.test(id)) return null;
    if (!sameText(mac, this.mac(`session:${id}`))) return null;
    if (this.known.size >= 1000) this.known.clear();
    this.known.set(cookie, id);
    return id;
  }

  /** The session's CSRF token: in its pages, sent back in `x-bosun-csrf`. */
  csrfToken(session: string): string {
    return this.mac(`csrf:${session}`);
  }

  csrfValid(session: string, header: string | undefined): boolean {
    return header !== undefined && sameText(header, this.csrfToken(session));
  }

  private mac(text: string): string {
    return createHmac("sha256", this.secret).update(text).digest("hex");
  }
}

/**
 * The secret the dashboard's cookies are signed with: 32 random bytes in a file only you can read
 * (`<state>/serve-secret`, 0600), made on first use. A file that is not 64 hex characters is made
 * again (the open tabs then sign in again).
 */
export function dashboardSecret(file: string): Buffer {
  try {
    const text = readFileSync(file, "utf8").trim();
    if (/^[0-9a-f]{64}$/.test(text)) {
      chmodSync(file, 0o600);
      return Buffer.from(text, "hex");
    }
  } catch {
    // none yet, or unreadable: a new one
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  writeFileSync(file, `${secret.toString("hex")}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
