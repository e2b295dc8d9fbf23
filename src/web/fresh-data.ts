interface Entry {
  at: number;
  value: Promise<unknown>;
  json: Promise<string> | null;
}

/**
 * The sources' answers, shared by the pages, the API and the live refresher. A request gets the
 * last answer; one older than `maxAgeMs` is looked at again in the background (one look at a time
 * for each), so no request waits for a look but the first, and nothing shown is much older than
 * `maxAgeMs`. A change the server made itself (a sign-in, a disconnect, an install, a new session)
 * drops the answers it touched: the next request waits for a new look.
 */
export class FreshData {
  private readonly entries = new Map<string, Entry>();
  private readonly looking = new Set<string>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer of `look` (`fresh`: look again now, and wait for it). */
  get<T>(name: string, look: () => Promise<T>, fresh = false): Promise<T> {
    const entry = this.entries.get(name);
    if (!entry || fresh) return this.look(name, look).value as Promise<T>;
    if (this.now() - entry.at >= this.maxAgeMs && !this.looking.has(name)) {
      // The new answer takes the old one's place once it is there (the old one stays if it fails).
      this.looking.add(name);
      const next = look();
      next.then(
        () => this.entries.set(name, { at: this.now(), value: next as Promise<unknown>, json: null }),
        () => undefined,
      ).finally(() => this.looking.delete(name));
    }
    return entry.value as Promise<T>;
  }

  /** The same as JSON text, made once per answer. */
  json(name: string, look: () => Promise<unknown>): Promise<string> {
    const value = this.get(name, look);
    const entry = this.entries.get(name);
    if (!entry || entry.value !== value) return value.then((answer) => JSON.stringify(answer));
    entry.json ??= value.then((answer) => JSON.stringify(answer));
    return entry.json;
  }

  /** Forgets answers a change made stale: the next request looks again, and waits for it. */
  drop(...names: string[]): void {
    for (const name of names) this.entries.delete(name);
  }

  private look(name: string, look: () => Promise<unknown>): Entry {
    const entry: Entry = { at: this.now(), value: look(), json: null };
    this.entries.set(name, entry);
    // A look that fails is not kept: the next request looks again.
    entry.value.catch(() => {
      if (this.entries.get(name) === entry) this.entries.delete(name);
    });
    return entry;
  }
}
