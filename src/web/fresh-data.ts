/**
 * The sources' answers, kept for `maxAgeMs`: a page or an API request within that time of the last
 * look gets the same answer (its JSON text made once), and only one look at a time runs for each
 * (requests that come during it share it). The live refresher looks again every second while a
 * page is open, so nothing shown is older than that, and every change is pushed.
 */
export class FreshData {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown>; json: Promise<string> | null }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer of `look`, at most `maxAgeMs` old (`fresh`: look again now). */
  get<T>(name: string, look: () => Promise<T>, fresh = false): Promise<T> {
    const entry = this.entries.get(name);
    if (entry && !fresh && this.now() - entry.at < this.maxAgeMs) return entry.value as Promise<T>;
    const value = look();
    const next = { at: this.now(), value: value as Promise<unknown>, json: null };
    this.entries.set(name, next);
    // A look that fails is not kept: the next request looks again.
    value.catch(() => {
      if (this.entries.get(name) === next) this.entries.delete(name);
    });
    return value;
  }

  /** Forgets answers a change made stale (a sign-in, a disconnect, an install): the next request looks again. */
  drop(...names: string[]): void {
    for (const name of names) this.entries.delete(name);
  }

  /** The same as JSON text, made once per answer. */
  json(name: string, look: () => Promise<unknown>): Promise<string> {
    const value = this.get(name, look);
    const entry = this.entries.get(name);
    if (!entry) return value.then((answer) => JSON.stringify(answer));
    entry.json ??= value.then((answer) => JSON.stringify(answer));
    return entry.json;
  }
}
