import { delimiter, isAbsolute, join, resolve } from "node:path";
import { expandHome } from "../../../kernel/paths.js";
import type { DetectionContext, RuntimeConfig } from "../types.js";

/** The configured `binary` (trimmed, `~` expanded) or the runtime's default name. */
export function configuredBinary(config: RuntimeConfig, fallback: string, home: string): string {
  const configured = typeof config.binary === "string" ? config.binary.trim() : "";
  return configured ? expandHome(configured, home) : fallback;
}

// What Python's shutil.which falls back to when PATH is unset.
const DEFAULT_PATH = ["/bin", "/usr/bin"].join(delimiter);

/**
 * Where `binary` would run from, without running anything: an absolute path must be an
 * executable regular file; a name with a slash is taken relative to the working folder; a bare
 * name is looked up on PATH (empty entries skipped).
 */
export function locateBinary(binary: string, ctx: Pick<DetectionContext, "env" | "cwd" | "files">): string | undefined {
  if (!binary) return undefined;
  if (isAbsolute(binary) || binary.includes("/")) {
    const path = isAbsolute(binary) ? binary : resolve(ctx.cwd, binary);
    return ctx.files.isExecutableFile(path) ? path : undefined;
  }
  const searchPath = ctx.env.PATH ?? DEFAULT_PATH;
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    if (ctx.files.isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
