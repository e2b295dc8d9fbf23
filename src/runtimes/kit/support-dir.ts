import { describeGlobalRoot } from "./install-roots.js";
import { contractRows } from "./install-surfaces.js";
import { isSkip, type ContractRow, type InstallScope } from "./install-types.js";
import type { InstallRuntime } from "./types.js";

/**
 * Where a pack's support files (its `files/`) go, relative to the runtime's folder for the
 * scope: the runtime's own rule, else `<pack>/` (Claude Code: `~/.claude/<pack>/`, and under
 * `$CLAUDE_CONFIG_DIR` when that is set).
 */
export function supportDirFor(runtime: InstallRuntime, scope: InstallScope, pack: string): string {
  return runtime.installSurface.supportDir?.(scope, pack) ?? pack;
}

/** The paths (relative to the main root) the runtime's layout uses for a scope: its loaded folders and config files. */
export function layoutPaths(runtime: InstallRuntime, scope: InstallScope): string[] {
  const layout = runtime.installSurface.layout(scope);
  const paths: string[] = [];
  if (!isSkip(layout.skills) && !layout.skills.root) paths.push(layout.skills.dir);
  if (!isSkip(layout.commands) && !layout.commands.root) paths.push(layout.commands.dir);
  if (!isSkip(layout.agents)) paths.push(layout.agents.dir);
  if (!isSkip(layout.hooks)) {
    const hooks = layout.hooks;
    paths.push(hooks.filesDir, ...(hooks.register.kind === "config" ? hooks.register.files : [hooks.register.dir]));
    if (hooks.toml) paths.push(hooks.toml.file);
    if (hooks.retiredToml) paths.push(hooks.retiredToml.file);
  }
  return paths;
}

/** True when one relative path is the other or inside it. */
export function pathsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** The support folder's row of a runtime's config contract registry (`<runtime>.support`). */
export function supportRow(runtime: InstallRuntime): ContractRow {
  const surface = runtime.installSurface;
  const overrides = describeGlobalRoot(surface.globalRoot).split(" → ").slice(0, -1);
  const global = `~/${surface.globalRoot.home}/${supportDirFor(runtime, "global", "<pack>")}${overrides.length > 0 ? ` (follows ${overrides.join(", ")})` : ""}`;
  const localRel = supportDirFor(runtime, "local", "<pack>");
  const local = surface.localRoot === null ? "— (no project scope)" : surface.localRoot === "" ? localRel : `${surface.localRoot}/${localRel}`;
  const [row] = contractRows(runtime.id, {
    support: {
      surface: "<pack>/… (the pack's files/)",
      what: "every file under the pack's `files/`, nested folders and executable bits kept; `{pack-dir}` in the pack's text and hook commands names this folder",
      global,
      local,
      why: runtime.id === "claude" ? "only the pack's own text and hook commands read it; Claude Code does not scan it, and the anchor installer keeps its support files the same way (gsd-core 1.14.0: ~/.claude/gsd-core/)" : "only the pack's own text and hook commands read it; the runtime loads only the folders of its other rows",
      checkedAgainst: runtime.id === "claude" ? "gsd-core 1.14.0's Claude install (~/.claude/gsd-core/, 744 files)" : "bosun's choice: a folder beside the ones the runtime loads",
    },
  });
  return row as ContractRow;
}
