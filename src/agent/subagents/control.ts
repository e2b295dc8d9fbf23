import { setMaxListeners } from "node:events";
import { CapReachedError } from "./limits.js";

/** Why a sub-agent was stopped from outside its tree: who asked (the dashboard, …). */
export class SubagentCancelledError extends Error {
  override name = "SubagentCancelledError";
  constructor(readonly by: string) {
    super(`cancelled by the user (${by})`);
  }
}

/** One running sub-agent as the control sees it: the signal it runs with, and how it was cancelled, if it was. */
export interface TrackedSubagent {
  readonly signal: AbortSignal;
  /** The cancel's reason when this sub-agent (or its whole tree) was cancelled from outside; null otherwise. */
  cancelled(): SubagentCancelledError | null;
  /** Stops this sub-agent (and its sub-agents): a cap was reached. */
  stop(reason: CapReachedError): void;
  /** The cap that stopped it (its own, or the tree's through `stopAll`), or null. */
  stoppedBy(): CapReachedError | null;
  /** It ended: forgotten, and no longer listening to its parent's signal. */
  done(): void;
}

/**
 * Stops sub-agents of a running tree from outside it (the dashboard's Cancel): one sub-agent (and
 * the sub-agents below it), or every sub-agent of the tree at once, including the tasks of its
 * `agent` calls that have not started yet. The agents that started them are not stopped: each
 * reads, in its `agent` call's report, that the user cancelled them.
 */
export class SubagentControl {
  private readonly running = new Map<string, AbortController>();
  private readonly batches = new Set<AbortController>();

  /** A sub-agent starts: its own signal, aborted with `parent` or by `cancel(id)`. */
  track(id: string, parent: AbortSignal): TrackedSubagent {
    const controller = linkedController(parent);
    this.running.set(id, controller.controller);
    return {
      signal: controller.controller.signal,
      cancelled: () => {
        const reason: unknown = controller.controller.signal.reason;
        return reason instanceof SubagentCancelledError ? reason : null;
      },
      stop: (reason) => {
        if (!controller.controller.signal.aborted) controller.controller.abort(reason);
      },
      stoppedBy: () => {
        const reason: unknown = controller.controller.signal.reason;
        return reason instanceof CapReachedError ? reason : null;
      },
      done: () => {
        if (this.running.get(id) === controller.controller) this.running.delete(id);
        controller.dispose();
      },
    };
  }

  /** An `agent` call's tasks start: their shared signal, aborted with `parent` or by `cancelAll`. */
  trackBatch(parent: AbortSignal, listeners: number): { signal: AbortSignal; done(): void } {
    const controller = linkedController(parent);
    setMaxListeners(listeners, controller.controller.signal);
    this.batches.add(controller.controller);
    return {
      signal: controller.controller.signal,
      done: () => {
        this.batches.delete(controller.controller);
        controller.dispose();
      },
    };
  }

  /** Stops one running sub-agent (and its sub-agents); false when none of that id runs. */
  cancel(id: string, by: string): boolean {
    const controller = this.running.get(id);
    if (!controller || controller.signal.aborted) return false;
    controller.abort(new SubagentCancelledError(by));
    return true;
  }

  /** Stops every sub-agent of the tree and the tasks waiting to start; how many were running. */
  cancelAll(by: string): number {
    return this.stopAll(new SubagentCancelledError(by));
  }

  /** Stops every sub-agent of the tree and the tasks waiting to start for `reason` (a tree-wide cap); how many were running. */
  stopAll(reason: SubagentCancelledError | CapReachedError): number {
    const stopped = [...this.running.values()].filter((controller) => !controller.signal.aborted).length;
    for (const controller of this.running.values()) if (!controller.signal.aborted) controller.abort(reason);
    for (const batch of this.batches) if (!batch.signal.aborted) batch.abort(reason);
    return stopped;
  }
}

function linkedController(parent: AbortSignal): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener("abort", abort, { once: true });
  return { controller, dispose: () => parent.removeEventListener("abort", abort) };
}
