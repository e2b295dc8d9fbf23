import { isUserError } from "../kernel/errors.js";
import type { InstallReport } from "../install/report.js";
import { StalePlanError, type DashboardSources, type InstallRequest } from "./sources.js";

/** Where the page's install stands: one at a time, kept until the next one starts (a reload shows it). */
export type InstallState =
  | { state: "idle" }
  | { state: "applying"; request: InstallRequest; done: number; total: number }
  | { state: "done"; request: InstallRequest; report: InstallReport }
  | { state: "failed"; request: InstallRequest; message: string; stale: boolean };

/** A second apply while one runs. */
export class InstallBusyError extends Error {
  override name = "InstallBusyError";
  constructor() {
    super("an install from this dashboard is still running: wait for it to finish");
  }
}

/**
 * Applying a plan from the page, as a job of the server: its progress goes to `onChange` (the
 * pages get it live, a reload shows where it is), its end too. A plan that changed since it was
 * shown is refused before anything is written (`stale`); the installer's own locks keep it from
 * interleaving with a `bosun install` in a terminal (the later one waits, then says so).
 */
export class InstallJob {
  private current: InstallState = { state: "idle" };
  private lastShown = 0;
  private changes = 0;

  constructor(
    private readonly install: DashboardSources["install"],
    private readonly onChange: (state: InstallState, seq: number) => void,
  ) {}

  get state(): InstallState {
    return this.current;
  }

  /** Bumped on every change: a page shown an older state than it has keeps the newer (`data-seq`). */
  get seq(): number {
    return this.changes;
  }

  /** Starts applying; the returned promise ends with the job (the page does not wait for it). */
  start(request: InstallRequest & { planId: string; choices: Readonly<Record<string, "keep" | "remove">> }): { state: InstallState; seq: number; finished: Promise<InstallState> } {
    if (this.current.state === "applying") throw new InstallBusyError();
    const shown: InstallRequest = { runtimes: request.runtimes, scope: request.scope, ...(request.pack ? { pack: request.pack } : {}) };
    this.set({ state: "applying", request: shown, done: 0, total: 0 });
    const finished = this.install
      .apply(request, (done, total) => {
        // At most ten updates a second, and always the last.
        const now = Date.now();
        if (done < total && now - this.lastShown < 100) return;
        this.lastShown = now;
        this.set({ state: "applying", request: shown, done, total });
      })
      .then(
        (report) => this.set({ state: "done", request: shown, report }),
        (error: unknown) => this.set({ state: "failed", request: shown, message: isUserError(error) || error instanceof StalePlanError ? error.message : `the install failed: ${error instanceof Error ? error.message : String(error)}`, stale: error instanceof StalePlanError }),
      )
      .then(() => this.current);
    return { state: this.current, seq: this.changes, finished };
  }

  private set(state: InstallState): void {
    this.current = state;
    this.onChange(state, ++this.changes);
  }
}
