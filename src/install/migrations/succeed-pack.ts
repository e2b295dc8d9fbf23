import { installedHere } from "../records/manifest.js";
import type { MigrationAction, MigrationContext } from "../records/migration-record.js";

/** How many of your files a report note names before it counts the rest. */
const NAMED = 5;

/**
 * A `succeed-pack` step: the installing pack takes the place of pack `from` in a folder that
 * has it. First the manifest passes `from`'s files and config entries to the new pack
 * (`succeed-pack`, succession.ts), so the ordinary upgrade does the diffing; then each support
 * file of `from` that the new pack ships at the same place in its own support folder moves
 * there (`move-managed`, your edits with it: the upgrade then replaces it, backing an edited
 * copy up, or keeps your edits when the new pack's file is the one you edited). Whatever else
 * the old pack owned is retired by the upgrade. Files in the old support folder that bosun has
 * no record of are never touched: a note names them, and the folder stays with them.
 * Plans nothing where `from` is not installed (or only held for other runtimes).
 */
export function succeedPackActions(ctx: MigrationContext, from: string): MigrationAction[] {
  const to = ctx.pack.name;
  const old = installedHere(ctx.manifest, from);
  if (from === to || !old) return [];
  const entries = ctx.manifest.config.filter((record) => "pack" in record && record.pack === from);
  const hooks = entries.filter((record) => record.kind === "hook").length;
  const what = [`${old.files.length} file${old.files.length === 1 ? "" : "s"}`, hooks > 0 ? `${hooks} hook registration${hooks === 1 ? "" : "s"}` : "", entries.length > hooks ? `${entries.length - hooks} setting${entries.length - hooks === 1 ? "" : "s"}` : ""].filter(Boolean);
  const oldDir = ctx.supportDir(from);
  const newDir = ctx.supportDir(to);
  const yours = oldDir === null ? [] : unrecorded(ctx, oldDir);
  const actions: MigrationAction[] = [
    {
      type: "succeed-pack",
      relPath: from,
      toRelPath: to,
      reason: `pack ${from} ${old.version} is now ${to}: its ${what.join(", ")} pass to ${to}`,
      ownershipEvidence: `pack ${from} ${old.version} is recorded in bosun-manifest.json`,
      ...(yours.length > 0 && oldDir !== null ? { note: yoursNote(oldDir, yours) } : {}),
    },
  ];
  if (oldDir === null || newDir === null || oldDir === newDir) return actions;
  for (const rel of old.files.filter((path) => path.startsWith(`${oldDir}/`)).sort()) {
    const target = `${newDir}/${rel.slice(oldDir.length + 1)}`;
    // Only onto a free place the new pack fills; anything else is the upgrade's to decide.
    if (!ctx.pack.paths.has(target) || !ctx.exists(rel) || ctx.exists(target) || ctx.ownerOf(target) !== undefined) continue;
    actions.push({
      type: "move-managed",
      relPath: rel,
      toRelPath: target,
      reason: `support file of ${from}: moves to ${to}'s folder${ctx.classify(rel) === "managed-modified" ? ", your edits with it" : ""}`,
      ownershipEvidence: `listed for pack ${from} in bosun-manifest.json; ${to} ships the same file at ${target}`,
    });
  }
  return actions;
}

/** The files (and links) under a folder that no pack owns, found without following a symlink. */
function unrecorded(ctx: MigrationContext, dir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const entry of ctx.list(rel)) {
      const path = `${rel}/${entry.name}`;
      if (entry.kind === "dir") walk(path);
      else if (ctx.ownerOf(path) === undefined) found.push(path);
    }
  };
  walk(dir);
  return found;
}

function yoursNote(dir: string, files: readonly string[]): string {
  if (files.length === 1) return `your file stays at ${files[0]} (bosun has no record of it), and so does the folder ${dir}/`;
  const named = files.slice(0, NAMED).map((rel) => rel.slice(dir.length + 1));
  const more = files.length > NAMED ? ` (+${files.length - NAMED} more)` : "";
  return `your ${files.length} files stay in ${dir}/ (bosun has no record of them): ${named.join(", ")}${more}; so does the folder`;
}
