import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, unlessUnreadable } from "./adapter.js";
import { presentFile, presentText } from "./detect/file-reader.js";
import { envPath, firstSetEnvVar } from "./detect/env.js";
import { dotenvHoldsKey } from "./detect/secret-rules.js";
import type { AuthStatus, DetectionContext, Runtime } from "./types.js";

/** In this order. */
export const GEMINI_ENV_KEYS = ["GEMINI_API_KEY", "GOOGLE_API_KEY"] as const;
export const GEMINI_SERVICE_ACCOUNT_VAR = "GOOGLE_APPLICATION_CREDENTIALS";
export const GEMINI_CREDENTIAL_FILES = ["gemini-credentials.json", "oauth_creds.json"] as const;

/** `$GEMINI_CLI_HOME/.gemini` (the variable names the parent of `.gemini`), else `~/.gemini`. */
export function geminiHome(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "GEMINI_CLI_HOME", ctx.home, ctx.cwd) ?? ctx.home, ".gemini");
}

/** gcloud's application default credentials: `$CLOUDSDK_CONFIG/…`, else `~/.config/gcloud/…`. */
export function geminiAdcPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "CLOUDSDK_CONFIG", ctx.home, ctx.cwd) ?? join(ctx.home, ".config", "gcloud"), "application_default_credentials.json");
}

// Gemini reads several stores; one it cannot read is simply not there.
function findGeminiAuth(ctx: DetectionContext): AuthStatus | undefined {
  const variable = firstSetEnvVar(ctx.env, GEMINI_ENV_KEYS);
  if (variable) return signedIn("env", variable);
  const serviceAccount = envPath(ctx.env, GEMINI_SERVICE_ACCOUNT_VAR, ctx.home, ctx.cwd);
  if (serviceAccount && unlessUnreadable(() => presentFile(ctx.files, serviceAccount))) return signedIn("env", GEMINI_SERVICE_ACCOUNT_VAR);
  const home = geminiHome(ctx);
  for (const name of GEMINI_CREDENTIAL_FILES) {
    const file = unlessUnreadable(() => presentFile(ctx.files, join(home, name)));
    if (file) return signedIn("external", file.shownPath);
  }
  const dotenv = unlessUnreadable(() => {
    const file = presentText(ctx.files, join(home, ".env"));
    return file && dotenvHoldsKey(file.text, new Set(GEMINI_ENV_KEYS)) ? file : undefined;
  });
  if (dotenv) return signedIn("external", dotenv.shownPath);
  const adc = unlessUnreadable(() => presentFile(ctx.files, geminiAdcPath(ctx)));
  if (adc) return signedIn("external", adc.shownPath);
  return undefined;
}

export const gemini: Runtime = {
  id: "gemini",
  title: "Gemini CLI",
  description: "Google's Gemini CLI, run headless with `gemini -p`.",
  binary: "gemini",
  installHint: "npm install -g @google/gemini-cli",
  loginHint: "set GEMINI_API_KEY (or GOOGLE_API_KEY, or GOOGLE_APPLICATION_CREDENTIALS)",
  headless: { values: { binary: "gemini", model: "" } },
  status: defineStatusAdapter({
    id: "gemini",
    binary: "gemini",
    authStatus: async (_config, ctx) => findGeminiAuth(ctx) ?? notSignedIn(geminiHome(ctx)),
  }),
};
