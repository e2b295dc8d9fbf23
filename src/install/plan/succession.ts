import type { ConfigRecord, Manifest } from "../records/manifest.js";

/**
 * Pack `to` takes the place of pack `from` in a root's manifest (a `succeed-pack` migration):
 * `from`'s files and its config entries (hook registrations, settings edits) become `to`'s, and
 * `from` leaves the manifest. Nothing on disk changes here: the ordinary upgrade then sees one
 * pack and diffs it as usual, so a file the new pack ships at the same path is replaced (your
 * edits backed up first), one it does not ship is retired (removed when unchanged, else backed
 * up), and the old hook registrations and settings give way to the new pack's while they are
 * still what bosun wrote. A no-op when `from` is not in the manifest.
 */
export function succeedPack(manifest: Manifest, from: string, to: string): void {
  const old = manifest.packs[from];
  if (!old || from === to) return;
  const heir = manifest.packs[to];
  const files = [...new Set([...(heir?.files ?? []), ...old.files])];
  // The record is rewritten by the run that installs `to`: its version and digest are `to`'s then.
  manifest.packs[to] = heir ? { ...heir, files } : { version: old.version, installedAt: old.installedAt, updatedAt: old.updatedAt, files };
  delete manifest.packs[from];
  const kept = manifest.config.filter((record) => !("pack" in record) || record.pack !== from);
  const passed = manifest.config.filter((record): record is Extract<ConfigRecord, { pack: string }> => "pack" in record && record.pack === from);
  // An entry `to` has recorded already (the same registration or value) is not recorded twice.
  const fresh = passed.map((record) => ({ ...record, pack: to })).filter((record) => !kept.some((other) => sameEntry(other, record)));
  manifest.config = [...kept, ...fresh];
}

function sameEntry(a: ConfigRecord, b: ConfigRecord): boolean {
  if (a.kind === "hook" && b.kind === "hook") return a.pack === b.pack && a.file === b.file && a.event === b.event && a.command === b.command;
  if (a.kind === "setting" && b.kind === "setting") return a.pack === b.pack && a.file === b.file && a.mode === b.mode && a.path.join("\0") === b.path.join("\0") && JSON.stringify(a.value) === JSON.stringify(b.value);
  return false;
}
