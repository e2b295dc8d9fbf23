import { join } from "node:path";
import { atDefaultPlaces, defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./kit/adapter.js";
import { presentText } from "./kit/detect/file-reader.js";
import { codePointSorted, envPath, firstSetEnvVar } from "./kit/detect/env.js";
import { atLeastFourChars, dotenvHoldsKey, jsonHoldsSecret, parseJson } from "./kit/detect/secret-rules.js";
import { ANCHOR_LAYOUT, contractRows } from "./kit/install-surfaces.js";
import type { InstallSurface } from "./kit/install-types.js";
import type { AuthStatus, CredentialLocations, DetectionContext, InstallRuntime, StatusRuntime } from "./kit/types.js";

/** The provider keys Hermes reads, from the environment or its `.env` (checked in code-point order). */
export const HERMES_ENV_KEYS: ReadonlySet<string> = new Set([
  "ALIBABA_CODING_PLAN_API_KEY",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_TOKEN",
  "ARCEEAI_API_KEY",
  "AZURE_FOUNDRY_API_KEY",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "COPILOT_GITHUB_TOKEN",
  "DASHSCOPE_API_KEY",
  "DEEPSEEK_API_KEY",
  "GEMINI_API_KEY",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GLM_API_KEY",
  "GMI_API_KEY",
  "GOOGLE_API_KEY",
  "HF_TOKEN",
  "KILOCODE_API_KEY",
  "KIMI_API_KEY",
  "KIMI_CODING_API_KEY",
  "MINIMAX_API_KEY",
  "NOVITA_API_KEY",
  "NVIDIA_API_KEY",
  "OLLAMA_API_KEY",
  "OPENAI_API_KEY",
  "OPENCODE_GO_API_KEY",
  "OPENCODE_ZEN_API_KEY",
  "OPENROUTER_API_KEY",
  "STEPFUN_API_KEY",
  "TOKENHUB_API_KEY",
  "XAI_API_KEY",
  "ZAI_API_KEY",
]);
export const HERMES_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "agent_key", "api_key", "id_token", "refresh_token", "runtime_api_key", "token"]);

/** The `.env` in Hermes' folder, with provider keys. */
export const HERMES_DOTENV = ".env";
/** Hermes' stored logins (`hermes setup --portal`), in its folder. */
export const HERMES_AUTH_FILE = "auth.json";

/** `$HERMES_HOME`, else `~/.hermes`. */
export function hermesHome(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  return envPath(ctx.env, "HERMES_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".hermes");
}

/** Hermes' `.env` and `auth.json` in `$HERMES_HOME` and `~/.hermes`, and every provider key it reads. */
function hermesCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): CredentialLocations {
  const homes = [hermesHome(ctx), hermesHome(atDefaultPlaces(ctx))];
  return { files: homes.flatMap((home) => [join(home, HERMES_DOTENV), join(home, HERMES_AUTH_FILE)]), folders: [], env: [...HERMES_ENV_KEYS] };
}

function findHermesAuth(ctx: DetectionContext): AuthStatus {
  const variable = firstSetEnvVar(ctx.env, codePointSorted(HERMES_ENV_KEYS));
  if (variable) return signedIn("env", variable);
  const home = hermesHome(ctx);
  const dotenv = presentText(ctx.files, join(home, HERMES_DOTENV));
  if (dotenv && dotenvHoldsKey(dotenv.text, HERMES_ENV_KEYS)) return signedIn("external", dotenv.shownPath);
  // auth.json must be JSON (no text fallback), and values shorter than four characters are placeholders.
  const auth = presentText(ctx.files, join(home, HERMES_AUTH_FILE));
  const parsed = auth && parseJson(auth.text);
  if (auth && parsed && jsonHoldsSecret(parsed.value, HERMES_SECRET_KEYS, atLeastFourChars)) return signedIn("external", auth.shownPath);
  return notSignedIn("");
}

const hermesInstall: InstallSurface = {
  globalRoot: { home: ".hermes", overrides: [{ env: "HERMES_HOME", use: "dir" }] },
  localRoot: ".hermes",
  layout: () => ({
    // Hermes groups skills in category folders: skills/<pack>/DESCRIPTION.md + skills/<pack>/<skill>/.
    skills: { dir: "skills", category: true },
    commands: { skip: "Hermes Agent has no command files" },
    agents: { dir: "agents", format: "markdown" },
    hooks: { skip: "Hermes Agent hooks are Python handlers (hooks/<name>/HOOK.yaml + handler.py), not commands" },
  }),
  contract: () => contractRows("hermes", {
    skills: {
      surface: "skills/<pack>/DESCRIPTION.md, skills/<pack>/<name>/SKILL.md (+ its files)",
      what: "a category folder named after the pack (its DESCRIPTION.md from the pack's description) holding each skill folder",
      global: "~/.hermes/skills ($HERMES_HOME/skills)",
      local: ".hermes/skills",
      why: "Hermes Agent reads skills/<category>/<skill>/SKILL.md with a DESCRIPTION.md per category",
      checkedAgainst: `Hermes Agent documentation and ${ANCHOR_LAYOUT} (Hermes cannot be installed here)`,
    },
    agents: {
      surface: "agents/<name>.md",
      what: "each agent definition, markdown with `name` and `description` frontmatter",
      global: "~/.hermes/agents",
      local: ".hermes/agents",
      why: "the folder the anchor installer uses for Hermes agent definitions",
      checkedAgainst: ANCHOR_LAYOUT,
    },
  }),
};

export const hermes: StatusRuntime & InstallRuntime = {
  id: "hermes",
  title: "Hermes Agent",
  description: "Nous Research's Hermes Agent, run headless with `hermes chat -q`.",
  binary: "hermes",
  installHint: "curl -fsSL https://hermes-agent.nousresearch.com/install.sh | bash",
  loginHint: "hermes setup --portal, or a provider key in ~/.hermes/.env",
  headless: { values: { binary: "hermes", model: "", provider: "", toolsets: "", yolo: true } },
  status: defineStatusAdapter({
    id: "hermes",
    binary: "hermes",
    authStatus: (_config, ctx) => stopOnReadError(() => findHermesAuth(ctx)),
    credentialLocations: (_config, ctx) => hermesCredentialLocations(ctx),
  }),
  installSurface: hermesInstall,
};
