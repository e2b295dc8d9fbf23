import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { parseJsonc } from "../../kernel/jsonc.js";
import { displayPath } from "../../kernel/paths.js";
import { parseManifest, type SettingRecord } from "../records/manifest.js";
import { MANIFEST_FILE, STATE_NAMES, statePath, type InstallRoot } from "../records/root.js";
import type { CarriedFolder } from "./import-text.js";
import { ImportError } from "./import-errors.js";

/**
 * Names in a runtime's folder that are the runtime's own state (sign-in, sessions, history,
 * caches, logs) across Claude Code, Codex, Gemini CLI and OpenCode: never imported, not even
 * with `--files`.
 */
export const RUNTIME_STATE = new Set([
  ".credentials.json", "auth.json", "oauth_creds.json", "google_accounts.json", "installation_id", "user_id",
  "projects", "sessions", "todos", "shell-snapshots", "statsig", "history.jsonl", "history", "file-history",
  "session-env", "ide", "cache", "log", "logs", "tmp", "telemetry", "plugins", "backups", "paste-cache",
  "state", "storage", "snapshot", "models_cache.json", "version.json",
]);

/** What bosun installed in the runtime's folders: files (path from the runtime folder → pack), hook commands, settings. */
export interface BosunOwned {
  files: Map<string, string>;
  hookCommands: Set<string>;
  settings: SettingRecord[];
}

/** A root's path as the report shows it: relative to the runtime folder when inside it (`""` for itself), else with `~`. */
export function relFrom(main: string, dir: string, home: string): string {
  const rel = relative(main, dir);
  return rel === "" ? "" : rel.startsWith("..") || isAbsolute(rel) ? displayPath(dir, home) : rel;
}

/** Everything bosun's manifests in these roots record (a missing or unreadable manifest records nothing). */
export function readBosunOwned(roots: readonly InstallRoot[], home: string): BosunOwned {
  const owned: BosunOwned = { files: new Map(), hookCommands: new Set(), settings: [] };
  const main = roots[0]!.dir;
  for (const root of roots) {
    const path = statePath(root, MANIFEST_FILE);
    if (!existsSync(path)) continue;
    const { manifest } = parseManifest(readFileSync(path, "utf8"));
    const prefix = relFrom(main, root.dir, home);
    for (const [pack, record] of Object.entries(manifest.packs)) for (const file of record.files) owned.files.set(prefix ? `${prefix}/${file}` : file, pack);
    for (const record of manifest.config) {
      if (record.kind === "hook") owned.hookCommands.add(record.command);
      if (record.kind === "setting") owned.settings.push(record);
    }
  }
  return owned;
}

/** A JSON (or JSONC) config of the runtime, or null when it is not there or not an object (the reason goes to `problem`). */
export function readConfig(path: string): { value: unknown; problem: string | null } | null {
  if (!existsSync(path)) return null;
  let value: unknown;
  try {
    value = parseJsonc(path, readFileSync(path, "utf8")).value;
  } catch (error) {
    return { value: null, problem: (error as Error).message };
  }
  return typeof value !== "object" || value === null || Array.isArray(value) ? { value: null, problem: "not a JSON object" } : { value, problem: null };
}

/**
 * The `--files` folders, checked: relative to the runtime folder, inside it (symlinks resolved),
 * a folder, and none of bosun's records, the runtime's state or the artifact folders. The one
 * named like the pack is the pack's support folder itself (`files/`); any other goes to `files/<dir>/`.
 */
export function carriedFolders(main: string, given: readonly string[], packName: string, artifactDirs: ReadonlySet<string>): CarriedFolder[] {
  const carried: CarriedFolder[] = [];
  for (const raw of given) {
    const dir = raw.replace(/\/+$/, "").replace(/^\.\//, "");
    const flag = `--files ${JSON.stringify(raw)}`;
    if (dir === "" || isAbsolute(dir) || dir.split("/").some((part) => part === ".." || part === "." || part === "")) throw new ImportError(`${flag}: name a folder inside ${main} by its path from there (no "..", not absolute)`);
    const path = join(main, dir);
    if (!existsSync(path)) throw new ImportError(`${flag}: there is no ${path}`);
    const real = realpathSync(path);
    const realMain = realpathSync(main);
    if (real !== realMain && !real.startsWith(`${realMain}/`)) throw new ImportError(`${flag}: ${path} leads outside ${main} (a symlink); name a folder inside it`);
    if (!lstatSync(path).isDirectory()) throw new ImportError(`${flag}: ${path} is not a folder`);
    const top = dir.split("/")[0]!;
    if (STATE_NAMES.includes(top)) throw new ImportError(`${flag}: that is bosun's own record of its installs, never imported`);
    if (RUNTIME_STATE.has(top)) throw new ImportError(`${flag}: that is the runtime's own state (sign-in, sessions, caches), never imported`);
    if (artifactDirs.has(top)) throw new ImportError(`${flag}: ${top}/ is imported as the pack's artifacts already; leave it out`);
    if (carried.some((other) => other.dir === dir || dir.startsWith(`${other.dir}/`) || other.dir.startsWith(`${dir}/`))) throw new ImportError(`${flag}: overlaps another --files folder`);
    carried.push({ dir, to: dir === packName ? "" : dir });
  }
  return carried;
}
