import type { Env } from "../../kernel/paths.js";
import { statOrUndefined } from "../../kernel/fs/stat.js";
import { checkBwrap } from "./bwrap-probe.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/**
 * Whether tool processes can be contained with these settings (mode aside): bubblewrap's path,
 * or the one thing in the way (a writable folder that is missing or is `/`, no bwrap, a bwrap
 * that cannot start a sandbox here).
 */
export async function sandboxReadiness(
  settings: Pick<SandboxSettings, "writable">,
  env: Env,
  cwd: string,
  cache?: { stateDir: string; trust: boolean },
): Promise<{ bwrap: string | null; problem: string | null }> {
  const problem = writableProblem(settings.writable);
  if (problem) return { bwrap: null, problem };
  const check = await checkBwrap(env, cwd, cache);
  return check.ok ? { bwrap: check.bwrap, problem: null } : { bwrap: null, problem: check.reason };
}

function writableProblem(folders: readonly string[]): string | undefined {
  for (const folder of folders) {
    if (folder === "/") return `sandbox.writable lists "/", which would make the whole file system writable; list the folders tools need`;
    const info = statOrUndefined(folder);
    if (!info) return `sandbox.writable lists ${folder}, which does not exist; create it or remove it from bosun.json`;
    if (!info.isDirectory()) return `sandbox.writable lists ${folder}, which is not a folder; list folders only`;
  }
  return undefined;
}
