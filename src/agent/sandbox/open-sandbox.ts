import type { Env } from "../../kernel/paths.js";
import { UserError } from "../../kernel/errors.js";
import { isInside } from "../../kernel/fs/path-inside.js";
import { lstatOrUndefined, realPathOrSelf, statOrUndefined } from "../../kernel/fs/stat.js";
import { toolEnv } from "../tools/tool-env.js";
import { sandboxReadiness } from "./sandbox-readiness.js";
import type { Sandbox } from "./sandbox.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import { SpillBudget } from "./spill-budget.js";

/** Where secrets live that the tools must not see: credential files and folders, and the env names that hold them. */
export interface SecretLocations {
  files: readonly string[];
  folders: readonly string[];
  env: readonly string[];
}

export interface SandboxInputs {
  settings: SandboxSettings;
  /** Where the bwrap verdict is kept for `bosun status` (a run always checks anew). */
  stateDir?: string;
  workdir: string;
  /** The environment of the run, before the secrets are taken out. */
  env: Env;
  secrets: SecretLocations;
}

/** `sandbox.mode` is `required` and tools cannot be contained: the run stops before its first tool call. */
export class SandboxUnavailableError extends UserError {
  override name = "SandboxUnavailableError";
}

/**
 * Sockets that reach other programs with the user's rights (a Docker daemon, the session bus, an
 * ssh agent): a read-only file system does not stop a connect, so they are masked too.
 */
const DAEMON_SOCKETS = ["/run/user", "/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock"];

/**
 * Opens the sandbox of a run: checks the writable folders and that bubblewrap can start, finds
 * which credential files exist (to mask them), and builds the environment tools get. In `auto`
 * mode a problem is not fatal: tools then run with the command checker alone, and `fallback`
 * says why (the run shows it once). In `required` mode it throws. `off` contains nothing.
 */
export async function openSandbox(inputs: SandboxInputs): Promise<Sandbox> {
  const { settings } = inputs;
  const base = { mode: settings.mode, network: settings.network, limits: settings.limits, spill: new SpillBudget(settings.limits.sessionOutputBytes) };
  if (settings.mode === "off") {
    const env = Object.fromEntries(Object.entries(inputs.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return { ...base, bwrap: null, fallback: null, writable: [realPathOrSelf(inputs.workdir)], masked: { files: [], folders: [] }, env, droppedEnv: [] };
  }
  const { bwrap, problem: reason } = await sandboxReadiness(settings, inputs.env, inputs.workdir, inputs.stateDir ? { stateDir: inputs.stateDir, trust: false } : undefined);
  if (reason && settings.mode === "required") throw new SandboxUnavailableError(`sandbox: ${reason}; sandbox.mode is "required", so no tool runs (fix that, or set sandbox.mode to "auto" in bosun.json)`);
  const tools = toolEnv(inputs.env, { secretNames: inputs.secrets.env, allow: settings.env });
  return {
    ...base,
    bwrap,
    fallback: reason ? `${reason}; commands run with the command checker only` : null,
    writable: [realPathOrSelf(inputs.workdir), ...settings.writable.filter((folder) => folder !== "/").map(realPathOrSelf)],
    masked: maskedLocations(inputs.secrets, settings.readable, inputs.env),
    env: tools.env,
    droppedEnv: tools.dropped,
  };
}

/** The existing credential files and folders (each also by its real path), minus the ones `sandbox.readable` lets through. */
function maskedLocations(secrets: SecretLocations, readable: readonly string[], env: Env): Sandbox["masked"] {
  const allowed = (path: string) => readable.some((folder) => isInside(path, folder));
  const existing = (paths: Iterable<string>, wantFolder: boolean) => {
    const out = new Set<string>();
    for (const path of paths) {
      if (allowed(path) || !lstatOrUndefined(path)) continue;
      const real = realPathOrSelf(path);
      const info = statOrUndefined(real);
      if (!info || info.isDirectory() !== wantFolder || allowed(real)) continue;
      out.add(real);
    }
    return [...out].sort();
  };
  const sockets = [...DAEMON_SOCKETS, ...(env.SSH_AUTH_SOCK ? [env.SSH_AUTH_SOCK] : [])];
  const socketFolders = sockets.filter((path) => statOrUndefined(path)?.isDirectory());
  const socketFiles = sockets.filter((path) => statOrUndefined(path)?.isSocket());
  return { files: [...existing(secrets.files, false), ...socketFiles.map(realPathOrSelf)], folders: [...existing(secrets.folders, true), ...socketFolders.map(realPathOrSelf)] };
}
