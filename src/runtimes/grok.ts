import { join } from "node:path";
import { atDefaultPlaces, defineStatusAdapter, mergeCredentialLocations, noPlanOnReadError, notSignedIn, signedIn, stopOnReadError } from "./kit/adapter.js";
import { presentText } from "./kit/detect/file-reader.js";
import { envPath, firstSetEnvVar } from "./kit/detect/env.js";
import { grokTomlHoldsSecret, jsonOrTextHoldsSecret } from "./kit/detect/secret-rules.js";
import { locateBinary } from "./kit/detect/binary.js";
import { findNpmGrokAuth, npmGrokCredentialLocations, planNpmGrokDisconnect } from "./grok-npm.js";
import { isNpmGrok, NPM_GROK_PACKAGE } from "./grok-variant.js";
import type { AuthStatus, CredentialLocations, DetectionContext, StatusRuntime, RuntimeConfig, RuntimeVariant } from "./kit/types.js";
import { DELEGATE_MODES } from "./kit/delegate-mode.js";

/** Grok Build's variables, in this order; `API_KEY_XAI` is Agent Zero's name for the same key. */
export const GROK_ENV_KEYS = ["XAI_API_KEY", "API_KEY_XAI"] as const;
export const GROK_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "api_key", "id_token", "refresh_token", "token"]);
/** The files in Grok Build's folder that may hold its login or key, in the order they are checked. */
export const GROK_BUILD_FILES = ["config.toml", "auth.json"] as const;
/** Grok Build's folder of per-account login files. */
export const GROK_BUILD_AUTH_DIR = "auth";

/** `$GROK_HOME`, else `~/.grok`. */
export function grokHome(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  return envPath(ctx.env, "GROK_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".grok");
}

/**
 * Both CLIs named `grok`, whichever is installed (telling them apart reads the binary): Grok
 * Build's files and account folder in `$GROK_HOME` and `~/.grok` with its key variables, and the
 * npm grok's.
 */
function grokCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): CredentialLocations {
  const homes = [grokHome(ctx), grokHome(atDefaultPlaces(ctx))];
  const build: CredentialLocations = {
    files: homes.flatMap((home) => GROK_BUILD_FILES.map((name) => join(home, name))),
    folders: homes.map((home) => join(home, GROK_BUILD_AUTH_DIR)),
    env: [...GROK_ENV_KEYS],
  };
  return mergeCredentialLocations(build, npmGrokCredentialLocations(ctx));
}

function fileHoldsSecret(ctx: DetectionContext, path: string): { shownPath: string } | undefined {
  const file = presentText(ctx.files, path);
  if (!file) return undefined;
  const holds = path.endsWith(".toml") ? grokTomlHoldsSecret(file.text, ctx.env) : jsonOrTextHoldsSecret(file.text, GROK_SECRET_KEYS);
  return holds ? file : undefined;
}

/** Grok Build's rules (from xAI's documentation; it cannot be installed here to check them). */
function findGrokBuildAuth(ctx: DetectionContext): AuthStatus {
  const variable = firstSetEnvVar(ctx.env, GROK_ENV_KEYS);
  if (variable) return signedIn("env", variable);
  const home = grokHome(ctx);
  for (const name of GROK_BUILD_FILES) {
    const hit = fileHoldsSecret(ctx, join(home, name));
    if (hit) return signedIn("external", hit.shownPath);
  }
  // A hit inside auth/ reports the folder, as Grok keeps one file per account there.
  const authDir = join(home, GROK_BUILD_AUTH_DIR);
  for (const name of ctx.files.list(authDir)) {
    if (fileHoldsSecret(ctx, join(authDir, name))) return signedIn("external", ctx.files.stat(authDir)?.realPath ?? authDir);
  }
  return notSignedIn(home);
}

/** xAI's Grok Build: what bosun assumes when the `grok` found is not the npm one (or none is found). */
export const GROK_BUILD: RuntimeVariant = {
  id: "grok-build",
  title: "Grok Build",
  description: "xAI's Grok Build CLI, run headless with `grok -p`.",
  installHint: "curl -fsSL https://x.ai/cli/install.sh | bash",
  loginHint: "grok login --device-auth, or set XAI_API_KEY",
};

/** The community `grok` from npm, whose sign-in rules were checked against the real CLI. */
export const NPM_GROK: RuntimeVariant = {
  id: "vibe-kit-grok-cli",
  title: "Grok CLI (npm @vibe-kit/grok-cli)",
  description: "The community Grok CLI from npm (@vibe-kit/grok-cli), run headless with `grok -p`.",
  installHint: `npm install -g ${NPM_GROK_PACKAGE}`,
  loginHint: "set GROK_API_KEY, or run grok -k KEY once (it saves the key in ~/.grok/user-settings.json)",
  signInVerifiedAgainst: "@vibe-kit/grok-cli 0.0.34 (grok -p: \"API key required\" or not)",
};

/** Which `grok` is installed, from the binary bosun would run. */
export function grokVariant(config: RuntimeConfig, ctx: DetectionContext): RuntimeVariant {
  const binary = locateBinary(grok.status.resolveBinary(config, ctx), ctx);
  return binary && isNpmGrok(binary, ctx.files) ? NPM_GROK : GROK_BUILD;
}

export const grok: StatusRuntime = {
  id: "grok",
  title: GROK_BUILD.title,
  description: GROK_BUILD.description,
  binary: "grok",
  installHint: GROK_BUILD.installHint,
  loginHint: GROK_BUILD.loginHint,
  headless: {
    values: { binary: "grok", model: "", output_format: "json", always_approve: true, no_auto_update: true, delegate: "read-only" },
    choices: { output_format: ["text", "json", "stream-json"], delegate: DELEGATE_MODES },
  },
  status: defineStatusAdapter({
    id: "grok",
    binary: "grok",
    authStatus: (config, ctx) => stopOnReadError(() => (grokVariant(config, ctx) === NPM_GROK ? findNpmGrokAuth(ctx) : findGrokBuildAuth(ctx))),
    // Grok Build's store is not one bosun can name; the npm grok's key is the user's to remove.
    planDisconnect: async (config, ctx) =>
      noPlanOnReadError(() =>
        grokVariant(config, ctx) === NPM_GROK
          ? planNpmGrokDisconnect(ctx)
          : { action: "none", reason: "bosun cannot name every place Grok Build keeps its login; sign out with grok itself" },
      ),
    credentialLocations: (_config, ctx) => grokCredentialLocations(ctx),
  }),
  variant: grokVariant,
};
