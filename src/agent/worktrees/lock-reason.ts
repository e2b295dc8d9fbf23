/**
 * The reason bosun gives git when it locks a task's worktree, which names the process running
 * the task. While the lock is there git refuses to remove or prune the worktree; whether the
 * process is still alive tells a running task from one bosun never finished (it crashed).
 */
export function taskLockReason(pid: number): string {
  return `bosun: task running (pid ${pid})`;
}

/** The process a lock reason of bosun's names, or null for any other reason (someone else's lock). */
export function lockReasonPid(reason: string | null): number | null {
  const match = reason === null ? null : /^bosun: task running \(pid ([1-9]\d*)\)$/.exec(reason);
  return match ? Number(match[1]) : null;
}
