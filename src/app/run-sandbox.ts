import { join } from "node:path";
import type { Boot } from "./start.js";
import { authStoreFile } from "../catalog/catalog-files.js";
import { openSandbox } from "../agent/sandbox/open-sandbox.js";
import type { Sandbox } from "../agent/sandbox/sandbox.js";
import { sandboxSettings } from "../agent/sandbox/sandbox-settings.js";

/**
 * Of the variables agents and providers read to sign in, the ones that hold the secret itself;
 * switches and places (`AWS_REGION`, `GOOGLE_VERTEX_LOCATION`, `CLOUDFLARE_ACCOUNT_ID`) stay in
 * the tools' environment.
 */
const HOLDS_SECRET = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|PRIVATE|(^|_)PAT(_|$)/i;

/** A run's sandbox and the lines it says once as it starts (a fallback, settings a project may not change). */
export interface RunSandbox {
  sandbox: Sandbox;
  notices: string[];
}

/**
 * The sandbox of a `bosun run` in `workdir`: the settings of the config files, every credential
 * location bosun knows (each agent's, other tools', bosun's own key store and `.env`), and the
 * variables that hold secrets (the agents' sign-in variables and the providers' key variables
 * that hold one, and `bosun.json` `secrets`). Throws `SandboxUnavailableError` in `required`
 * mode when tools cannot be contained.
 */
export async function openRunSandbox(boot: Boot, credentialEnvVars: readonly string[], workdir: string): Promise<RunSandbox> {
  const { credentialLocationsFor } = await import("../runtimes/credential-locations.js");
  const settings = sandboxSettings(boot.config?.layers ?? [], boot.paths.home, boot.project?.root ?? null);
  const agents = credentialLocationsFor(boot, workdir);
  const sandbox = await openSandbox({
    settings,
    workdir,
    stateDir: boot.paths.state,
    env: boot.env,
    secrets: {
      files: [...agents.files, authStoreFile(boot.paths.data), join(boot.paths.data, ".env")],
      folders: agents.folders,
      env: [...[...agents.env, ...credentialEnvVars].filter((name) => HOLDS_SECRET.test(name)), ...(boot.config?.value.secrets ?? [])],
    },
  });
  const notices = [...settings.ignored, ...(sandbox.fallback ? [`sandbox: ${sandbox.fallback}`] : [])];
  return { sandbox, notices };
}
