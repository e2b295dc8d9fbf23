import { join } from "node:path";
import { atDefaultPlaces, runtimeDataDir } from "./kit/adapter.js";
import { judgeCodexAuthFile, type CodexLoginMethod } from "./codex-auth-file.js";
import { checkCodexHome, codexHome, readCodexSignInSettings, setupProblem, type CodexSignInSettings } from "./codex-signin-config.js";
import { MAX_CREDENTIAL_BYTES } from "./kit/detect/file-reader.js";
import type { CredentialLocations, DetectionContext } from "./kit/types.js";

/**
 * Which login Codex 0.171 would run with, decided from the same files and variables it reads, in
 * its order. Checked against the real CLI by test/real/codex-signin.test.ts (its own verdict:
 * `codex login status`, and for the environment key the request `codex exec` sends).
 */

export const CODEX_AUTH_FILE = "auth.json";
/** The one variable `codex exec` takes a key from (ahead of `auth.json`); OPENAI_API_KEY is not read. */
export const CODEX_ENV_KEY = "CODEX_API_KEY";

export type CodexSignIn =
  /** `env`: CODEX_API_KEY; `file`: Codex's own auth.json; `plugin`: bosun's login (Codex started with CODEX_HOME there). */
  | { signedIn: true; source: "env"; method: "api-key"; name: string }
  | { signedIn: true; source: "file" | "plugin"; method: CodexLoginMethod; path: string; shownPath: string }
  /** Not signed in. `problem`: what Codex would stop with or refuse (display-safe); `keyring`: the login is in a store bosun cannot read. */
  | { signedIn: false; problem?: string; keyring?: boolean };

const NOT_SIGNED_IN: CodexSignIn = { signedIn: false };

/** bosun's own Codex login (device login writes it; `CODEX_HOME=<that folder>` makes Codex use it). */
export function codexPluginAuthPath(ctx: Pick<DetectionContext, "dataDir">): string {
  return join(runtimeDataDir(ctx, "codex"), CODEX_AUTH_FILE);
}

/** Codex's own login file: `$CODEX_HOME/auth.json`, else `~/.codex/auth.json`. */
export function codexExternalAuthPath(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  return join(codexHome(ctx.env, ctx.home, ctx.cwd).dir, CODEX_AUTH_FILE);
}

/**
 * Codex as the user starts it wins (CODEX_API_KEY, then its own folder); bosun's login counts
 * when that is not signed in, since it is used only with CODEX_HOME pointed at bosun's folder.
 */
export async function codexSignIn(ctx: DetectionContext): Promise<CodexSignIn> {
  const pluginDir = runtimeDataDir(ctx, "codex");
  const home = codexHome(ctx.env, ctx.home, ctx.cwd);
  const own = await signInWithHome(ctx, home.dir, () => checkCodexHome(ctx.files, home), true);
  if (own.signedIn) return own.source === "file" && home.dir === pluginDir ? { ...own, source: "plugin" } : own;
  if (home.dir === pluginDir) return own;
  const bosuns = await signInWithHome(ctx, pluginDir, () => undefined, false);
  if (bosuns.signedIn) return bosuns.source === "file" ? { ...bosuns, source: "plugin" } : bosuns;
  return own.problem || own.keyring ? own : bosuns.problem ? bosuns : NOT_SIGNED_IN;
}

async function signInWithHome(ctx: DetectionContext, dir: string, checkHome: () => void, usesEnv: boolean): Promise<CodexSignIn> {
  let settings: CodexSignInSettings;
  try {
    checkHome();
    settings = await readCodexSignInSettings(ctx.files, dir);
  } catch (error) {
    const problem = setupProblem(error);
    if (problem === undefined) throw error;
    return { signedIn: false, problem };
  }
  // `codex exec` takes CODEX_API_KEY (when not blank) before any stored login, whatever the store.
  if (usesEnv && (ctx.env[CODEX_ENV_KEY] ?? "").trim() !== "") {
    if (settings.forced === "chatgpt") return { signedIn: false, problem: `${settings.forcedSetAt}: forced_login_method = "chatgpt" refuses the key in ${CODEX_ENV_KEY}` };
    return { signedIn: true, source: "env", method: "api-key", name: CODEX_ENV_KEY };
  }
  if (settings.store === "ephemeral") return NOT_SIGNED_IN;
  if (settings.store === "keyring") {
    return { signedIn: false, keyring: true, problem: `${settings.storeSetAt}: cli_auth_credentials_store = "keyring" keeps Codex's login in the system keyring, which bosun does not read (codex login status shows it)` };
  }
  return storedLogin(ctx, join(dir, CODEX_AUTH_FILE), settings);
}

function storedLogin(ctx: DetectionContext, path: string, settings: CodexSignInSettings): CodexSignIn {
  let shownPath = path;
  let text: string;
  try {
    const info = ctx.files.stat(path);
    if (!info) return NOT_SIGNED_IN;
    if (info.kind !== "file") return { signedIn: false, problem: `${path} is not a regular file (Codex cannot read its login)` };
    shownPath = info.realPath ?? path;
    text = ctx.files.readText(path, MAX_CREDENTIAL_BYTES);
  } catch (error) {
    const problem = setupProblem(error);
    if (problem === undefined) throw error;
    return { signedIn: false, problem };
  }
  const verdict = judgeCodexAuthFile(text);
  if (!verdict.usable) return { signedIn: false, problem: `${shownPath} is not a login Codex can read: ${verdict.problem}` };
  if (settings.forced === "chatgpt" && verdict.method === "api-key") {
    return { signedIn: false, problem: `${settings.forcedSetAt}: forced_login_method = "chatgpt" refuses the API key in ${shownPath} (codex exec deletes it)` };
  }
  if (settings.forced === "api" && verdict.method === "chatgpt") {
    return { signedIn: false, problem: `${settings.forcedSetAt}: forced_login_method = "api" refuses the ChatGPT login in ${shownPath}` };
  }
  return { signedIn: true, source: "file", method: verdict.method, path, shownPath };
}

/**
 * Codex's credentials, from the paths its sign-in check reads: `auth.json` where CODEX_HOME puts
 * it and in `~/.codex`, bosun's own Codex login, and CODEX_API_KEY. `config.toml` only says where
 * the login is kept; a login in the system keyring has no file to name.
 */
export function codexCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd" | "dataDir">): CredentialLocations {
  return { files: [codexExternalAuthPath(ctx), codexExternalAuthPath(atDefaultPlaces(ctx)), codexPluginAuthPath(ctx)], folders: [], env: [CODEX_ENV_KEY] };
}
