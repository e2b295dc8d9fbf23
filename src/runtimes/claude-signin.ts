import { join, resolve } from "node:path";
import type { Env } from "../kernel/paths.js";
import { envIsSet } from "./kit/detect/env.js";
import { atDefaultPlaces, unlessUnreadable } from "./kit/adapter.js";
import { MAX_CREDENTIAL_BYTES, type FileReader } from "./kit/detect/file-reader.js";
import type { CredentialLocations, DetectionContext } from "./kit/types.js";

/**
 * Which credential Claude Code (2.1.197) would use, worked out the way `claude auth status` does.
 * Checked source by source against the real CLI (test/real/claude-signin.test.ts); the order is
 * the CLI's, not a guess, and several quirks (an empty CLAUDE_CONFIG_DIR, a project settings file
 * beating the user's, `.config.json` shadowing `.claude.json`) are its own.
 */
export type ClaudeSource =
  /** A cloud provider or gateway switched on by `variable`: the provider's own login applies. */
  | { kind: "provider"; variable: string; provider: string }
  /** A credential in the environment (its name only). */
  | { kind: "env"; variable: string }
  /** `apiKeyHelper` in a settings file: a command Claude Code runs for its key. */
  | { kind: "helper"; file: string }
  /** An Anthropic profile (`ant auth`): its config file, or the two federation variables. */
  | { kind: "profile"; file: string }
  | { kind: "profile-env"; variable: string }
  /** The stored Claude login: `claudeAiOauth` in `.credentials.json`. */
  | { kind: "stored-login"; file: string }
  /** The key `/login` stored: `primaryApiKey` in the global config file. */
  | { kind: "login-key"; file: string };

/** The tokens Claude Code takes from the environment ahead of any file, in its order. */
export const CLAUDE_TOKEN_ENV_KEYS = ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"] as const;
/** The API key variable: after the stored login, or alone in bare mode. */
export const CLAUDE_API_KEY_ENV = "ANTHROPIC_API_KEY";
/** The variables Claude Code reads a secret from (checked by the planted-secret tests). */
export const CLAUDE_SECRET_ENV_KEYS = [...CLAUDE_TOKEN_ENV_KEYS, CLAUDE_API_KEY_ENV] as const;
/** The pair that signs in through an Anthropic federation rule when both are set (ids, yet together a sign-in). */
export const CLAUDE_FEDERATION_ENV_KEYS = ["ANTHROPIC_FEDERATION_RULE_ID", "ANTHROPIC_ORGANIZATION_ID"] as const;

/** Claude Code's switches read "1", "true", "yes" or "on" (any case, trimmed) as on. */
export function claudeSwitchOn(env: Env, name: string): boolean {
  const value = env[name];
  return typeof value === "string" && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

// In the CLI's order: the first switch that is on picks the provider (Mantle with Bedrock stays Bedrock).
const PROVIDER_SWITCHES: readonly [string, string][] = [
  ["CLAUDE_CODE_USE_BEDROCK", "Bedrock"],
  ["CLAUDE_CODE_USE_FOUNDRY", "Foundry"],
  ["CLAUDE_CODE_USE_ANTHROPIC_AWS", "Claude on AWS"],
  ["CLAUDE_CODE_USE_MANTLE", "Bedrock Mantle"],
  ["CLAUDE_CODE_USE_VERTEX", "Vertex"],
];

/**
 * Claude Code's config folder: `$CLAUDE_CONFIG_DIR` taken literally whenever it is defined (not
 * trimmed, no `~`, relative to the working folder, so an empty value means the working folder
 * itself), else `~/.claude`.
 */
export function claudeConfigDir(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  const value = ctx.env.CLAUDE_CONFIG_DIR;
  return (value === undefined ? join(ctx.home, ".claude") : resolve(ctx.cwd, value)).normalize("NFC");
}

/** Where the stored login lives: `$CLAUDE_SECURESTORAGE_CONFIG_DIR` (empty: `~/.claude`) when defined, else the config folder. */
export function claudeCredentialsPath(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  const secure = ctx.env.CLAUDE_SECURESTORAGE_CONFIG_DIR;
  const dir = secure === undefined ? claudeConfigDir(ctx) : secure === "" ? join(ctx.home, ".claude") : resolve(ctx.cwd, secure);
  return join(dir, ".credentials.json");
}

/** Where the global config may be, in the CLI's order: `<config dir>/.config.json`, then `.claude.json` in `$CLAUDE_CONFIG_DIR` (empty or unset: HOME). */
export function claudeGlobalConfigCandidates(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): [legacy: string, current: string] {
  const dir = ctx.env.CLAUDE_CONFIG_DIR ? resolve(ctx.cwd, ctx.env.CLAUDE_CONFIG_DIR) : ctx.home;
  return [join(claudeConfigDir(ctx), ".config.json"), join(dir, ".claude.json")];
}

/** The global config (`.claude.json`): the legacy `.config.json` when that exists, else `.claude.json`. */
export function claudeGlobalConfigPath(ctx: DetectionContext): string {
  const [legacy, current] = claudeGlobalConfigCandidates(ctx);
  return unlessUnreadable(() => ctx.files.stat(legacy)) ? legacy : current;
}

/** The settings files whose `apiKeyHelper` counts, lowest precedence first (a later file's value wins, even an empty one). */
export function claudeSettingsFiles(ctx: DetectionContext): string[] {
  return [
    join(claudeConfigDir(ctx), "settings.json"),
    join(ctx.cwd, ".claude", "settings.json"),
    join(ctx.cwd, ".claude", "settings.local.json"),
    ...managedSettingsFiles(ctx.files),
  ];
}

const MANAGED_DIR = "/etc/claude-code";

function managedSettingsFiles(files: FileReader): string[] {
  const dropIns = (unlessUnreadable(() => files.list(join(MANAGED_DIR, "managed-settings.d"))) ?? [])
    .filter((name) => name.endsWith(".json") && !name.startsWith("."))
    .map((name) => join(MANAGED_DIR, "managed-settings.d", name));
  return [join(MANAGED_DIR, "managed-settings.json"), ...dropIns];
}

/**
 * A JSON object from a file, or undefined when the file is missing, not a regular file, cannot be
 * read (too large, not UTF-8, no permission) or is not a JSON object: Claude Code skips such a
 * file and goes on to its next source, and so does bosun.
 */
export function readJsonObject(files: FileReader, path: string): Record<string, unknown> | undefined {
  const text = unlessUnreadable(() => (files.stat(path)?.kind === "file" ? files.readText(path, MAX_CREDENTIAL_BYTES) : undefined));
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The settings file whose `apiKeyHelper` is in force, if that value is a non-empty string. */
function helperFile(ctx: DetectionContext): string | undefined {
  let winner: { file: string; value: string } | undefined;
  for (const file of claudeSettingsFiles(ctx)) {
    const value = readJsonObject(ctx.files, file)?.apiKeyHelper;
    if (typeof value === "string") winner = { file, value };
  }
  return winner && winner.value !== "" ? winner.file : undefined;
}

/** `claudeAiOauth` with a truthy `accessToken` and the `user:inference` scope: the one stored login the CLI accepts. */
export function storedLoginIn(json: Record<string, unknown> | undefined): boolean {
  const oauth = json?.claudeAiOauth as Record<string, unknown> | undefined;
  if (!oauth || typeof oauth !== "object") return false;
  return Boolean(oauth.accessToken) && Array.isArray(oauth.scopes) && oauth.scopes.includes("user:inference");
}

/** The folder of Anthropic profiles (`ant auth`): `$ANTHROPIC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/anthropic`, else `$HOME/.config/anthropic`. */
export function anthropicProfileDir(env: Env): string | undefined {
  const own = env.ANTHROPIC_CONFIG_DIR?.trim();
  if (own) return own;
  const xdg = env.XDG_CONFIG_HOME?.trim();
  if (xdg) return join(xdg, "anthropic");
  const home = env.HOME?.trim();
  return home ? join(home, ".config", "anthropic") : undefined;
}

/** An `ant` profile Claude Code signs in with: its config file's `authentication.type` is a federation or user login. */
function profileSource(ctx: DetectionContext, storedLogin: boolean): ClaudeSource | undefined {
  const dir = anthropicProfileDir(ctx.env);
  const named = ctx.env.ANTHROPIC_PROFILE?.trim();
  if (named) {
    if (!dir) return undefined;
    const file = join(dir, "configs", `${named}.json`);
    return profileType(ctx, file) ? { kind: "profile", file } : undefined;
  }
  if (CLAUDE_FEDERATION_ENV_KEYS.every((name) => ctx.env[name]?.trim())) return { kind: "profile-env", variable: CLAUDE_FEDERATION_ENV_KEYS[0] };
  if (!dir) return undefined;
  const active = readSmallText(ctx.files, join(dir, "active_config"))?.trim() || "default";
  const file = join(dir, "configs", `${active}.json`);
  const type = profileType(ctx, file);
  // The active profile gives way to a stored Claude login when it is only a user login itself.
  if (!type || (type === "user_oauth" && storedLogin)) return undefined;
  return { kind: "profile", file };
}

function profileType(ctx: DetectionContext, file: string): "oidc_federation" | "user_oauth" | undefined {
  const auth = readJsonObject(ctx.files, file)?.authentication as Record<string, unknown> | undefined;
  const type = auth && typeof auth === "object" ? auth.type : undefined;
  if (type === "oidc_federation") return type;
  if (type !== "user_oauth") return undefined;
  const given = auth!.credentials_path;
  const credentials = typeof given === "string" ? given : join(file, "..", "..", "credentials", file.slice(file.lastIndexOf("/") + 1));
  return unlessUnreadable(() => ctx.files.stat(credentials)?.kind === "file") ? type : undefined;
}

function readSmallText(files: FileReader, path: string): string | undefined {
  return unlessUnreadable(() => (files.stat(path)?.kind === "file" ? files.readText(path, MAX_CREDENTIAL_BYTES) : undefined));
}

/**
 * Every source that would sign Claude Code in, in the CLI's precedence: the first is the one it
 * uses. Empty: not signed in. Values are only tested, never kept.
 */
export function claudeSignInSources(ctx: DetectionContext): ClaudeSource[] {
  const { env } = ctx;
  const sources: ClaudeSource[] = [];
  if (claudeSwitchOn(env, "CLAUDE_CODE_USE_GATEWAY") && envIsSet(env, "ANTHROPIC_BASE_URL") && envIsSet(env, CLAUDE_TOKEN_ENV_KEYS[0]) && URL.canParse(env.ANTHROPIC_BASE_URL!)) {
    sources.push({ kind: "provider", variable: "CLAUDE_CODE_USE_GATEWAY", provider: "gateway" });
  }
  const provider = PROVIDER_SWITCHES.find(([name]) => claudeSwitchOn(env, name));
  if (provider) sources.push({ kind: "provider", variable: provider[0], provider: provider[1] });
  // Bare mode (`--bare`, CLAUDE_CODE_SIMPLE) reads nothing from disk.
  if (claudeSwitchOn(env, "CLAUDE_CODE_SIMPLE")) {
    if (envIsSet(env, CLAUDE_API_KEY_ENV)) sources.push({ kind: "env", variable: CLAUDE_API_KEY_ENV });
    return sources;
  }
  for (const variable of CLAUDE_TOKEN_ENV_KEYS) if (envIsSet(env, variable)) sources.push({ kind: "env", variable });
  const helper = helperFile(ctx);
  if (helper) sources.push({ kind: "helper", file: helper });
  const credentials = claudeCredentialsPath(ctx);
  const storedLogin = storedLoginIn(readJsonObject(ctx.files, credentials));
  // The CLI only looks for a profile when no token, helper, provider or socket is in play.
  const profile = sources.length === 0 && !envIsSet(env, "ANTHROPIC_UNIX_SOCKET") ? profileSource(ctx, storedLogin) : undefined;
  if (profile) sources.push(profile);
  if (storedLogin) sources.push({ kind: "stored-login", file: credentials });
  if (envIsSet(env, CLAUDE_API_KEY_ENV)) sources.push({ kind: "env", variable: CLAUDE_API_KEY_ENV });
  const config = claudeGlobalConfigPath(ctx);
  if (readJsonObject(ctx.files, config)?.primaryApiKey) sources.push({ kind: "login-key", file: config });
  return sources;
}

/**
 * Claude Code's credentials, from the same path functions and names as its sign-in check: the
 * stored login and both global config files (`primaryApiKey` sits there among settings), where
 * the environment puts them and where they are by default; the Anthropic profile folder (configs
 * and their credentials); the token, key and federation variables. Not listed: settings files,
 * whose `apiKeyHelper` is a command rather than a secret, and a cloud provider's own login
 * (CLAUDE_CODE_USE_BEDROCK and the like only switch to it).
 */
export function claudeCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): CredentialLocations {
  const places = [ctx, atDefaultPlaces(ctx)];
  return {
    files: places.flatMap((place) => [claudeCredentialsPath(place), ...claudeGlobalConfigCandidates(place)]),
    folders: places.flatMap((place) => anthropicProfileDir(place.env) ?? []),
    env: [...CLAUDE_SECRET_ENV_KEYS, ...CLAUDE_FEDERATION_ENV_KEYS],
  };
}
