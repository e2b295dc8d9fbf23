import { resolve } from "node:path";

/** Time for idle eviction; tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** How long a location nobody uses stays open. */
export const LOCATION_IDLE_MS = 60 * 60 * 1000;

export interface Closable {
  close(): Promise<void>;
}

/** A location in use; `release` when done (idempotent). */
export interface LocationLease<T> {
  services: T;
  release(): void;
}

interface Entry<T> {
  key: string;
  building: Promise<T>;
  users: number;
  timer: unknown;
  invalidated: boolean;
}

/**
 * Services per working directory (a long-running process serves several): built on first use,
 * shared by everyone using the same directory, closed 60 idle minutes after the last user left.
 * Keys are resolved absolute paths (plus an optional workspace id), so `./app` and `/work/app`
 * are one location. A build that fails is not remembered: the next use tries again.
 */
export class LocationMap<T extends Closable> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly build: (directory: string) => Promise<T>,
    private readonly options: { idleMs?: number; clock?: Clock } = {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(directory: string, workspace?: string): boolean {
    return this.entries.has(locationKey(directory, workspace));
  }

  async acquire(directory: string, workspace?: string): Promise<LocationLease<T>> {
    const key = locationKey(directory, workspace);
    let entry = this.entries.get(key);
    if (!entry) {
      const created: Entry<T> = { key, building: this.build(resolve(directory)), users: 0, timer: undefined, invalidated: false };
      created.building.catch(() => {
        if (this.entries.get(key) === created) this.entries.delete(key);
      });
      this.entries.set(key, created);
      entry = created;
    }
    entry.users++;
    this.cancelEviction(entry);
    let services: T;
    try {
      services = await entry.building;
    } catch (error) {
      entry.users--;
      throw error;
    }
    let released = false;
    const owner = entry;
    return {
      services,
      release: () => {
        if (released) return;
        released = true;
        owner.users--;
        if (owner.users > 0) return;
        if (owner.invalidated) void this.closeEntry(owner);
        else if (this.entries.get(owner.key) === owner) this.scheduleEviction(owner);
      },
    };
  }

  /** Runs `work` with the location, releasing it afterwards. */
  async use<R>(directory: string, work: (services: T) => Promise<R> | R, workspace?: string): Promise<R> {
    const lease = await this.acquire(directory, workspace);
    try {
      return await work(lease.services);
    } finally {
      lease.release();
    }
  }

  /** Forgets a location for later users; current users keep it, and it closes when they are done. */
  invalidate(directory: string, workspace?: string): void {
    const entry = this.entries.get(locationKey(directory, workspace));
    if (!entry) return;
    this.entries.delete(entry.key);
    entry.invalidated = true;
    this.cancelEviction(entry);
    if (entry.users === 0) void this.closeEntry(entry);
  }

  /** Closes every location now (process shutdown). */
  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => (this.cancelEviction(entry), this.closeEntry(entry))));
  }

  private scheduleEviction(entry: Entry<T>): void {
    const clock = this.options.clock ?? systemClock;
    entry.timer = clock.setTimeout(() => {
      entry.timer = undefined;
      if (entry.users > 0 || this.entries.get(entry.key) !== entry) return;
      this.entries.delete(entry.key);
      void this.closeEntry(entry);
    }, this.options.idleMs ?? LOCATION_IDLE_MS);
  }

  private cancelEviction(entry: Entry<T>): void {
    if (entry.timer === undefined) return;
    (this.options.clock ?? systemClock).clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  private async closeEntry(entry: Entry<T>): Promise<void> {
    try {
      await (await entry.building).close();
    } catch {
      // a location that failed to build has nothing to close
    }
  }
}

/** One key per location: the resolved directory, and the workspace when there is one. */
export function locationKey(directory: string, workspace?: string): string {
  return workspace ? `${resolve(directory)}\u0000${workspace}` : resolve(directory);
}
