import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import { isInside } from "../../kernel/fs/path-inside.js";
import { realPathOrSelf } from "../../kernel/fs/stat.js";
import { isInsideWorkdir, realLocation } from "../tools/paths.js";
import type { SandboxMode, SandboxNetwork } from "./sandbox-config-schema.js";
import type { SandboxLimits } from "./sandbox-settings.js";
import { SpillBudget } from "./spill-budget.js";

/**
 * The sandbox of one run, as opened when it starts (see `openSandbox`): what tool processes run
 * inside, and the rules the file tools apply themselves. Sub-agents get their parent's, or a
 * narrower one (`narrowSandbox`).
 */
export interface Sandbox {
  mode: SandboxMode;
  /** bubblewrap's path when tool processes run inside it; null when they don't (`off`, or `auto` without it). */
  bwrap: string | null;
  /** Why tool processes are not contained although the mode asks for it (`auto` fell back to the checker), or null. */
  fallback: string | null;
  network: SandboxNetwork;
  /** Real paths of the folders tools may write, the working folder first. */
  writable: readonly string[];
  /** Credential files and folders (real paths of the existing ones) that tools may not read. */
  masked: { files: readonly string[]; folders: readonly string[] };
  /** The environment tool processes get: the run's, without the variables that hold secrets. */
  env: Readonly<Record<string, string>>;
  /** Variables left out of `env`, by name (for `bosun status` and the log; never their values). */
  droppedEnv: readonly string[];
  limits: SandboxLimits;
  /** Spilled output of the whole agent tree, counted against `limits.sessionOutputBytes`. */
  spill: SpillBudget;
}

/** Whether the file tools apply the sandbox's rules (every mode but `off`). */
export function appliesRules(sandbox: Sandbox | undefined): sandbox is Sandbox {
  return sandbox !== undefined && sandbox.mode !== "off";
}

/**
 * Whether a tool may write `path` (absolute): it is inside one of the writable folders, or of
 * `granted` (allowed by the user for this call), by its name and after following the symlinks of
 * its nearest existing folder, since a link inside the project may point anywhere.
 */
export function mayWrite(sandbox: Sandbox, path: string, granted: readonly string[] = []): boolean {
  return [...sandbox.writable, ...granted].some((folder) => isInsideWorkdir(folder, path));
}

/** Whether `path` is, or is inside, a masked credential file or folder (after following symlinks). */
export function isMasked(sandbox: Sandbox, path: string): boolean {
  const real = realLocation(path) ?? path;
  const { files, folders } = sandbox.masked;
  return [path, real].some((candidate) => files.includes(candidate) || folders.some((folder) => isInside(candidate, folder)));
}

/**
 * What the user grants when they allow a write to `path` for one call: the path itself when it
 * exists, else its nearest existing folder (a file that does not exist yet cannot be bound; its
 * folder is what becomes writable, and the question names it).
 */
export function writeGrant(path: string): string {
  let probe = path;
  for (;;) {
    if (lstatSync(probe, { throwIfNoEntry: false })) return realPathOrSelf(probe);
    const parent = dirname(probe);
    if (parent === probe) return probe;
    probe = parent;
  }
}

/** What a sub-agent may ask for: never more than its parent has. */
export interface SandboxNarrowing {
  network?: SandboxNetwork;
  /** Only these of the parent's writable folders (or folders inside them) stay writable. */
  writable?: readonly string[];
}

/**
 * A sub-agent's sandbox: its parent's, with the network off if either says so and only the
 * writable folders that lie inside the parent's. The spill budget is shared: it counts the tree.
 */
export function narrowSandbox(parent: Sandbox, narrowing: SandboxNarrowing): Sandbox {
  const network: SandboxNetwork = parent.network === "off" || narrowing.network === "off" ? "off" : "on";
  const writable = narrowing.writable ? narrowing.writable.filter((folder) => parent.writable.some((outer) => isInside(folder, outer))) : parent.writable;
  return { ...parent, network, writable };
}
