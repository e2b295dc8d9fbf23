import { join, resolve } from "node:path";
import { atDefaultPlaces, notSignedIn, signedIn } from "./kit/adapter.js";
import { presentText } from "./kit/detect/file-reader.js";
import { firstSetEnvVar } from "./kit/detect/env.js";
import { parseJson } from "./kit/detect/secret-rules.js";
import { OPENCODE_ENV_KEYS } from "./opencode-env-keys.js";
import type { AuthStatus, CredentialLocations, DetectionContext, DisconnectPlan } from "./kit/types.js";

/** OpenCode takes this variable, when it parses as JSON, instead of its `auth.json`. */
export const OPENCODE_AUTH_CONTENT = "OPENCODE_AUTH_CONTENT";

/**
 * `$XDG_DATA_HOME/opencode/auth.json`, else `~/.local/share/opencode/auth.json`. OpenCode takes
 * the variable as it is: not trimmed, no `~`, and a relative one is relative to the working folder.
 */
export function opencodeAuthPath(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  const xdg = ctx.env.XDG_DATA_HOME;
  return join(xdg ? resolve(ctx.cwd, xdg) : join(ctx.home, ".local", "share"), "opencode", "auth.json");
}

/**
 * OpenCode's `auth.json` (under XDG_DATA_HOME and at its default place), OPENCODE_AUTH_CONTENT,
 * and every provider variable its sign-in counts, including the few that hold no secret (a
 * region, an account id): any of them alone makes OpenCode list a provider.
 */
export function opencodeCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): CredentialLocations {
  return { files: [opencodeAuthPath(ctx), opencodeAuthPath(atDefaultPlaces(ctx))], folders: [], env: [...OPENCODE_ENV_KEYS, OPENCODE_AUTH_CONTENT] };
}

const isString = (value: unknown): value is string => typeof value === "string";
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const optional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);
const stringRecord = (value: unknown): boolean => isRecord(value) && !Array.isArray(value) && Object.values(value).every(isString);
const nonNegativeInteger = (value: unknown): boolean => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * Whether OpenCode 1.18 keeps an `auth.json` entry: its schema has three shapes, told apart by
 * `type`. Values may be empty strings (OpenCode lists those too); anything else is dropped, as
 * the real `opencode auth list` does.
 */
export function isOpencodeCredential(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  switch (entry.type) {
    case "api":
      return isString(entry.key) && optional(entry.metadata, stringRecord);
    case "oauth":
      return isString(entry.refresh) && isString(entry.access) && nonNegativeInteger(entry.expires) && optional(entry.accountId, isString) && optional(entry.enterpriseUrl, isString);
    case "wellknown":
      return isString(entry.key) && isString(entry.token);
    default:
      return false;
  }
}

/** What OpenCode makes of stored credentials: the providers it lists, or `broken` for a `null` it cannot start with. */
type Stored = { providers: string[] } | { broken: true };

function storedIn(value: unknown, validate: boolean): Stored {
  // OpenCode walks the value's own keys; `null` stops it with an error (its `auth list` exits 1).
  if (value === null) return { broken: true };
  const entries = Object.entries(value as object);
  return { providers: entries.filter(([, entry]) => !validate || isOpencodeCredential(entry)).map(([provider]) => provider) };
}

/** Where OpenCode's stored credentials come from, and what is in them. */
export interface OpencodeStore {
  /** `OPENCODE_AUTH_CONTENT`, or the `auth.json` path (its real path when it is a symlink). */
  source: string;
  fromEnv: boolean;
  stored: Stored;
}

/**
 * `OPENCODE_AUTH_CONTENT` wins when it is set and parses as JSON (its entries are taken as they
 * are, unchecked); otherwise `auth.json`, whose invalid JSON is no credentials and whose entries
 * must have one of the credential shapes. A leading byte-order mark is allowed there.
 */
export function readOpencodeStore(ctx: DetectionContext): OpencodeStore {
  const inline = ctx.env[OPENCODE_AUTH_CONTENT];
  if (inline) {
    const parsed = parseJson(inline);
    if (parsed) return { source: OPENCODE_AUTH_CONTENT, fromEnv: true, stored: storedIn(parsed.value, false) };
  }
  const path = opencodeAuthPath(ctx);
  const file = presentText(ctx.files, path);
  const parsed = file && parseJson(file.text.replace(/^\uFEFF/, ""));
  return { source: file?.shownPath ?? path, fromEnv: false, stored: parsed ? storedIn(parsed.value, true) : { providers: [] } };
}

/**
 * OpenCode's own verdict, as `opencode auth list` gives it: stored credentials first (they
 * override a provider's variable inside OpenCode), then the first provider variable of its
 * catalogue that is set.
 */
export function findOpencodeAuth(ctx: DetectionContext): AuthStatus {
  const store = readOpencodeStore(ctx);
  if ("broken" in store.stored) {
    return { ...notSignedIn(store.source), error: `${store.source} holds null, and OpenCode stops with an error on it: delete it, or make it {}` };
  }
  if (store.stored.providers.length > 0) return signedIn(store.fromEnv ? "env" : "external", store.source);
  const variable = firstSetEnvVar(ctx.env, OPENCODE_ENV_KEYS);
  if (variable) return signedIn("env", variable);
  return notSignedIn(opencodeAuthPath(ctx));
}

/**
 * Disconnect does what OpenCode would: `opencode auth logout PROVIDER` for the one stored
 * credential. Several providers are not chosen between, and a variable is the user's to unset.
 */
export function planOpencodeDisconnect(ctx: DetectionContext, binary: string): DisconnectPlan {
  const store = readOpencodeStore(ctx);
  const stored = "broken" in store.stored ? [] : store.stored.providers;
  if (store.fromEnv && stored.length > 0) return { action: "none", reason: `OpenCode takes its credentials from ${OPENCODE_AUTH_CONTENT}; unset it` };
  if (stored.length === 0) {
    const variable = firstSetEnvVar(ctx.env, OPENCODE_ENV_KEYS);
    if (variable) return { action: "none", reason: `OpenCode uses the environment variable ${variable}; unset it` };
    return { action: "none", reason: `no credentials in ${store.source}` };
  }
  if (stored.length > 1) {
    return { action: "none", reason: `${store.source} holds ${stored.length} credentials (${stored.join(", ")}); sign out of each with \`opencode auth logout PROVIDER\`` };
  }
  const provider = stored[0]!;
  // A provider name that looks like an option would be read as one.
  if (provider.startsWith("-") || provider === "") return { action: "none", reason: `sign out of ${JSON.stringify(provider)} with OpenCode itself (opencode auth logout)` };
  return { action: "run-logout", mode: "external", command: binary, args: ["auth", "logout", provider], authPath: store.source, secretFiles: [store.source] };
}

