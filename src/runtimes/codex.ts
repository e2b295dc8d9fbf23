import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, runtimeDataDir, signedIn, unlessUnreadable } from "./adapter.js";
import { envPath } from "./detect/env.js";
import { presentText, type FileReader } from "./detect/file-reader.js";
import { parseJson } from "./detect/secret-rules.js";
import type { DetectionContext, Runtime } from "./types.js";

export const CODEX_AUTH_FILE = "auth.json";

/** bosun's own Codex login (device login writes it; `CODEX_HOME=<that folder>` makes Codex use it). */
export function codexPluginAuthPath(ctx: Pick<DetectionContext, "dataDir">): string {
  return join(runtimeDataDir(ctx, "codex"), CODEX_AUTH_FILE);
}

/** Codex's own login: `$CODEX_HOME/auth.json`, else `~/.codex/auth.json`. */
export function codexExternalAuthPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "CODEX_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".codex"), CODEX_AUTH_FILE);
}

/**
 * A ChatGPT login: the file is a JSON object whose `tokens` object has a truthy `access_token`
 * and `refresh_token`. An API key alone does not count; an unreadable or invalid file is no login.
 * Answers the path to show (the real one for a symlink).
 */
function chatgptTokensAt(files: FileReader, path: string): string | undefined {
  return unlessUnreadable(() => {
    const file = presentText(files, path);
    const parsed = file && parseJson(file.text);
    if (!parsed || !isObject(parsed.value)) return undefined;
    const tokens = parsed.value.tokens;
    if (!isObject(tokens) || !pythonTruthy(tokens.access_token) || !pythonTruthy(tokens.refresh_token)) return undefined;
    return file.shownPath;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Codex's rule came from Python: empty strings, zero, empty lists and objects are all "no".
function pythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

const status = defineStatusAdapter({
  id: "codex",
  binary: "codex",
  supportsDeviceLogin: true,
  // OPENAI_API_KEY in the environment is not a Codex login, so no variable is checked.
  async authStatus(_config, ctx) {
    const plugin = chatgptTokensAt(ctx.files, codexPluginAuthPath(ctx));
    if (plugin) return signedIn("plugin", plugin);
    const external = chatgptTokensAt(ctx.files, codexExternalAuthPath(ctx));
    if (external) return signedIn("external", external);
    return notSignedIn("");
  },
  // bosun's own file first: with both stores present, one disconnect removes only bosun's.
  async planDisconnect(config, ctx) {
    const auth = await status.authStatus(config, ctx);
    if (auth.mode === "plugin") return { action: "remove-file", mode: "plugin", path: codexPluginAuthPath(ctx) };
    if (auth.mode === "external") {
      const file = codexExternalAuthPath(ctx);
      return { action: "run-logout", mode: "external", command: status.resolveBinary(config, ctx), args: ["logout"], authPath: auth.authPath, secretFiles: [file] };
    }
    return { action: "none", reason: "no Codex credentials found" };
  },
});

export const codex: Runtime = {
  id: "codex",
  title: "OpenAI Codex CLI",
  description: "OpenAI Codex CLI for autonomous coding tasks in a working folder.",
  binary: "codex",
  installHint: "npm install -g @openai/codex",
  loginHint: "bosun agents login codex (or codex login)",
  pluginLoginHint: (dataDir) => `start Codex with CODEX_HOME=${dataDir} to use it`,
  headless: { values: { binary: "codex", model: "", bypass_sandbox: true } },
  status,
};
