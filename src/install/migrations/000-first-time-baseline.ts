import type { MigrationAction, MigrationContext, MigrationRecord } from "../records/migration-record.js";
import { surfaceDirs } from "./surfaces.js";

const ORDER = ["record-baseline", "baseline-preserve-user", "prompt-user"];

/**
 * The first time bosun installs into a root, it classifies what is already in the folders it
 * writes to, before any other migration may remove something: files its manifest lists are
 * recorded; files that look like a stale copy of bosun's or the pack's (named `bosun-*`, or like
 * one of the pack's artifacts) but that bosun has no record of need your choice; everything else
 * is yours and is recorded as such without even being read.
 *
 * Retires nothing and changes nothing on disk. Ownership: the manifest, or your answer. A
 * modified managed file is only recorded. Safe without a terminal: the prompts block the install
 * until you answer (or pass --resolve).
 */
export const firstTimeBaseline: MigrationRecord = {
  id: "2026-11-30-first-time-baseline-scan",
  title: "First-time baseline scan",
  description: "Record what is already in the folders bosun installs into, before anything else changes them.",
  introducedIn: "0.1.0",
  scopes: ["global", "local"],
  destructive: false,
  source: "engine",
  data: {
    surfaces: ["skills", "commands", "agents", "hooks"],
    managed: "listed in bosun-manifest.json: record-baseline",
    staleLooking: "named bosun-* or like one of the pack's artifacts, not listed: prompt-user (keep, remove)",
    other: "baseline-preserve-user (user-owned, never hashed)",
    skipped: "paths the pack itself installs (the install decides those)",
    order: ORDER,
  },
  plan(ctx: MigrationContext): MigrationAction[] {
    const actions: MigrationAction[] = [];
    const seen = new Set<string>();
    for (const surface of surfaceDirs(ctx.layout, ctx.rootKey, ctx.pack.name)) {
      for (const rel of walk(ctx, surface.dir)) {
        if (seen.has(rel) || ctx.pack.paths.has(rel)) continue;
        seen.add(rel);
        const inside = rel.slice(surface.dir.length + 1);
        if (ctx.ownerOf(rel)) actions.push({ type: "record-baseline", relPath: rel, reason: "first-time baseline scan: listed in bosun's manifest", classification: ctx.classify(rel) });
        else if (looksStale(inside, ctx.pack.artifacts)) {
          actions.push({
            type: "prompt-user",
            relPath: rel,
            reason: `looks like a stale copy of a ${ctx.pack.name} file, but bosun has no record of it`,
            prompt: `${rel} looks like an old copy of a ${ctx.pack.name} file that bosun did not record. Keep it, or back it up and remove it?`,
            choices: ["keep", "remove"],
          });
        } else actions.push({ type: "baseline-preserve-user", relPath: rel, reason: "first-time baseline scan: your file", classification: "user-owned" });
      }
    }
    return actions.sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type) || (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  },
};

/** Every file under a folder; a symlink (to a file or a folder) is a leaf and is never entered. */
function walk(ctx: MigrationContext, dir: string): string[] {
  const out: string[] = [];
  const visit = (relDir: string) => {
    for (const entry of ctx.list(relDir)) {
      const rel = `${relDir}/${entry.name}`;
      if (entry.kind === "dir") visit(rel);
      else out.push(rel);
    }
  };
  visit(dir);
  return out;
}

function looksStale(inside: string, artifacts: ReadonlySet<string>): boolean {
  const first = inside.split("/")[0] ?? "";
  const base = first.replace(/(\.agent)?\.(md|toml|json)$/, "");
  return first.startsWith("bosun-") || first.startsWith("bosun_") || artifacts.has(base);
}
