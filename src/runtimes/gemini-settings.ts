import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { requireLazily } from "../kernel/fs/require.js";
import { CredentialReadError, MAX_CREDENTIAL_BYTES, type FileInfo } from "./kit/detect/file-reader.js";
import { envPath } from "./kit/detect/env.js";
import type { DetectionContext } from "./kit/types.js";

/**
 * Gemini CLI's settings, as far as its sign-in depends on them: which files it reads, how it
 * merges them, and whether it trusts the folder it starts in (an untrusted folder's settings and
 * `.gemini/.env` files are not read at all).
 */

/** The folder Gemini treats as home: `$GEMINI_CLI_HOME` (taken as is) or HOME. */
export function geminiHomeRoot(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  return envPath(ctx.env, "GEMINI_CLI_HOME", ctx.home, ctx.cwd) ?? ctx.home;
}

/** `<home>/.gemini`, where the user settings, `.env` and `oauth_creds.json` live. */
export function geminiDir(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  return join(geminiHomeRoot(ctx), ".gemini");
}

export type SettingsScope = "system" | "system defaults" | "user" | "workspace";

export interface SettingsFile {
  scope: SettingsScope;
  path: string;
  /** The parsed object; `{}` when the file is absent or skipped. */
  value: Record<string, unknown>;
}

/** A settings file Gemini refuses to start with (it exits before any sign-in check). */
export class GeminiSettingsError extends Error {
  override name = "GeminiSettingsError";
}

export interface GeminiSettings {
  trusted: boolean;
  /** A value from the merged settings (system defaults < user < trusted workspace < system), `$VAR`s expanded. */
  get(path: readonly string[]): unknown;
  /** The file whose value `get` returns. */
  definedIn(path: readonly string[]): SettingsFile | undefined;
  /** `advanced.excludedEnvVars` of every file, with Gemini's defaults. */
  excludedEnvVars: Set<string>;
}

const DEFAULT_EXCLUDED_ENV_VARS = ["DEBUG", "DEBUG_MODE"];

/** Reads every settings file Gemini reads from `ctx.cwd`. Throws `GeminiSettingsError` for one Gemini would refuse. */
export function readGeminiSettings(ctx: DetectionContext): GeminiSettings {
  const systemPath = envPath(ctx.env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH", ctx.home, ctx.cwd) ?? "/etc/gemini-cli/settings.json";
  const defaultsPath = envPath(ctx.env, "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", ctx.home, ctx.cwd) ?? join(dirname(systemPath), "system-defaults.json");
  const system = readSystemFile(ctx, "system", systemPath);
  const defaults = readSystemFile(ctx, "system defaults", defaultsPath);
  const user = readFile(ctx, "user", join(geminiDir(ctx), "settings.json"));
  // In the home folder itself, the workspace file would be the user file: Gemini reads it once.
  const workspacePath = join(ctx.cwd, ".gemini", "settings.json");
  const workspace = samePlace(ctx, ctx.cwd, geminiHomeRoot(ctx)) ? { scope: "workspace" as const, path: workspacePath, value: {} } : readFile(ctx, "workspace", workspacePath);
  const trustLayers = [defaults, user, system];
  const trusted = folderTrusted(ctx, (path) => lastDefined(ctx, trustLayers, path)?.value);
  const layers = trusted ? [defaults, user, workspace, system] : trustLayers;
  const excluded = new Set(DEFAULT_EXCLUDED_ENV_VARS);
  for (const file of layers) {
    const list = at(ctx, file.value, ["advanced", "excludedEnvVars"]);
    for (const name of Array.isArray(list) ? list : []) if (typeof name === "string") excluded.add(name);
  }
  return { trusted, get: (path) => lastDefined(ctx, layers, path)?.value, definedIn: (path) => lastDefined(ctx, layers, path)?.file, excludedEnvVars: excluded };
}

function lastDefined(ctx: DetectionContext, layers: SettingsFile[], path: readonly string[]): { value: unknown; file: SettingsFile } | undefined {
  for (let i = layers.length - 1; i >= 0; i--) {
    const value = at(ctx, layers[i]!.value, path);
    if (value !== undefined) return { value, file: layers[i]! };
  }
  return undefined;
}

/** The value at `path`; strings (also in an array) with `$VAR`s expanded, as Gemini expands every string it loads. */
function at(ctx: DetectionContext, value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  if (typeof current === "string") return expandEnv(current, ctx);
  if (Array.isArray(current)) return current.map((item: unknown) => (typeof item === "string" ? expandEnv(item, ctx) : item));
  return current;
}

function statOrNothing(ctx: DetectionContext, path: string): FileInfo | undefined {
  try {
    return ctx.files.stat(path);
  } catch (error) {
    if (error instanceof CredentialReadError) return undefined;
    throw error;
  }
}

/** A settings file: absent is `{}`; present, it must be a JSON object (comments allowed), or Gemini stops. */
function readFile(ctx: DetectionContext, scope: SettingsScope, path: string): SettingsFile {
  if (!statOrNothing(ctx, path)) return { scope, path, value: {} };
  let text: string;
  try {
    text = ctx.files.readText(path, MAX_CREDENTIAL_BYTES);
  } catch (error) {
    // Gemini stops at a settings file it cannot read (and waits forever on a FIFO).
    if (error instanceof CredentialReadError) throw new GeminiSettingsError(error.message);
    throw error;
  }
  let value: unknown;
  try {
    const { stripComments } = requireLazily("jsonc-parser") as typeof import("jsonc-parser");
    value = JSON.parse(stripComments(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  } catch {
    throw new GeminiSettingsError(`Gemini CLI will not start: its ${scope} settings ${path} are not valid JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new GeminiSettingsError(`Gemini CLI will not start: its ${scope} settings ${path} are not a JSON object`);
  }
  return { scope, path, value: value as Record<string, unknown> };
}

/** System files count only when they and every folder above them are root's and not writable by others. */
function readSystemFile(ctx: DetectionContext, scope: SettingsScope, path: string): SettingsFile {
  const info = statOrNothing(ctx, path);
  if (!info) return { scope, path, value: {} };
  const places = [path];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    places.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const place of places) {
    const seen = statOrNothing(ctx, place);
    if (seen && (seen.uid !== 0 || ((seen.mode ?? 0o022) & 0o022) !== 0)) return { scope, path, value: {} };
  }
  return readFile(ctx, scope, path);
}

// `$NAME`, `${NAME}` and `${NAME:-default}` in string values, as Gemini expands them when it loads a file.
const ENV_REFERENCE = /\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g;

function expandEnv(text: string, ctx: DetectionContext): string {
  return text.replace(ENV_REFERENCE, (match, bare: string | undefined, braced: string | undefined, fallback: string | undefined) => {
    const set = ctx.env[bare ?? braced ?? ""];
    return typeof set === "string" ? set : (fallback ?? match);
  });
}

function realPath(ctx: DetectionContext, path: string): string {
  return statOrNothing(ctx, path)?.realPath ?? path;
}

function samePlace(ctx: DetectionContext, a: string, b: string): boolean {
  return realPath(ctx, resolve(a)) === realPath(ctx, resolve(b));
}

const TRUST_LEVELS = new Set(["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"]);

/**
 * Gemini's folder trust for `ctx.cwd`: the environment first (`GEMINI_CLI_TRUST_WORKSPACE`,
 * `GEMINI_RESTRICTED_MODE`), then `security.folderTrust.enabled: false` (trust everything), then
 * the longest matching rule of `trustedFolders.json`. No rule: not trusted.
 */
function folderTrusted(ctx: DetectionContext, setting: (path: readonly string[]) => unknown): boolean {
  if (ctx.env.GEMINI_RESTRICTED_MODE === "true" || ctx.env.GEMINI_CLI_TRUST_WORKSPACE === "false") return false;
  if (ctx.env.GEMINI_CLI_TRUST_WORKSPACE === "true") return true;
  if (setting(["security", "folderTrust", "enabled"]) === false) return true;
  const rulesPath = envPath(ctx.env, "GEMINI_CLI_TRUSTED_FOLDERS_PATH", ctx.home, ctx.cwd) ?? join(geminiDir(ctx), "trustedFolders.json");
  let rules: unknown;
  try {
    if (!statOrNothing(ctx, rulesPath)) return false;
    const { stripComments } = requireLazily("jsonc-parser") as typeof import("jsonc-parser");
    rules = JSON.parse(stripComments(ctx.files.readText(rulesPath, MAX_CREDENTIAL_BYTES)));
  } catch {
    return false;
  }
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return false;
  const here = realPath(ctx, resolve(ctx.cwd));
  let longest = -1;
  let level: string | undefined;
  for (const [rule, trust] of Object.entries(rules)) {
    if (typeof trust !== "string" || !TRUST_LEVELS.has(trust)) continue;
    const folder = realPath(ctx, resolve(trust === "TRUST_PARENT" ? dirname(rule) : rule));
    const inside = relative(folder, here);
    if ((inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) && rule.length > longest) {
      longest = rule.length;
      level = trust;
    }
  }
  return level === "TRUST_FOLDER" || level === "TRUST_PARENT";
}
