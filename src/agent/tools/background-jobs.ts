/** After SIGTERM, a job's process group gets this long before SIGKILL. */
const STOP_GRACE_MS = 2_000;

interface Job {
  pid: number;
  description: string;
  /** Called once the job's processes are gone (closes its output file). */
  onStopped(): void;
}

/**
 * Commands left running after their call (`bash` with `background: true`), each its own process
 * group, until the run ends: `stopAll` ends them (TERM, then KILL), and so does bosun's exit if
 * the run never got that far. Inside the sandbox a job's whole PID namespace goes with it.
 */
export class BackgroundJobs {
  private readonly jobs = new Map<number, Job>();
  private readonly onExit = () => {
    for (const pid of this.jobs.keys()) signalGroup(pid, "SIGKILL");
  };

  add(job: Job): void {
    if (this.jobs.size === 0) process.once("exit", this.onExit);
    this.jobs.set(job.pid, job);
  }

  /** A job that ended by itself. */
  ended(pid: number): void {
    this.jobs.get(pid)?.onStopped();
    this.jobs.delete(pid);
    if (this.jobs.size === 0) process.removeListener("exit", this.onExit);
  }

  get running(): string[] {
    return [...this.jobs.values()].map((job) => job.description);
  }

  /** Ends every job; resolves when their groups are gone (or were killed). */
  async stopAll(): Promise<void> {
    const pids = [...this.jobs.keys()];
    for (const pid of pids) signalGroup(pid, "SIGTERM");
    const deadline = Date.now() + STOP_GRACE_MS;
    while (pids.some(groupAlive) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 25));
    for (const pid of pids) {
      signalGroup(pid, "SIGKILL");
      this.ended(pid);
    }
  }
}

/** Sends `signal` to the process group led by `pid`; a group already gone is no error. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (!pid) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}
