import { isAbsolute, join, resolve } from "node:path";
import type { Env } from "../kernel/paths.js";
import { CredentialReadError, MAX_CREDENTIAL_BYTES, type FileReader } from "./kit/detect/file-reader.js";

/**
 * The parts of Codex's setup that decide where, and whether, it finds a login: its home folder
 * and the sign-in keys of its `config.toml`. Codex 0.171 refuses to run at all when either is
 * wrong, so each problem here is reported as the error Codex would stop with.
 */

/** Codex's folder: `$CODEX_HOME` exactly as set (not trimmed, no `~`), relative to the working folder; else `~/.codex`. */
export interface CodexHome {
  dir: string;
  /** The variable's text, when CODEX_HOME chose the folder. */
  fromEnv?: string;
}

export function codexHome(env: Env, home: string, cwd: string): CodexHome {
  const value = env.CODEX_HOME;
  if (value === undefined || value === "") return { dir: join(home, ".codex") };
  return { dir: isAbsolute(value) ? value : resolve(cwd, value), fromEnv: value };
}

/** Where Codex keeps its login (`cli_auth_credentials_store`); `auto` tries the system keyring, then the file. */
export type CodexCredentialStore = "file" | "keyring" | "auto" | "ephemeral";
const STORES: readonly CodexCredentialStore[] = ["file", "keyring", "auto", "ephemeral"];

/** `forced_login_method`: the only kind of login Codex accepts (it logs out of the other kind). */
export type CodexForcedLogin = "chatgpt" | "api";
const FORCED: readonly CodexForcedLogin[] = ["chatgpt", "api"];

export interface CodexSignInSettings {
  store: CodexCredentialStore;
  /** The config file and line that chose the store (for messages), when one did. */
  storeSetAt?: string;
  forced?: CodexForcedLogin;
  forcedSetAt?: string;
}

/** A setup Codex refuses to start with; the message names the file (and line) and never its content. */
export class CodexSetupError extends Error {
  override name = "CodexSetupError";
}

/** CODEX_HOME must name an existing folder (Codex does not create it). */
export function checkCodexHome(files: FileReader, home: CodexHome): void {
  if (home.fromEnv === undefined) return;
  const info = files.stat(home.dir);
  if (!info) throw new CodexSetupError(`CODEX_HOME points to ${JSON.stringify(home.fromEnv)}, which does not exist (Codex stops there)`);
  if (info.kind !== "directory") throw new CodexSetupError(`CODEX_HOME points to ${JSON.stringify(home.fromEnv)}, which is not a folder (Codex stops there)`);
}

/**
 * The sign-in settings of `<dir>/config.toml`. A file that does not parse, or a sign-in key with
 * a value Codex does not know, is a `CodexSetupError` naming `file:line`.
 */
export async function readCodexSignInSettings(files: FileReader, dir: string): Promise<CodexSignInSettings> {
  const path = join(dir, "config.toml");
  const info = files.stat(path);
  if (!info) return { store: "file" };
  if (info.kind !== "file") throw new CodexSetupError(`${path} is not a regular file (Codex cannot read its configuration)`);
  const text = files.readText(path, MAX_CREDENTIAL_BYTES);
  const { parse, TomlError } = await import("smol-toml");
  let config: Record<string, unknown>;
  try {
    config = parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // Only the first line of the parser's message: the lines after it quote the file.
    const reason = error.message.split("\n")[0]!.replace(/^Invalid TOML document:\s*/, "");
    throw new CodexSetupError(`${path}:${error.line}:${error.column}: ${reason} (Codex refuses a config.toml that does not parse)`);
  }
  if (typeof config.profile === "string") {
    throw new CodexSetupError(`${path}:${lineOf(text, "profile")}: the top-level profile key is no longer supported by Codex (use codex --profile NAME)`);
  }
  const settings: CodexSignInSettings = { store: "file" };
  const store = config.cli_auth_credentials_store;
  if (store !== undefined) {
    const at = `${path}:${lineOf(text, "cli_auth_credentials_store")}`;
    if (!STORES.includes(store as CodexCredentialStore)) throw new CodexSetupError(`${at}: cli_auth_credentials_store must be one of ${STORES.join(", ")}`);
    settings.store = store as CodexCredentialStore;
    settings.storeSetAt = at;
  }
  const forced = config.forced_login_method;
  if (forced !== undefined) {
    const at = `${path}:${lineOf(text, "forced_login_method")}`;
    if (!FORCED.includes(forced as CodexForcedLogin)) throw new CodexSetupError(`${at}: forced_login_method must be chatgpt or api`);
    settings.forced = forced as CodexForcedLogin;
    settings.forcedSetAt = at;
  }
  return settings;
}

/** The line of a top-level `key = …` (its first assignment before any table header); 1 when not found. */
function lineOf(text: string, key: string): number {
  const lines = text.split(/\r?\n/);
  const assignment = new RegExp(`^\\s*(${key}|"${key}"|'${key}')\\s*=`);
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*\[/.test(lines[i]!)) break;
    if (assignment.test(lines[i]!)) return i + 1;
  }
  return 1;
}

/** For callers that treat an unreadable config or login the same way as a refused one. */
export function setupProblem(error: unknown): string | undefined {
  if (error instanceof CodexSetupError || error instanceof CredentialReadError) return error.message;
  return undefined;
}
