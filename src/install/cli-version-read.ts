import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Env } from "../kernel/paths.js";
import { parseVersion, type CliVersionReading } from "../runtimes/kit/cli-version.js";
import { locateBinary } from "../runtimes/kit/detect/binary.js";
import { nodeFileReader } from "../runtimes/kit/detect/node-file-reader.js";

/** How long a CLI's `--version` may take; past that bosun goes on without it. */
export const VERSION_TIMEOUT_MS = 300;
/** bosun's cache of what it read, in its cache folder. */
export const CLI_VERSION_CACHE = "cli-versions.json";

const CACHE_FORMAT = 1;
const MAX_CACHE_BYTES = 256 * 1024;
const MAX_CACHE_ENTRIES = 64;
const MAX_PACKAGE_JSON_BYTES = 256 * 1024;
const MAX_OUTPUT = 4096;
/** How far above the binary its npm package's package.json may be (`bin/x.js`, `dist/bin/x.js`…). */
const PACKAGE_LEVELS = 4;

export interface CliVersionOptions {
  /** The environment the CLI would run with (PATH finds it; `--version` gets it). */
  env: Env;
  cwd: string;
  /** bosun's cache folder; null: nothing is cached. */
  cacheDir: string | null;
  timeoutMs?: number;
}

/** One CLI to read: `binary` is a name looked up on PATH, or a path (`bosun.json` `agents.<id>.binary`). */
export interface CliVersionRequest {
  id: string;
  binary: string;
}

type Found = Exclude<CliVersionReading, { kind: "absent" }>;

interface CacheEntry {
  /** `realpath:size:mtimeMs` of the binary, and of the package.json it was read from. */
  key: string;
  packageFile?: string;
  packageKey?: string;
  reading: Found;
}

/**
 * The installed version of each CLI, read the cheap way: from the package.json of the npm
 * package the binary belongs to (true even where `--version` is slow, as Gemini's, or prints a
 * hard-coded number, as the npm grok's), else from `<binary> --version`, which may take at most
 * the timeout (its whole process group is killed then). Each answer is kept in bosun's cache,
 * keyed by the binary's real path, size and modification time, so an unchanged CLI is not asked
 * again; a timeout is not kept (the next run tries again). Never throws.
 */
export async function readCliVersions(requests: readonly CliVersionRequest[], options: CliVersionOptions): Promise<Map<string, CliVersionReading>> {
  const cache = readCache(options.cacheDir);
  let changed = false;
  const readings = await Promise.all(
    requests.map(async (request): Promise<[string, CliVersionReading]> => {
      const path = locate(request.binary, options);
      if (!path) return [request.id, { kind: "absent" }];
      const key = statKey(path);
      if (!key) return [request.id, { kind: "absent" }];
      const cached = cache.get(path);
      if (cached && cached.key === key && (cached.packageFile === undefined || cached.packageKey === statKey(cached.packageFile))) return [request.id, cached.reading];
      const fromPackage = versionFromPackage(path);
      if (fromPackage) {
        cache.set(path, { key, packageFile: fromPackage.file, packageKey: statKey(fromPackage.file) ?? "", reading: { kind: "read", path, version: fromPackage.version, from: "package.json" } });
        changed = true;
        return [request.id, { kind: "read", path, version: fromPackage.version, from: "package.json" }];
      }
      const asked = await askVersion(path, options);
      if (!asked.timedOut) {
        cache.set(path, { key, reading: asked.reading });
        changed = true;
      }
      return [request.id, asked.reading];
    }),
  );
  if (changed && options.cacheDir) writeCache(options.cacheDir, cache);
  return new Map(readings);
}

function locate(binary: string, options: CliVersionOptions): string | undefined {
  try {
    return locateBinary(binary, { env: options.env, cwd: options.cwd, files: nodeFileReader });
  } catch {
    return undefined;
  }
}

function statKey(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    const real = nodeFs.realpathSync(path);
    const info = nodeFs.statSync(real);
    return info.isFile() ? `${real}:${info.size}:${info.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The version in the package.json of the npm package whose `bin` is this binary: the nearest
 * package.json above the binary's real path (below any node_modules folder) that names it.
 */
function versionFromPackage(path: string): { version: string; file: string } | undefined {
  let real: string;
  try {
    real = nodeFs.realpathSync(path);
  } catch {
    return undefined;
  }
  let dir = dirname(real);
  for (let level = 0; level < PACKAGE_LEVELS && basename(dir) !== "node_modules" && dirname(dir) !== dir; level++, dir = dirname(dir)) {
    const file = join(dir, "package.json");
    const manifest = readSmallJson(file, MAX_PACKAGE_JSON_BYTES);
    if (!manifest) continue;
    const bins = typeof manifest.bin === "string" ? [manifest.bin] : isRecord(manifest.bin) ? Object.values(manifest.bin).filter((value): value is string => typeof value === "string") : [];
    const declared = typeof manifest.version === "string" ? manifest.version.trim() : "";
    const version = parseVersion(declared);
    if (version && version === declared && bins.some((bin) => samePath(join(dir, bin), real))) return { version, file };
  }
  return undefined;
}

function samePath(candidate: string, real: string): boolean {
  try {
    return nodeFs.realpathSync(candidate) === real;
  } catch {
    return false;
  }
}

/** `<binary> --version`, with no stdin, at most the timeout; its process group is killed then. */
async function askVersion(path: string, options: CliVersionOptions): Promise<{ reading: Found; timedOut: boolean }> {
  const { spawn } = await import("node:child_process");
  const timeoutMs = options.timeoutMs ?? VERSION_TIMEOUT_MS;
  const command = `${basename(path)} --version`;
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (reading: Found, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ reading, timedOut });
    };
    const unknown = (problem: string): Found => ({ kind: "unknown", path, problem });
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(path, ["--version"], { env: options.env as NodeJS.ProcessEnv, cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    } catch (error) {
      return resolve({ reading: unknown(`\`${command}\` did not start: ${(error as NodeJS.ErrnoException).code ?? "error"}`), timedOut: false });
    }
    const timer = setTimeout(() => {
      kill(child.pid);
      finish(unknown(`\`${command}\` did not answer within ${timeoutMs} ms`), true);
    }, timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => (stdout = (stdout + chunk.toString("utf8")).slice(0, MAX_OUTPUT)));
    child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(0, MAX_OUTPUT)));
    child.once("error", (error: NodeJS.ErrnoException) => finish(unknown(`\`${command}\` did not start: ${error.code ?? "error"}`), false));
    child.once("close", (code) => {
      const version = parseVersion(stdout) ?? parseVersion(stderr);
      if (code !== 0) return finish(unknown(`\`${command}\` exited with ${code ?? "a signal"}`), false);
      finish(version ? { kind: "read", path, version, from: "--version" } : unknown(`\`${command}\` printed no version number`), false);
    });
  });
}

function kill(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function readCache(cacheDir: string | null): Map<string, CacheEntry> {
  const entries = new Map<string, CacheEntry>();
  if (!cacheDir) return entries;
  const cache = readSmallJson(join(cacheDir, CLI_VERSION_CACHE), MAX_CACHE_BYTES);
  if (!cache || cache.format !== CACHE_FORMAT || !isRecord(cache.entries)) return entries;
  for (const [path, entry] of Object.entries(cache.entries)) if (isCacheEntry(entry, path)) entries.set(path, entry);
  return entries;
}

function isCacheEntry(value: unknown, path: string): value is CacheEntry {
  if (!isRecord(value) || typeof value.key !== "string" || !isRecord(value.reading)) return false;
  if ((value.packageFile === undefined) !== (value.packageKey === undefined) || (value.packageFile !== undefined && (typeof value.packageFile !== "string" || typeof value.packageKey !== "string"))) return false;
  const reading = value.reading;
  if (reading.path !== path) return false;
  if (reading.kind === "read") return typeof reading.version === "string" && parseVersion(reading.version) === reading.version && (reading.from === "package.json" || reading.from === "--version");
  return reading.kind === "unknown" && typeof reading.problem === "string";
}

/** The cache, written whole (temp file + rename) and kept small; a failure to write only costs a re-read. */
function writeCache(cacheDir: string, entries: Map<string, CacheEntry>): void {
  const kept = [...entries].slice(-MAX_CACHE_ENTRIES);
  const file = join(cacheDir, CLI_VERSION_CACHE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    nodeFs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    nodeFs.writeFileSync(temp, JSON.stringify({ format: CACHE_FORMAT, entries: Object.fromEntries(kept) }, null, 2) + "\n", { mode: 0o600 });
    nodeFs.renameSync(temp, file);
  } catch {
    try {
      nodeFs.unlinkSync(temp);
    } catch {
      // nothing was written
    }
  }
}

/** A small regular file parsed as a JSON object; undefined for anything else (never blocks on a FIFO). */
function readSmallJson(file: string, maxBytes: number): Record<string, unknown> | undefined {
  try {
    const info = nodeFs.lstatSync(file);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const value: unknown = JSON.parse(nodeFs.readFileSync(file, "utf8"));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
