/**
 * A one-permit lock for async work: `run` calls wait for each other in arrival order. Not
 * re-entrant: work that waits, under the lock, for more work on the same lock never finishes
 * (`State` detects that case and fails instead).
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private held = false;

  get locked(): boolean {
    return this.held;
  }

  run<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      this.held = true;
      try {
        return await work();
      } finally {
        this.held = false;
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
