import { join } from "node:path";
import { layoutPaths, pathsOverlap, supportDirFor } from "../../runtimes/kit/support-dir.js";
import type { InstallScope } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { PackError } from "../pack/pack-error.js";
import { STATE_NAMES } from "../records/root.js";

/**
 * The support folder of a pack with `files/` in a runtime and scope, relative to the main root.
 * A pack name that would put it on one of the runtime's own folders or files (skills, commands,
 * agents, hooks, its hook config) or on bosun's own files is a `PackError`: nothing is written.
 */
export function supportFolder(runtime: InstallRuntime, scope: InstallScope, pack: { name: string; dir: string }): string {
  const rel = supportDirFor(runtime, scope, pack.name);
  const stateDir = runtime.installSurface.stateDir?.[scope] ?? "";
  const taken = [...layoutPaths(runtime, scope).map((path) => ({ path, what: `${runtime.title}'s ${path}` })), ...STATE_NAMES.map((name) => ({ path: stateDir ? `${stateDir}/${name}` : name, what: `bosun's own ${name}` }))];
  const clash = taken.find(({ path }) => pathsOverlap(rel, path));
  if (clash) throw new PackError(join(pack.dir, "files"), `the pack's support files would go to ${rel}/, which is ${clash.what}; rename the pack (its name names that folder)`, null, null);
  return rel;
}
