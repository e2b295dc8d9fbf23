/**
 * Bytes of spilled tool output an agent tree may still write. Shared by every call and every
 * sub-agent of one run, so a loop of calls that each print a lot still stops at the run's limit.
 */
export class SpillBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Takes up to `bytes` from what is left and returns how many were granted. */
  take(bytes: number): number {
    const granted = Math.max(0, Math.min(bytes, this.limit - this.used));
    this.used += granted;
    return granted;
  }

  get spent(): number {
    return this.used;
  }
}
