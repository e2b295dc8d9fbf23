import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./adapter.js";
import { presentText } from "./detect/file-reader.js";
import { envPath, firstSetEnvVar } from "./detect/env.js";
import { jsonOrTextHoldsSecret } from "./detect/secret-rules.js";
import type { DetectionContext, Runtime } from "./types.js";

/** In this order; `API_KEY_CURSOR` is Agent Zero's name for the same key. */
export const CURSOR_ENV_KEYS = ["CURSOR_API_KEY", "API_KEY_CURSOR"] as const;
export const CURSOR_AUTH_FILES = ["auth.json", "credentials.json", "token.json", "agent/auth.json", "agent/credentials.json", "agent/token.json"] as const;
export const CURSOR_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "api_key", "id_token", "refresh_token", "token"]);

/** `$CURSOR_HOME`, else `~/.cursor`. */
export function cursorHome(ctx: DetectionContext): string {
  return envPath(ctx.env, "CURSOR_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".cursor");
}

export const cursor: Runtime = {
  id: "cursor",
  title: "Cursor CLI",
  description: "Cursor's terminal agent (`agent`), run headless with `agent -p`.",
  binary: "agent",
  installHint: "curl https://cursor.com/install -fsS | bash",
  loginHint: "NO_OPEN_BROWSER=1 agent login, or set CURSOR_API_KEY",
  headless: {
    values: { binary: "agent", output_format: "text", force: true },
    choices: { output_format: ["text", "json", "stream-json"] },
  },
  status: defineStatusAdapter({
    id: "cursor",
    binary: "agent",
    authStatus: (_config, ctx) =>
      stopOnReadError(() => {
        const variable = firstSetEnvVar(ctx.env, CURSOR_ENV_KEYS);
        if (variable) return signedIn("env", variable);
        const home = cursorHome(ctx);
        for (const name of CURSOR_AUTH_FILES) {
          const file = presentText(ctx.files, join(home, name));
          if (file && jsonOrTextHoldsSecret(file.text, CURSOR_SECRET_KEYS)) return signedIn("external", file.shownPath);
        }
        return notSignedIn(home);
      }),
  }),
};
