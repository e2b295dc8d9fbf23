/** The signals that end bosun at once when nothing else handles them. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The process groups of the servers bosun started (each its own group, away from the terminal),
 * killed should bosun end without stopping them: on its way out (`process.exit`, a second
 * Ctrl-C), and on a signal that would end it at once (Ctrl-C while bosun starts, a `kill`): then
 * the groups are killed and the signal is raised again, to end bosun as it would have. A signal
 * that something else in bosun handles (a turn's Ctrl-C, which cancels the turn) is left to it.
 */
export class ProcessGroups {
  private readonly pids = new Set<number>();
  private readonly onExit = () => this.killAll();
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    this.killAll();
    this.clear();
    process.kill(process.pid, signal);
  };

  add(pid: number): void {
    if (this.pids.size === 0) {
      process.on("exit", this.onExit);
      for (const signal of ENDING_SIGNALS) process.on(signal, this.onSignal);
    }
    this.pids.add(pid);
  }

  /** The groups are stopped (or gone): nothing to kill any more. */
  clear(): void {
    if (this.pids.size === 0) return;
    this.pids.clear();
    process.removeListener("exit", this.onExit);
    for (const signal of ENDING_SIGNALS) process.removeListener(signal, this.onSignal);
  }

  private killAll(): void {
    for (const pid of this.pids) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
  }
}
