import { AgentAbortedError } from "../model/errors.js";

/** One sub-agent's place among the agents its tree lets run at once. */
export interface TreeSlot {
  readonly held: boolean;
  /** Gives the place up; a second call does nothing. */
  release(): void;
  /** Takes a place again, ahead of sub-agents that have not started yet; rejects on abort. */
  reacquire(signal: AbortSignal): Promise<void>;
}

interface Waiter {
  grant(): void;
}

/**
 * The tree-wide cap on running sub-agents: a semaphore shared by every level of one agent tree,
 * so that nested fan-outs (16 tasks, each fanning out again) never run more than `capacity`
 * agents at once. Waiting is queued, in order, and abortable.
 *
 * An agent that waits for its own sub-agents gives its place up while it waits and takes one
 * back afterwards, ahead of the queue: if waiting parents kept their places, a nested fan-out
 * could fill every place with parents waiting for children that can never start.
 */
export class TreeSlots {
  private running = 0;
  private highest = 0;
  /** Agents taking a place back after their sub-agents (first), and agents about to start. */
  private readonly resuming: Waiter[] = [];
  private readonly starting: Waiter[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`tree concurrency must be a whole number of at least 1, not ${capacity}`);
  }

  /** Agents running now. */
  get active(): number {
    return this.running;
  }

  /** The most agents that ran at once. */
  get peak(): number {
    return this.highest;
  }

  /** Waits for a place for a sub-agent that is about to start. */
  async acquire(signal: AbortSignal): Promise<TreeSlot> {
    await this.take(this.starting, signal);
    let held = true;
    return {
      get held() {
        return held;
      },
      release: () => {
        if (!held) return;
        held = false;
        this.give();
      },
      reacquire: async (abort) => {
        if (held) return;
        await this.take(this.resuming, abort);
        held = true;
      },
    };
  }

  private take(queue: Waiter[], signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new AgentAbortedError());
    const ahead = queue === this.resuming ? this.resuming.length : this.resuming.length + this.starting.length;
    if (this.running < this.capacity && ahead === 0) {
      this.enter();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          this.enter();
          resolve();
        },
      };
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(new AgentAbortedError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      queue.push(waiter);
    });
  }

  private enter(): void {
    this.running++;
    this.highest = Math.max(this.highest, this.running);
  }

  private give(): void {
    this.running--;
    while (this.running < this.capacity) {
      const next = this.resuming.shift() ?? this.starting.shift();
      if (!next) return;
      next.grant();
    }
  }
}
