import type { AuthStore } from "../../auth-store.js";
import type { Env } from "../../../kernel/paths.js";
import { describeError } from "../../../kernel/errors.js";
import type { BosunPlugin } from "../api.js";

export interface CredentialsPluginOptions {
  store: AuthStore;
  env: Env;
  /** Told when the auth store cannot be read (it is then treated as empty), or null once it can. */
  onStoreProblem?: (problem: string | null) => void;
}

/**
 * Tells the catalog which credentials exist, by name only: providers with a key in bosun's auth
 * store, and environment variables that are set. A provider is available when one of its key
 * variables is set or it has a stored key; values are never read into the catalog.
 */
export function credentialsPlugin(options: CredentialsPluginOptions): BosunPlugin {
  return {
    name: "credentials",
    async activate(ctx) {
      await ctx.catalog.transform((editor) => {
        let stored: string[] = [];
        try {
          stored = options.store.providers();
          options.onStoreProblem?.(null);
        } catch (error) {
          options.onStoreProblem?.(describeError(error));
        }
        const env = Object.keys(options.env).filter((name) => (options.env[name] ?? "").trim() !== "");
        editor.credentials.set({ stored: new Set(stored), env: new Set(env) });
      });
    },
  };
}
