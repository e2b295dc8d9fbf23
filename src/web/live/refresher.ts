import { watch, type FSWatcher } from "node:fs";

/** One live element: its id, and how to render its current HTML. */
export interface LiveElement {
  target: string;
  render(): Promise<string>;
}

/**
 * Keeps the live elements current while a page is open: renders each again when a watched folder
 * changes (the sessions folder: at once, debounced) and every `intervalMs` (what has no folder to
 * watch, such as agents' sign-in), and gives each result to `publish`, which sends only what
 * changed. One pass at a time; a failed render is skipped (the page keeps what it had).
 */
export class Refresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly watchers: FSWatcher[] = [];
  private debounce: NodeJS.Timeout | null = null;

  constructor(
    private readonly elements: readonly LiveElement[],
    private readonly publish: (target: string, html: string) => void,
    private readonly options: { intervalMs: number; watched: readonly string[]; active: () => boolean },
  ) {}

  start(): void {
    for (const dir of this.options.watched) {
      try {
        const watcher = watch(dir, { persistent: false }, () => this.soon());
        watcher.on("error", () => undefined);
        this.watchers.push(watcher);
      } catch {
        // a folder that is not there yet: the interval covers it
      }
    }
    this.timer = setInterval(() => {
      if (this.options.active()) void this.now();
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** Renders every element now (a pass already running is followed by one more). */
  now(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.now();
      }
    });
    return this.running;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
    for (const watcher of this.watchers) watcher.close();
  }

  private soon(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.now(), 100);
    this.debounce.unref();
  }

  private async pass(): Promise<void> {
    const rendered = await Promise.allSettled(this.elements.map(async (element) => [element.target, await element.render()] as const));
    for (const result of rendered) if (result.status === "fulfilled") this.publish(result.value[0], result.value[1]);
  }
}
