import { join } from "node:path";
import { notSignedIn, signedIn } from "./kit/adapter.js";
import { presentText } from "./kit/detect/file-reader.js";
import { envIsSet } from "./kit/detect/env.js";
import { parseJson } from "./kit/detect/secret-rules.js";
import type { AuthStatus, CredentialLocations, DetectionContext, DisconnectPlan } from "./kit/types.js";

/** The one variable the npm grok reads its key from (not `XAI_API_KEY`). */
export const NPM_GROK_ENV_KEY = "GROK_API_KEY";
/** The key that decrypts a dotenv vault (dotenv then loads `.env.vault` instead of `.env`). */
export const DOTENV_KEY_ENV = "DOTENV_KEY";

/** `~/.grok/user-settings.json`: the npm grok's settings, with the key saved by `grok -k KEY`. */
export function npmGrokSettingsPath(ctx: Pick<DetectionContext, "home">): string {
  return join(ctx.home, ".grok", "user-settings.json");
}

/** The `.env` the npm grok loads at start (dotenv, from the working folder), and its vault. */
export function npmGrokDotenvPaths(ctx: Pick<DetectionContext, "cwd">): { dotenv: string; vault: string } {
  return { dotenv: join(ctx.cwd, ".env"), vault: join(ctx.cwd, ".env.vault") };
}

/** The npm grok's credentials: its settings file, the working folder's `.env` and vault, GROK_API_KEY and DOTENV_KEY. */
export function npmGrokCredentialLocations(ctx: Pick<DetectionContext, "home" | "cwd">): CredentialLocations {
  const { dotenv, vault } = npmGrokDotenvPaths(ctx);
  return { files: [npmGrokSettingsPath(ctx), dotenv, vault], folders: [], env: [NPM_GROK_ENV_KEY, DOTENV_KEY_ENV] };
}

/**
 * The value dotenv 16 (which the npm grok loads from `<cwd>/.env` at start) gives `name`, reduced
 * to whether it is non-empty; `undefined` when the file does not assign it. The last assignment
 * wins. Lines are `[export ]NAME=VALUE` or `NAME: VALUE`; a value is quoted ('…', "…" or `…`, and
 * may then span lines) or runs to a `#`.
 */
export function dotenvAssigns(text: string, name: string): boolean | undefined {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let found: boolean | undefined;
  for (let at = 0; at < lines.length; at++) {
    const assignment = /^\s*(?:export\s+)?([\w.-]+)(?:\s*=|:\s)(.*)$/.exec(lines[at]!);
    if (!assignment) continue;
    const rest = assignment[2]!.trimStart();
    const quote = rest[0];
    let value: string;
    if (quote === '"' || quote === "'" || quote === "`") {
      const closed = closingQuote(lines, at, quote, rest.slice(1));
      if (closed) {
        value = closed.inner;
        at = closed.line;
      } else {
        value = unquoted(rest);
      }
    } else {
      value = unquoted(rest);
    }
    if (assignment[1] === name) found = value !== "";
  }
  return found;
}

function unquoted(rest: string): string {
  return rest.split("#")[0]!.trim();
}

/**
 * A quoted value closes at its first unescaped quote, on this line or a later one, when only blanks
 * or a comment follow it on that line; otherwise the value is read unquoted.
 */
function closingQuote(lines: string[], start: number, quote: string, afterOpen: string): { inner: string; line: number } | undefined {
  let text = afterOpen;
  let from = 0;
  for (let line = start; line < lines.length; line++) {
    if (line > start) text += `\n${lines[line]}`;
    for (let close = text.indexOf(quote, from); close >= 0; close = text.indexOf(quote, close + 1)) {
      if (text[close - 1] === "\\") continue;
      return /^\s*(?:#.*)?$/.test(text.slice(close + 1)) ? { inner: text.slice(0, close), line } : undefined;
    }
    from = text.length;
  }
  return undefined;
}

/**
 * dotenv loads `.env.vault` instead of `.env` when `DOTENV_KEY` is set and a vault is there, and
 * grok does not start at all when that cannot be decrypted; bosun does not open vaults.
 */
function dotenvVault(ctx: DetectionContext): string | undefined {
  const { vault } = npmGrokDotenvPaths(ctx);
  return envIsSet(ctx.env, DOTENV_KEY_ENV) && ctx.files.stat(vault) !== undefined ? vault : undefined;
}

/**
 * The npm grok's own check (`grok -p` stops with "API key required" when it fails): a non-empty
 * `GROK_API_KEY`; else, when the variable is not there at all, the one `<cwd>/.env` sets; else an
 * (a dotenv vault in use is an error: bosun cannot tell)
 * `apiKey` that JavaScript takes as true in `~/.grok/user-settings.json` (invalid JSON there is no
 * key). The project's `.grok/settings.json` is never read for a key.
 */
export function findNpmGrokAuth(ctx: DetectionContext): AuthStatus {
  const vault = dotenvVault(ctx);
  if (vault) return { ...notSignedIn(vault), error: `grok loads ${vault} (DOTENV_KEY is set) and stops if it cannot decrypt it; bosun does not open it` };
  if (envIsSet(ctx.env, NPM_GROK_ENV_KEY)) return signedIn("env", NPM_GROK_ENV_KEY);
  if (ctx.env[NPM_GROK_ENV_KEY] === undefined) {
    const dotenv = presentText(ctx.files, npmGrokDotenvPaths(ctx).dotenv);
    if (dotenv && dotenvAssigns(dotenv.text, NPM_GROK_ENV_KEY)) return signedIn("external", dotenv.shownPath);
  }
  const path = npmGrokSettingsPath(ctx);
  const settings = presentText(ctx.files, path);
  const parsed = settings && parseJson(settings.text);
  const value = parsed?.value;
  if (settings && typeof value === "object" && value !== null && (value as { apiKey?: unknown }).apiKey) return signedIn("external", settings.shownPath);
  return notSignedIn(path);
}

/** There is no logout: the key is a variable, a `.env` line, or one field among the user's settings. */
export function planNpmGrokDisconnect(ctx: DetectionContext): DisconnectPlan {
  const auth = findNpmGrokAuth(ctx);
  if (auth.error) return { action: "none", reason: auth.error };
  if (!auth.connected) return { action: "none", reason: `no key in ${NPM_GROK_ENV_KEY}, ${npmGrokDotenvPaths(ctx).dotenv} or ${auth.authPath}` };
  if (auth.mode === "env") return { action: "none", reason: `grok uses the environment variable ${NPM_GROK_ENV_KEY}; unset it` };
  if (auth.authPath.endsWith(".env")) return { action: "none", reason: `grok reads ${NPM_GROK_ENV_KEY} from ${auth.authPath}; remove that line` };
  return { action: "none", reason: `the key is the "apiKey" field of ${auth.authPath}, next to your other grok settings; remove that field` };
}
