import { describeError } from "../kernel/errors.js";
import type { DoctorReport } from "../doctor/doctor.js";

/** Where the page's doctor run stands: none yet, running, or its last verdicts. */
export type DoctorState =
  | { state: "none" }
  | { state: "running"; startedAt: number; last: DoctorDone | null }
  | DoctorDone
  | { state: "failed"; message: string; at: number; last: DoctorDone | null };

export interface DoctorDone {
  state: "done";
  report: DoctorReport;
  /** When it ended, and how long it took. */
  at: number;
  ms: number;
}

/**
 * `bosun doctor` as a job of the server: one run at a time (asking again while it runs joins it);
 * its verdicts are kept until the next run, shown on the Agents page and by `GET /api/doctor`.
 * Each change is told to `onChange` (the pages get it live).
 */
export class DoctorJob {
  private current: DoctorState = { state: "none" };
  private running: Promise<DoctorState> | null = null;

  constructor(
    private readonly doctor: () => Promise<DoctorReport>,
    private readonly onChange: (state: DoctorState) => void,
    private readonly log: (message: string, fields: Record<string, unknown>) => void = () => undefined,
  ) {}

  get state(): DoctorState {
    return this.current;
  }

  /** Starts a run, or gives the one that runs; resolves with its end. */
  run(): Promise<DoctorState> {
    if (this.running) return this.running;
    const last = this.current.state === "done" ? this.current : this.current.state === "none" ? null : this.current.last;
    const startedAt = Date.now();
    this.set({ state: "running", startedAt, last });
    this.running = this.doctor().then(
      (report) => {
        this.log("doctor run from the dashboard", { ok: report.ok, problems: report.problems.length });
        return { state: "done" as const, report, at: Date.now(), ms: Date.now() - startedAt };
      },
      (error: unknown) => ({ state: "failed" as const, message: describeError(error), at: Date.now(), last }),
    ).then((end) => {
      this.running = null;
      this.set(end);
      return end;
    });
    return this.running;
  }

  private set(state: DoctorState): void {
    this.current = state;
    this.onChange(state);
  }
}
