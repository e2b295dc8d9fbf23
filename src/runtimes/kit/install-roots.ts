import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { expandHome } from "../../kernel/paths.js";
import type { GlobalRoot, InstallScope, RootContext } from "./install-types.js";
import type { InstallRuntime } from "./types.js";

/** The manifest file name; a probe prefers the folder that already holds one. */
export const MANIFEST_FILE = "bosun-manifest.json";

/** Where a root came from, for `--json` and error messages. */
export interface ResolvedRoot {
  dir: string;
  /** `--config-dir`, the environment variable that set it, `default`, or `probe`. */
  source: string;
}

/**
 * A runtime's global root: `--config-dir` first, then the override chain (the first variable
 * that is set and not blank wins; `~` is expanded, a relative value is taken from the working
 * folder), then the probe list, then the default under the home folder.
 */
export function resolveGlobalRoot(spec: GlobalRoot, ctx: RootContext, configDir?: string, exists: (path: string) => boolean = existsSync): ResolvedRoot {
  if (configDir !== undefined) return { dir: absolute(configDir, ctx), source: "--config-dir" };
  for (const override of spec.overrides) {
    const value = ctx.env[override.env]?.trim();
    if (!value) continue;
    // XDG variables that are not absolute are ignored, as the XDG spec says.
    if (override.env.startsWith("XDG_") && !isAbsolute(value)) continue;
    const path = absolute(value, ctx);
    if (override.use === "dir") return { dir: path, source: override.env };
    if (override.use === "dirname") return { dir: dirname(path), source: override.env };
    return { dir: join(path, override.path), source: override.env };
  }
  if (spec.probe) {
    const candidates = spec.probe.map((relative) => join(ctx.home, relative));
    const withManifest = candidates.find((candidate) => exists(join(candidate, MANIFEST_FILE)));
    if (withManifest) return { dir: withManifest, source: "probe" };
    const existing = candidates.find((candidate) => exists(candidate));
    if (existing) return { dir: existing, source: "probe" };
  }
  return { dir: join(ctx.home, spec.home), source: "default" };
}

/** A runtime's project root: `<working folder>/<localRoot>`, or null when it has no project scope. */
export function resolveLocalRoot(runtime: InstallRuntime, ctx: RootContext): ResolvedRoot | null {
  const local = runtime.installSurface.localRoot;
  if (local === null) return null;
  return { dir: local === "" ? ctx.cwd : join(ctx.cwd, local), source: "working folder" };
}

export function resolveRoot(runtime: InstallRuntime, scope: InstallScope, ctx: RootContext, configDir?: string): ResolvedRoot | null {
  return scope === "global" ? resolveGlobalRoot(runtime.installSurface.globalRoot, ctx, configDir) : resolveLocalRoot(runtime, ctx);
}

/** The global root as the README and `--help` show it: the default, then the variables that move it. */
export function describeGlobalRoot(spec: GlobalRoot): string {
  const parts = spec.overrides.map((override) => (override.use === "dir" ? `$${override.env}` : override.use === "dirname" ? `dirname($${override.env})` : `$${override.env}/${override.path}`));
  return [...parts, `~/${spec.home}`].join(" → ");
}

function absolute(value: string, ctx: RootContext): string {
  const expanded = expandHome(value, ctx.home);
  return isAbsolute(expanded) ? expanded : resolve(ctx.cwd, expanded);
}
