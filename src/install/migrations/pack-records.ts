import { isSkip, type AgentPlacement, type CommandPlacement, type InstallLayout } from "../../runtimes/kit/install-types.js";
import { removeHookEntries, type HookEntry } from "../config/json-hooks.js";
import type { HookEntryRecord } from "../records/manifest.js";
import type { MigrationAction, MigrationContext, MigrationRecord } from "../records/migration-record.js";
import type { PackMigration } from "../pack/load-pack.js";
import { PackError } from "../pack/pack-error.js";
import type { PackMigrationStep } from "../pack/pack-schema.js";
import { normalizeRelPath } from "../plan/safe-path.js";
import { succeedPackActions } from "./succeed-pack.js";
import { surfaceDir } from "./surfaces.js";

/**
 * A pack's migrations as engine records. They are all data (the JSON file), so the checksum
 * covers everything they do; the steps speak of artifacts (a command, a skill, a hook), and each
 * runtime's layout turns them into paths.
 */
export function packMigrationRecords(packName: string, migrations: readonly PackMigration[]): MigrationRecord[] {
  for (const { file, record } of migrations) {
    if (record.steps.some((step) => step.type === "succeed-pack" && step.from === packName)) throw new PackError(file, `a pack cannot succeed itself: name the pack ${packName} takes the place of`, null, "steps");
  }
  return migrations.map(({ record }) => ({
    ...successionOf(succeededBy(record.steps)),
    id: record.id,
    title: record.title,
    description: record.description,
    introducedIn: record.introducedIn,
    ...(record.runtimes ? { runtimes: record.runtimes } : {}),
    scopes: record.scopes,
    destructive: record.destructive,
    source: `pack:${packName}`,
    data: { steps: record.steps },
    plan: (ctx) => record.steps.flatMap((step) => expandStep(step, ctx, record.id)),
  }));
}

/** The packs a migration's `succeed-pack` steps take the place of, each once. */
export function succeededBy(steps: readonly PackMigrationStep[]): string[] {
  return [...new Set(steps.flatMap((step) => (step.type === "succeed-pack" ? [step.from] : [])))];
}

/** A migration with `succeed-pack` steps runs again in a folder where a pack it succeeds is installed (again). */
function successionOf(from: readonly string[]): { whileInstalled?: readonly string[] } {
  return from.length > 0 ? { whileInstalled: from } : {};
}

function expandStep(step: PackMigrationStep, ctx: MigrationContext, id: string): MigrationAction[] {
  const pack = ctx.pack.name;
  const evidence = `listed for pack ${pack} in bosun-manifest.json`;
  const owned = (rel: string) => ctx.ownerOf(rel) === pack;
  const layout = ctx.layout;
  switch (step.type) {
    case "rename-command": {
      const placement = commandPlacement(layout, ctx.rootKey);
      if (!placement) return [];
      const from = commandRel(placement, step.from);
      if (!owned(from) || !ctx.exists(from)) return [];
      const reason = `command ${step.from} is now ${step.to}`;
      const actions: MigrationAction[] = [{ type: "move-managed", relPath: from, toRelPath: commandRel(placement, step.to), reason, ownershipEvidence: evidence }];
      if (placement.format === "skill") actions.push(emptyDir(`${placement.dir}/${step.from}`, reason, id));
      return actions;
    }
    case "rename-agent": {
      const placement = agentPlacement(layout, ctx.rootKey);
      if (!placement) return [];
      const from = agentRel(placement, step.from);
      if (!owned(from) || !ctx.exists(from)) return [];
      return [{ type: "move-managed", relPath: from, toRelPath: agentRel(placement, step.to), reason: `agent ${step.from} is now ${step.to}`, ownershipEvidence: evidence }];
    }
    case "rename-skill": {
      const base = surfaceDir(layout, ctx.rootKey, pack, "skills");
      if (!base) return [];
      const reason = `skill ${step.from} is now ${step.to}`;
      const files = ownedUnder(ctx, `${base}/${step.from}`, pack);
      const moves: MigrationAction[] = files.map((rel) => ({ type: "move-managed", relPath: rel, toRelPath: `${base}/${step.to}${rel.slice(base.length + 1 + step.from.length)}`, reason, ownershipEvidence: evidence }));
      return files.length === 0 ? [] : [...moves, ...emptyDirs(files, `${base}/${step.from}`, reason, id)];
    }
    case "retire-command": {
      const placement = commandPlacement(layout, ctx.rootKey);
      if (!placement) return [];
      const rel = commandRel(placement, step.name);
      const reason = `command ${step.name} was retired`;
      const actions: MigrationAction[] = owned(rel) ? [{ type: "remove-managed", relPath: rel, reason, ownershipEvidence: evidence }] : [];
      if (actions.length > 0 && placement.format === "skill") actions.push(emptyDir(`${placement.dir}/${step.name}`, reason, id));
      return actions;
    }
    case "retire-agent": {
      const placement = agentPlacement(layout, ctx.rootKey);
      if (!placement) return [];
      const rel = agentRel(placement, step.name);
      return owned(rel) ? [{ type: "remove-managed", relPath: rel, reason: `agent ${step.name} was retired`, ownershipEvidence: evidence }] : [];
    }
    case "retire-skill": {
      const base = surfaceDir(layout, ctx.rootKey, pack, "skills");
      if (!base) return [];
      const reason = `skill ${step.name} was retired`;
      const files = ownedUnder(ctx, `${base}/${step.name}`, pack);
      return files.length === 0 ? [] : [...files.map((rel): MigrationAction => ({ type: "remove-managed", relPath: rel, reason, ownershipEvidence: evidence })), ...emptyDirs(files, `${base}/${step.name}`, reason, id)];
    }
    case "retire-hook":
      return retireHook(ctx, step.name, evidence, id);
    case "succeed-pack":
      return succeedPackActions(ctx, step.from);
    case "remove-empty-dir": {
      const base = surfaceDir(layout, ctx.rootKey, pack, step.surface);
      if (!base) return [];
      return [emptyDir(`${base}/${normalizeRelPath(step.path, `migration ${id}`)}`, `folder emptied by migration ${id}`, id)];
    }
    case "retire-file":
      return retireFile(ctx, step, evidence, id);
  }
}

/** A retired file: removed when the pack owns it, or when no pack does and it is exactly one of the contents the pack shipped. */
function retireFile(ctx: MigrationContext, step: Extract<PackMigrationStep, { type: "retire-file" }>, evidence: string, id: string): MigrationAction[] {
  const pack = ctx.pack.name;
  const base = surfaceDir(ctx.layout, ctx.rootKey, pack, step.surface);
  if (!base) return [];
  const rel = `${base}/${normalizeRelPath(step.path, `migration ${id}`)}`;
  if (ctx.ownerOf(rel) === pack) return [{ type: "remove-managed", relPath: rel, reason: `retired by migration ${id}`, ownershipEvidence: evidence }];
  const hash = ctx.ownerOf(rel) === undefined ? ctx.hash(rel) : null;
  if (hash === null || !step.sha256.includes(hash)) return [];
  return [
    {
      type: "remove-managed",
      relPath: rel,
      reason: `retired by migration ${id}`,
      classification: "managed-pristine",
      ownershipEvidence: `its content is exactly a file pack ${pack} shipped (sha256 ${hash.slice(0, 12)}…)`,
    },
  ];
}

/** A retired hook: its files, its hooks file (Copilot), and its registrations in the runtime's config. */
function retireHook(ctx: MigrationContext, name: string, evidence: string, id: string): MigrationAction[] {
  if (isSkip(ctx.layout.hooks) || ctx.rootKey !== "main") return [];
  const placement = ctx.layout.hooks;
  const pack = ctx.pack.name;
  const reason = `hook ${name} was retired`;
  const actions: MigrationAction[] = [];
  const files = ownedUnder(ctx, `${placement.filesDir}/${name}`, pack);
  actions.push(...files.map((rel): MigrationAction => ({ type: "remove-managed", relPath: rel, reason, ownershipEvidence: evidence })));
  actions.push(...emptyDirs(files, `${placement.filesDir}/${name}`, reason, id));
  const register = placement.register;
  if (register.kind === "file") {
    const rel = `${register.dir}/${name}.json`;
    if (ctx.ownerOf(rel) === pack) actions.push({ type: "remove-managed", relPath: rel, reason, ownershipEvidence: evidence });
    return actions;
  }
  const entries = ctx.manifest.config.filter((entry): entry is HookEntryRecord => entry.kind === "hook" && entry.pack === pack && entry.hook === name);
  for (const file of new Set(entries.map((entry) => entry.file))) {
    const read = ctx.readJson(file);
    if (!read.exists || read.error !== null || read.text === null) continue;
    const removed: (Pick<HookEntry, "event" | "command"> & { created?: number; emptyInner?: string })[] = entries
      .filter((entry) => entry.file === file)
      .map(({ event, command, created, emptyInner }) => ({ event, command, ...(created === undefined ? {} : { created }), ...(emptyInner ? { emptyInner } : {}) }));
    const text = removeHookEntries(read.text, register.format, removed);
    if (text !== read.text) actions.push({ type: "rewrite-json", relPath: file, text, contract: register.contract, reason: `${reason}: its registration is removed from ${file}`, ownershipEvidence: "entries recorded in bosun-manifest.json, matched by their exact command" });
  }
  return actions;
}

function commandPlacement(layout: InstallLayout, rootKey: string): CommandPlacement | null {
  return isSkip(layout.commands) || (layout.commands.root ?? "main") !== rootKey ? null : layout.commands;
}

function agentPlacement(layout: InstallLayout, rootKey: string): AgentPlacement | null {
  return isSkip(layout.agents) || rootKey !== "main" ? null : layout.agents;
}

/** Where a command lands in a runtime (the same naming as the renderer). */
export function commandRel(placement: CommandPlacement, name: string): string {
  if (placement.format === "skill") return `${placement.dir}/${name}/SKILL.md`;
  return `${placement.dir}/${name}.${placement.format === "gemini-toml" ? "toml" : "md"}`;
}

export function agentRel(placement: AgentPlacement, name: string): string {
  return `${placement.dir}/${name}.${placement.format === "copilot" ? "agent.md" : "md"}`;
}

function ownedUnder(ctx: MigrationContext, dir: string, pack: string): string[] {
  return Object.keys(ctx.manifest.files)
    .filter((rel) => rel.startsWith(dir + "/") && ctx.ownerOf(rel) === pack)
    .sort();
}

function emptyDir(rel: string, reason: string, id: string): MigrationAction {
  return { type: "remove-empty-dir", relPath: rel, reason, ownershipEvidence: `a folder of the pack's own artifact, named by migration ${id}; removed only when empty` };
}

/** The folders holding `files` under `top` (and `top` itself), deepest first. */
function emptyDirs(files: string[], top: string, reason: string, id: string): MigrationAction[] {
  const dirs = new Set<string>([top]);
  for (const rel of files) {
    const parts = rel.split("/");
    for (let i = top.split("/").length + 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return [...dirs].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1)).map((dir) => emptyDir(dir, reason, id));
}
