import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./adapter.js";
import { presentText } from "./detect/file-reader.js";
import { envPath, firstSetEnvVar } from "./detect/env.js";
import { grokTomlHoldsSecret, jsonOrTextHoldsSecret } from "./detect/secret-rules.js";
import type { AuthStatus, DetectionContext, Runtime } from "./types.js";

/** In this order; `API_KEY_XAI` is Agent Zero's name for the same key. */
export const GROK_ENV_KEYS = ["XAI_API_KEY", "API_KEY_XAI"] as const;
export const GROK_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "api_key", "id_token", "refresh_token", "token"]);

/** `$GROK_HOME`, else `~/.grok`. */
export function grokHome(ctx: DetectionContext): string {
  return envPath(ctx.env, "GROK_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".grok");
}

function fileHoldsSecret(ctx: DetectionContext, path: string): { shownPath: string } | undefined {
  const file = presentText(ctx.files, path);
  if (!file) return undefined;
  const holds = path.endsWith(".toml") ? grokTomlHoldsSecret(file.text, ctx.env) : jsonOrTextHoldsSecret(file.text, GROK_SECRET_KEYS);
  return holds ? file : undefined;
}

function findGrokAuth(ctx: DetectionContext): AuthStatus {
  const variable = firstSetEnvVar(ctx.env, GROK_ENV_KEYS);
  if (variable) return signedIn("env", variable);
  const home = grokHome(ctx);
  for (const name of ["config.toml", "auth.json"]) {
    const hit = fileHoldsSecret(ctx, join(home, name));
    if (hit) return signedIn("external", hit.shownPath);
  }
  // A hit inside auth/ reports the folder, as Grok keeps one file per account there.
  const authDir = join(home, "auth");
  for (const name of ctx.files.list(authDir)) {
    if (fileHoldsSecret(ctx, join(authDir, name))) return signedIn("external", ctx.files.stat(authDir)?.realPath ?? authDir);
  }
  return notSignedIn(home);
}

export const grok: Runtime = {
  id: "grok",
  title: "Grok Build",
  description: "xAI's Grok Build CLI, run headless with `grok -p`.",
  binary: "grok",
  installHint: "curl -fsSL https://x.ai/cli/install.sh | bash",
  loginHint: "grok login --device-auth, or set XAI_API_KEY",
  headless: {
    values: { binary: "grok", model: "", output_format: "json", always_approve: true, no_auto_update: true },
    choices: { output_format: ["text", "json", "stream-json"] },
  },
  status: defineStatusAdapter({
    id: "grok",
    binary: "grok",
    authStatus: (_config, ctx) => stopOnReadError(() => findGrokAuth(ctx)),
  }),
};
