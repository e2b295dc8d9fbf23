import { z } from "zod";
import { displayPath } from "../../kernel/paths.js";
import type { RootStatus } from "../../install/records/install-status.js";
import type { ServerTool } from "./tool.js";

const input = z
  .object({
    runtimes: z
      .array(z.string().trim().min(1, "a runtime id is empty"))
      .max(64)
      .optional()
      .describe("Only these runtimes (claude, codex, gemini, opencode, cursor, …), listed even where nothing is installed; every runtime whose folder exists by default"),
    scope: z.enum(["global", "local"]).optional().describe("global (the runtime's user folder) or local (the project the server was started in); both by default"),
  })
  .strict();

/**
 * `installed_packs`: for each runtime and scope, the packs bosun installed there (name, version,
 * files), the migrations applied, and the drift since (files edited or deleted, config entries
 * gone): what `bosun install --status --json` prints. Reads only; drift is checked by hashing
 * what bosun installed.
 */
export const installedPacksTool: ServerTool<z.infer<typeof input>> = {
  name: "installed_packs",
  title: "Installed packs and drift",
  description:
    "The workflow packs bosun installed into each coding agent's folders (per runtime and scope: global or this project), their versions and files, " +
    "and what changed since (drift: files edited or deleted, config entries gone, an interrupted install). The same as `bosun install --status --json`.",
  input,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async call({ runtimes, scope }, { boot, cwd }) {
    const [{ collectInstallStatus }, registry, nodeFs] = await Promise.all([import("../../install/records/install-status.js"), import("../../runtimes/registry.js"), import("node:fs")]);
    const named = runtimes ? [...new Set(runtimes.map((id) => registry.getInstallRuntime(id)))] : null;
    const statuses = collectInstallStatus({
      runtimes: named ?? registry.listInstallRuntimes(),
      ...(scope ? { scopes: [scope] } : {}),
      ctx: { env: boot.agentEnv, home: boot.paths.home, cwd },
      fs: nodeFs,
      checkDrift: true,
      includeMissing: named !== null,
    });
    return { data: { runtimes: statuses }, text: statusText(statuses, boot.paths.home) };
  },
};

/** One line per root: its packs, and what drifted. */
function statusText(statuses: RootStatus[], home: string): string {
  if (statuses.length === 0) return "No coding agent folder found (bosun install --runtime R --scope global|local installs a pack).";
  const installed = statuses.filter((status) => status.installed).length;
  const lines = statuses.map((status) => {
    const where = `${status.runtime} ${status.scope}${status.key === "main" ? "" : ` (${status.key})`} ${displayPath(status.dir, home)}`;
    if (!status.installed) return `- ${where}: ${status.exists ? "no pack installed" : "no folder"}${status.interrupted ? "; interrupted install (run bosun install)" : ""}`;
    const packs = status.packs.map((pack) => `${pack.name} ${pack.version}${pack.heldFor ? ` (uninstalled; kept for ${pack.heldFor.join(", ")})` : ""}`).join(", ");
    return `- ${where}: ${packs}, ${status.files} files; ${[...driftWords(status), ...status.problems].join(", ") || "no drift"}`;
  });
  return [`Packs installed in ${installed} of ${statuses.length} agent folder${statuses.length === 1 ? "" : "s"}:`, ...lines].join("\n");
}

function driftWords(status: RootStatus): string[] {
  const drift = status.drift;
  const words = status.interrupted ? ["interrupted install (run bosun install)"] : [];
  if (!drift) return words;
  if (drift.modified.length > 0) words.push(`${drift.modified.length} edited`);
  if (drift.missing.length > 0) words.push(`${drift.missing.length} deleted`);
  if (drift.config.length > 0) words.push(`${drift.config.length} config entries gone`);
  if (drift.shared.length > 0) words.push(`${drift.shared.length} shared skill files gone`);
  return words;
}
