import { readdirSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { Log } from "../kernel/log.js";
import type { Env } from "../kernel/paths.js";
import { describeError } from "../kernel/errors.js";
import { writeFileAtomically } from "../kernel/fs/atomic-write.js";
import { acquireLock } from "../kernel/fs/file-lock.js";
import { asFolderError, FolderError } from "../kernel/fs/folder-error.js";
import { ensurePrivateDirs } from "../kernel/fs/private-dir.js";
import { readRegularFile, UnusableFileError } from "../kernel/fs/regular-file.js";
import { isMissingPathError } from "../kernel/fs/stat.js";
import { readEmbeddedProviders } from "./embedded-providers.js";
import { parseModelsDevData, type ModelsDevData } from "./models-dev-data.js";
import { modelsCacheFile, modelsSourceUrl } from "./catalog-files.js";

/** A cache younger than this is fresh: nothing is fetched. */
export const MODELS_FRESH_MS = 5 * 60 * 1000;
/** How often a long-running process refreshes. */
export const MODELS_REFRESH_EVERY_MS = 60 * 60 * 1000;
/** A cache file larger than this is not a models.dev list (today's is a few MiB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const LOCKS_FOLDER = "locks";

export type ModelsSource = "cache" | "embedded" | "network";

/** The models.dev data in use and where it came from. */
export interface ModelsSnapshot {
  data: ModelsDevData;
  source: ModelsSource;
  /** When the cache (or the download) was written, epoch ms; absent for the embedded list. */
  fetchedAt?: number;
  /** Why a better source was not used (e.g. a corrupt cache). */
  problem?: string;
}

export type RefreshOutcome =
  | { status: "fetched"; bytes: number }
  /** The cache is fresh, or another process refreshed it while this one waited for the lock. */
  | { status: "fresh" }
  | { status: "disabled" }
  | { status: "failed"; error: string };

export interface ModelsDevClientOptions {
  env: Env;
  /** bosun's cache folder; the data goes in `models-dev/` under it. */
  cacheDir: string;
  /** bosun's state folder; the cross-process lock goes in `locks/` under it. */
  stateDir: string;
  /** bosun's package folder (for the embedded list). */
  packageRoot: string;
  userAgent: string;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  log?: Log;
  timeoutMs?: number;
  retries?: number;
  lockTimeoutMs?: number;
  /** Timers for the hourly refresh (injectable for tests). */
  timers?: { setTimeout(run: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

/**
 * models.dev's provider/model list: `GET <source>/api.json`, cached on disk. Reading never
 * touches the network: the cache, else the list bosun ships. `refresh` downloads under a
 * cross-process lock (so parallel bosun processes fetch once), writes atomically, and never
 * replaces a good cache with a failure.
 */
export class ModelsDevClient {
  readonly sourceUrl: string;
  readonly cacheFile: string;
  private readonly lockFile: string;
  private snapshot: ModelsSnapshot | undefined;
  /** The write time of a cache file found unusable: it does not count as fresh. */
  private unusableCacheAt: number | undefined;
  private readonly listeners = new Set<() => void>();
  private refreshing: Promise<RefreshOutcome> | undefined;

  constructor(private readonly options: ModelsDevClientOptions) {
    this.sourceUrl = modelsSourceUrl(options.env);
    this.cacheFile = modelsCacheFile(options.cacheDir, this.sourceUrl);
    this.lockFile = join(options.stateDir, LOCKS_FOLDER, `models-dev-${basename(this.cacheFile)}.lock`);
  }

  /** `BOSUN_DISABLE_MODELS_FETCH` (any value but empty, 0 or false) turns downloads off. */
  get fetchDisabled(): boolean {
    const flag = this.options.env.BOSUN_DISABLE_MODELS_FETCH?.trim().toLowerCase();
    return Boolean(flag) && flag !== "0" && flag !== "false";
  }

  /** The data to use now: the last download, the cache, or the embedded list. Never fetches. */
  current(): ModelsSnapshot {
    this.snapshot ??= this.load();
    return this.snapshot;
  }

  /** Forgets the loaded data, so the next read looks at the disk again. */
  invalidate(): void {
    this.snapshot = undefined;
  }

  /** Age of the cache in ms, or undefined when there is none. */
  cacheAge(): number | undefined {
    const written = this.cacheWrittenAt();
    return written === undefined ? undefined : Math.max(0, this.now() - written);
  }

  /** Whether the cache is under 5 minutes old and usable (a corrupt cache is stale, whatever its age). */
  isFresh(): boolean {
    this.current();
    const written = this.cacheWrittenAt();
    return written !== undefined && written !== this.unusableCacheAt && this.now() - written < MODELS_FRESH_MS;
  }

  /** Called after each successful download. */
  onRefreshed(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Downloads the list unless the cache is fresh (`force` downloads anyway, unless another
   * process finished a download after this call began). Failures are returned, not thrown:
   * the cache and the data in use stay as they were. Only a folder or file of bosun's that cannot
   * be used (FolderError, UnusableFileError) is thrown: that is for the user to fix.
   */
  refresh(options: { force?: boolean } = {}): Promise<RefreshOutcome> {
    this.refreshing ??= this.refreshOnce(options.force ?? false).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Refreshes now and then every hour until the returned function is called (long-running processes). */
  startAutoRefresh(): () => void {
    if (this.fetchDisabled) return () => undefined;
    const timers = this.options.timers ?? { setTimeout: (run, ms) => setTimeout(run, ms).unref(), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };
    let handle: unknown;
    let stopped = false;
    const cycle = () => {
      void this.refresh()
        .catch((error: unknown) => {
          try {
            this.failed(error);
          } catch {
            // The log's folder is unusable too: the next cycle tries again.
          }
        })
        .finally(() => {
          if (!stopped) handle = timers.setTimeout(cycle, MODELS_REFRESH_EVERY_MS);
        });
    };
    cycle();
    return () => {
      stopped = true;
      if (handle !== undefined) timers.clearTimeout(handle);
    };
  }

  private async refreshOnce(force: boolean): Promise<RefreshOutcome> {
    if (this.fetchDisabled) return { status: "disabled" };
    const seen = this.cacheWrittenAt();
    if (!force && this.isFresh()) {
      this.adoptNewerCache();
      return { status: "fresh" };
    }
    let lock;
    try {
      ensurePrivateDirs(this.options.cacheDir, relative(this.options.cacheDir, dirname(this.cacheFile)));
      ensurePrivateDirs(this.options.stateDir, LOCKS_FOLDER);
      lock = await acquireLock(this.lockFile, { timeoutMs: this.options.lockTimeoutMs ?? 60_000 });
    } catch (error) {
      // A folder or lock file of bosun's that cannot be used is for the user to fix, not a failed download.
      const local = asFolderError(error, dirname(this.lockFile));
      if (isOwnFileProblem(local)) throw local;
      return this.failed(error);
    }
    try {
      // Another process may have finished a download while this one waited for the lock: the
      // cache is then fresh, or (when forced) newer than the one this call set out to replace.
      const written = this.cacheWrittenAt();
      if (written !== undefined && (force ? written !== seen : this.isFresh())) {
        this.adoptNewerCache();
        return { status: "fresh" };
      }
      this.removeLeftoverTempFiles();
      const url = `${this.sourceUrl}/api.json`;
      const { fetchText } = await import("./fetch-text.js");
      const text = await fetchText(url, {
        headers: { "User-Agent": this.options.userAgent, Accept: "application/json" },
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
        ...(this.options.retries === undefined ? {} : { retries: this.options.retries }),
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      const { data } = parseModelsDevData(text, url);
      await writeFileAtomically(this.cacheFile, text, { mode: 0o644, fsync: true });
      this.snapshot = { data, source: "network", fetchedAt: this.cacheWrittenAt() ?? this.now() };
      this.options.log?.info("models.dev list downloaded", { url, bytes: text.length });
      this.notify();
      return { status: "fetched", bytes: text.length };
    } catch (error) {
      if (isOwnFileProblem(error)) throw error;
      return this.failed(error);
    } finally {
      try {
        lock.release();
      } catch (error) {
        this.options.log?.warn("models.dev lock release failed", { error: describeError(error) });
      }
    }
  }

  /**
   * Another process downloaded a newer list than the one in use (a long-running process sees
   * this at its next refresh): use it, and tell the listeners as after a download.
   */
  private adoptNewerCache(): void {
    const written = this.cacheWrittenAt();
    if (!this.snapshot || written === undefined || this.snapshot.fetchedAt === written) return;
    this.invalidate();
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        this.options.log?.warn("a models.dev listener failed", { error: describeError(error) });
      }
    }
  }

  private failed(error: unknown): RefreshOutcome {
    const message = describeError(error);
    this.options.log?.warn("models.dev refresh failed", { error: message });
    return { status: "failed", error: message };
  }

  private load(): ModelsSnapshot {
    let problem: string | undefined;
    try {
      const written = statSync(this.cacheFile).mtimeMs;
      const { data } = parseModelsDevData(readRegularFile(this.cacheFile, MAX_CACHE_BYTES).toString("utf8"), this.cacheFile);
      return { data, source: "cache", fetchedAt: written };
    } catch (error) {
      if (!isMissingPathError(error)) {
        problem = `the cached list is unusable and will be replaced by the next download (${describeError(error)})`;
        this.unusableCacheAt = this.cacheWrittenAt();
      }
    }
    const embedded: ModelsSnapshot = { data: readEmbeddedProviders(this.options.packageRoot), source: "embedded" };
    if (problem) embedded.problem = problem;
    return embedded;
  }

  private cacheWrittenAt(): number | undefined {
    try {
      return statSync(this.cacheFile).mtimeMs;
    } catch {
      return undefined;
    }
  }

  // An atomic write killed half-way leaves its temp file (`api.json.<hash>`) next to the cache.
  // Under the lock no other writer is running, so any such file is garbage.
  private removeLeftoverTempFiles(): void {
    const prefix = `${basename(this.cacheFile)}.`;
    let names: string[];
    try {
      names = readdirSync(dirname(this.cacheFile));
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.startsWith(prefix)) continue;
      try {
        unlinkSync(join(dirname(this.cacheFile), name));
      } catch {
        // best effort: a leftover that cannot be removed does no harm
      }
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

function isOwnFileProblem(error: unknown): boolean {
  return error instanceof FolderError || error instanceof UnusableFileError;
}
