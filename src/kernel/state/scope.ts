/** A cleanup registered with a scope; it may be async. */
export type Finalizer = () => void | Promise<void>;

/**
 * An owner of cleanups (transform registrations, timers, child scopes). Closing runs them in
 * reverse order of registration, once: a second `close` waits for the first. Every finalizer
 * runs even when an earlier one fails; the failures are thrown together afterwards.
 */
export class Scope {
  private finalizers: Finalizer[] = [];
  private closing: Promise<void> | undefined;

  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** Registers a cleanup; returns a function that unregisters it without running it. */
  addFinalizer(finalizer: Finalizer): () => void {
    if (this.closing) throw new Error("cannot add a finalizer to a closed scope");
    this.finalizers.push(finalizer);
    return () => {
      const index = this.finalizers.indexOf(finalizer);
      if (index >= 0) this.finalizers.splice(index, 1);
    };
  }

  /** A child scope that closes with this one (and can be closed on its own before). */
  fork(): Scope {
    const child = new Scope();
    const remove = this.addFinalizer(() => child.close());
    child.addFinalizer(remove);
    return child;
  }

  close(): Promise<void> {
    this.closing ??= this.runFinalizers();
    return this.closing;
  }

  private async runFinalizers(): Promise<void> {
    const errors: unknown[] = [];
    while (this.finalizers.length > 0) {
      const finalizer = this.finalizers.pop()!;
      try {
        await finalizer();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups failed while closing a scope`);
  }
}
