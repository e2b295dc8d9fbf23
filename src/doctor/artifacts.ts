import type { HookEntryRecord, Manifest, SettingRecord } from "../install/records/manifest.js";
import type { InstallLayout, InstallScope } from "../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../runtimes/kit/types.js";
import { isSkip } from "../runtimes/kit/install-types.js";

/** A kind of thing a pack puts into a runtime, as the runtime itself would list it. */
export type ArtifactKind = "skill" | "command" | "agent" | "hook" | "mcp";

/** A kind as the report names it: `skill`, …, `MCP server`. */
export function kindWord(kind: ArtifactKind): string {
  return kind === "mcp" ? "MCP server" : kind;
}

/**
 * One artifact bosun installed in a root: its kind and name, and the file the runtime loads it
 * from (relative to the root; for a hook, the config file that registers it).
 */
export interface InstalledArtifact {
  kind: ArtifactKind;
  name: string;
  pack: string;
  file: string;
  /** A hook's event, in the runtime's words (`SessionStart`), and the command bosun registered. */
  event?: string;
  command?: string;
}

/**
 * What a root holds, read back from its manifest through the runtime's layout for the scope:
 * every skill folder's `SKILL.md`, every command and agent file, every hook entry bosun added to
 * a config file, and every MCP server entry it set in the runtime's MCP file. A file the layout does not account for (a skill's references) is
 * part of its artifact, not one of its own. Where commands share the skills folder (Codex writes
 * them as skills), they read back as skills: that is how the runtime lists them too.
 */
export function installedArtifacts(runtime: InstallRuntime, scope: InstallScope, rootKey: string, manifest: Manifest): InstalledArtifact[] {
  const layout = runtime.installSurface.layout(scope);
  const packOf = new Map<string, string>();
  for (const [pack, record] of Object.entries(manifest.packs)) for (const file of record.files) packOf.set(file, pack);
  const out: InstalledArtifact[] = [];
  for (const file of Object.keys(manifest.files).sort()) {
    const found = artifactAt(layout, rootKey, file);
    if (found) out.push({ ...found, pack: packOf.get(file) ?? "", file });
  }
  // An MCP server is the entry bosun set at `<path>.<name>` in the runtime's MCP file.
  const mcp = layout.mcp && !isSkip(layout.mcp) ? layout.mcp : null;
  for (const entry of manifest.config) {
    if (!mcp || entry.kind !== "setting") continue;
    const setting = entry as SettingRecord;
    const inPlace = setting.file === mcp.file && setting.mode === "value" && setting.path.length === mcp.path.length + 1 && mcp.path.every((key, index) => setting.path[index] === key);
    if (inPlace) out.push({ kind: "mcp", name: setting.path.at(-1) as string, pack: setting.pack, file: setting.file });
  }
  for (const entry of manifest.config) {
    if (entry.kind !== "hook") continue;
    const hook = entry as HookEntryRecord;
    if (!out.some((artifact) => artifact.kind === "hook" && artifact.name === hook.hook && artifact.file === hook.file)) out.push({ kind: "hook", name: hook.hook, pack: hook.pack, file: hook.file, event: hook.event, command: hook.command });
  }
  return out;
}

function artifactAt(layout: InstallLayout, rootKey: string, file: string): Omit<InstalledArtifact, "pack" | "file"> | null {
  const inRoot = (placement: { root?: string }) => (placement.root ?? "main") === rootKey;
  if (!isSkip(layout.skills) && inRoot(layout.skills) && !layout.skills.category) {
    const name = skillName(layout.skills.dir, file);
    if (name) return { kind: "skill", name };
  }
  if (!isSkip(layout.commands) && inRoot(layout.commands)) {
    const { dir, format } = layout.commands;
    if (format === "skill") {
      const name = skillName(dir, file);
      if (name) return { kind: "command", name };
    } else {
      const name = fileName(dir, file, format === "gemini-toml" ? ".toml" : ".md");
      if (name) return { kind: "command", name };
    }
  }
  if (!isSkip(layout.agents) && rootKey === "main") {
    const name = fileName(layout.agents.dir, file, layout.agents.format === "copilot" ? ".agent.md" : ".md");
    if (name) return { kind: "agent", name };
  }
  return null;
}

/** `<dir>/<name>/SKILL.md` → name. */
function skillName(dir: string, file: string): string | null {
  const prefix = dir === "" ? "" : `${dir}/`;
  if (!file.startsWith(prefix)) return null;
  const parts = file.slice(prefix.length).split("/");
  return parts.length === 2 && parts[1] === "SKILL.md" ? (parts[0] as string) : null;
}

/** `<dir>/<name><ext>` → name. */
function fileName(dir: string, file: string, ext: string): string | null {
  const prefix = dir === "" ? "" : `${dir}/`;
  if (!file.startsWith(prefix) || !file.endsWith(ext)) return null;
  const name = file.slice(prefix.length, -ext.length);
  return name && !name.includes("/") ? name : null;
}

/**
 * The skills a runtime reads from a folder it shares with others, where bosun put them for
 * another runtime (it skipped its own copy, shared-folders.ts): those of the root's packs in the
 * shared root's manifest, under `skillsDir` (the shared folder's name, `skills`), that the root
 * has no copy of. Files are relative to the shared root.
 */
export function sharedSkills(own: Manifest, shared: Manifest, skillsDir: string): InstalledArtifact[] {
  const out: InstalledArtifact[] = [];
  const ownSkills = new Set(Object.keys(own.files).flatMap((file) => (file.endsWith("/SKILL.md") ? [file.split("/").at(-2)] : [])));
  for (const [pack, record] of Object.entries(own.packs)) {
    if (record.heldFor) continue;
    for (const file of shared.packs[pack]?.files ?? []) {
      const name = skillName(skillsDir, file);
      if (name && !ownSkills.has(name)) out.push({ kind: "skill", name, pack, file });
    }
  }
  return out;
}
