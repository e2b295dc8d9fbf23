import { mkdirSync, watch, type FSWatcher } from "node:fs";

/** One live element: its id, how to render its current HTML, and the folder whose changes it shows (if any: `changed` is told at once). */
export interface LiveElement {
  target: string;
  render(): Promise<string>;
  watch?: string;
  changed?(): void;
  /** Looked at only every this many passes of the interval (what changes seldom and costs much to look at); every pass when absent. */
  every?: number;
  /** Looked at again (after `changed`) as soon as one of these elements changed, when this one was not just looked at with it. */
  follows?: readonly string[];
}

/**
 * Keeps the live elements current while a page is open: renders an element again when the folder
 * it watches changes (the sessions folder: within a few milliseconds, only that element), or when
 * told (`element`), and every element every `intervalMs` (what has no folder to watch, such as
 * agents' sign-in; an element with `every` only every that many intervals), and gives each result
 * to `publish`, which sends only what changed. One full pass at a time; a failed
 * render is skipped (the page keeps what it had).
 */
export class Refresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly watchers: FSWatcher[] = [];
  private readonly debounces = new Map<LiveElement, NodeJS.Timeout>();
  private passes = 0;

  constructor(
    private readonly elements: readonly LiveElement[],
    /** Sends an element's HTML to the pages; true when it changed. */
    private readonly publish: (target: string, html: string) => boolean,
    private readonly options: { intervalMs: number; active: () => boolean },
  ) {}

  start(): void {
    for (const element of this.elements) {
      if (!element.watch) continue;
      try {
        mkdirSync(element.watch, { recursive: true, mode: 0o700 });
        const watcher = watch(element.watch, { persistent: false }, () => this.soon(element));
        watcher.on("error", () => undefined);
        this.watchers.push(watcher);
      } catch {
        // a folder that cannot be made or watched: the interval covers it
      }
    }
    this.timer = setInterval(() => {
      if (this.options.active()) void this.tick();
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
    for (const timer of this.debounces.values()) clearTimeout(timer);
    for (const watcher of this.watchers) watcher.close();
  }

  /** The element's folder changed: rendered again once the writes settle (a file is often written in a few steps). */
  private soon(element: LiveElement): void {
    element.changed?.();
    clearTimeout(this.debounces.get(element));
    const timer = setTimeout(() => {
      this.debounces.delete(element);
      void element.render().then(
        (html) => {
          if (this.publish(element.target, html)) void this.follow([element], new Set([element.target]));
        },
        () => undefined,
      );
    }, 20);
    timer.unref();
    this.debounces.set(element, timer);
  }

  /** One pass of the interval: the elements due this time. */
  private tick(): Promise<void> {
    if (this.running) return this.running;
    const pass = ++this.passes;
    this.running = this.pass(this.elements.filter((element) => pass % (element.every ?? 1) === 0)).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(elements: readonly LiveElement[] = this.elements): Promise<void> {
    const rendered = await Promise.allSettled(elements.map(async (element) => [element.target, await element.render()] as const));
    const changed = new Set<string>();
    for (const result of rendered) if (result.status === "fulfilled" && this.publish(result.value[0], result.value[1])) changed.add(result.value[0]);
    await this.follow(elements, changed);
  }

  /** The elements that follow one of `changed` and were not among `looked` (just rendered): rendered now. */
  private async follow(looked: readonly LiveElement[], changed: ReadonlySet<string>): Promise<void> {
    if (changed.size === 0) return;
    const due = this.elements.filter((element) => !looked.includes(element) && element.follows?.some((target) => changed.has(target)));
    await Promise.allSettled(
      due.map(async (element) => {
        element.changed?.();
        this.publish(element.target, await element.render());
      }),
    );
  }
}
