import { AsyncLocalStorage } from "node:async_hooks";

/** Something a batch can rebuild once at its end (a `State`). */
export interface Rebuildable {
  rebuildNow(): Promise<void>;
}

/**
 * Rebuilds that wait for the end of a batch: each `State` at most once per flush, in the order
 * they first asked. A batch can be flushed more than once (a background activation batch flushes
 * whenever a group of plugins has finished); once closed, callers rebuild directly again.
 */
export class Batch {
  private readonly pending = new Set<Rebuildable>();
  private open = true;

  get isOpen(): boolean {
    return this.open;
  }

  defer(target: Rebuildable): void {
    this.pending.add(target);
  }

  /**
   * Runs each pending rebuild once. All are attempted even when one fails, so every State ends
   * up matching its registrations; the failures are thrown together afterwards.
   */
  async flush(): Promise<void> {
    const errors: unknown[] = [];
    while (this.pending.size > 0) {
      const targets = [...this.pending];
      this.pending.clear();
      for (const target of targets) {
        try {
          await target.rebuildNow();
        } catch (error) {
          errors.push(error);
        }
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} rebuilds failed at the end of a batch`);
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.open = false;
    }
  }

  /** Runs `work` with this batch as the current one (for work started outside `batch`). */
  run<T>(work: () => T): T {
    return storage.run(this, work);
  }
}

const storage = new AsyncLocalStorage<Batch>();

/** The batch the calling async context belongs to, if it is still open. */
export function currentBatch(): Batch | undefined {
  const found = storage.getStore();
  return found?.isOpen ? found : undefined;
}

/**
 * Runs `work` so that every State change it makes (registrations, disposals, reloads) is
 * rebuilt once at the end instead of once per change. A batch inside a batch joins the outer
 * one. When `work` fails, the pending rebuilds still run, so each State's value matches the
 * transforms that are registered, and then the failure is thrown.
 */
export async function batch<T>(work: () => T | Promise<T>): Promise<T> {
  if (currentBatch()) return await work();
  const created = new Batch();
  let result: T;
  try {
    result = await created.run(work);
  } catch (error) {
    await created.close().catch(() => undefined);
    throw error;
  }
  await created.close();
  return result;
}
