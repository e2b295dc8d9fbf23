import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./adapter.js";
import { presentText } from "./detect/file-reader.js";
import { codePointSorted, envPath, firstSetEnvVar } from "./detect/env.js";
import { jsonHoldsSecret, parseJson } from "./detect/secret-rules.js";
import type { DetectionContext, Runtime } from "./types.js";

/** Provider keys OpenCode picks up from the environment (checked in code-point order). */
export const OPENCODE_ENV_KEYS: ReadonlySet<string> = new Set([
  "ANTHROPIC_API_KEY",
  "DEEPSEEK_API_KEY",
  "GEMINI_API_KEY",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "OPENAI_API_KEY",
  "OPENROUTER_API_KEY",
  "XAI_API_KEY",
]);
export const OPENCODE_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "api_key", "refresh_token", "token"]);

/** `$XDG_DATA_HOME/opencode/auth.json`, else `~/.local/share/opencode/auth.json`. */
export function opencodeAuthPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "XDG_DATA_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".local", "share"), "opencode", "auth.json");
}

export const opencode: Runtime = {
  id: "opencode",
  title: "OpenCode",
  description: "The OpenCode terminal agent, run headless with `opencode run`.",
  binary: "opencode",
  installHint: "curl -fsSL https://opencode.ai/install | bash",
  loginHint: "opencode auth login",
  headless: { values: { binary: "opencode", model: "", agent: "", auto: true } },
  status: defineStatusAdapter({
    id: "opencode",
    binary: "opencode",
    authStatus: (_config, ctx) =>
      stopOnReadError(() => {
        const variable = firstSetEnvVar(ctx.env, codePointSorted(OPENCODE_ENV_KEYS));
        if (variable) return signedIn("env", variable);
        const path = opencodeAuthPath(ctx);
        const file = presentText(ctx.files, path);
        const parsed = file && parseJson(file.text);
        if (file && parsed && jsonHoldsSecret(parsed.value, OPENCODE_SECRET_KEYS)) return signedIn("external", file.shownPath);
        return notSignedIn(path);
      }),
  }),
};
