import { isUserError } from "../kernel/errors.js";
import type { DashboardSources } from "./sources.js";

/** Where the page's Codex login stands. */
export type LoginState =
  | { state: "idle" }
  | { state: "starting" }
  | { state: "waiting"; userCode: string; verificationUrl: string; expiresAt: number }
  | { state: "signed-in"; accountId: string; authPath: string }
  | { state: "failed"; message: string }
  | { state: "cancelled" };

/**
 * Codex's device login as a job of the server, not of a tab: starting it while it waits gives the
 * same code (one login at a time); closing the page does not stop it; the server polls at the
 * login server's interval until the user finishes, the code expires (15 minutes) or Cancel. Each
 * change is told to `onChange` (the pages get it live).
 */
export class LoginJob {
  private current: LoginState = { state: "idle" };
  private cancel: AbortController | null = null;

  constructor(
    private readonly steps: DashboardSources["codexLogin"],
    private readonly onChange: (state: LoginState) => void,
    private readonly log: (message: string, fields: Record<string, unknown>) => void = () => undefined,
  ) {}

  get state(): LoginState {
    return this.current;
  }

  /** Starts a login, or gives the one that is starting or waiting. */
  async start(): Promise<LoginState> {
    if (this.current.state === "waiting" || this.current.state === "starting") return this.current;
    const cancel = new AbortController();
    this.cancel = cancel;
    this.set({ state: "starting" });
    try {
      const started = await this.steps.start(cancel.signal);
      if (cancel.signal.aborted) return this.current;
      this.set({ state: "waiting", userCode: started.userCode, verificationUrl: started.verificationUrl, expiresAt: started.expiresAt });
      this.log("agent device login started", { agent: "codex", source: "dashboard" });
      void started.wait().then(
        (done) => {
          if (this.cancel !== cancel) return;
          this.log("agent device login completed", { agent: "codex", source: "dashboard" });
          this.finish({ state: "signed-in", ...done });
        },
        (error: unknown) => {
          if (this.cancel !== cancel) return;
          this.finish(cancel.signal.aborted ? { state: "cancelled" } : { state: "failed", message: messageOf(error) });
        },
      );
    } catch (error) {
      if (this.cancel === cancel) this.finish(cancel.signal.aborted ? { state: "cancelled" } : { state: "failed", message: messageOf(error) });
    }
    return this.current;
  }

  /** Cancels a login that starts or waits (nothing is stored); any other state stays. */
  stop(): LoginState {
    if (this.current.state !== "waiting" && this.current.state !== "starting") return this.current;
    const cancel = this.cancel;
    this.cancel = null;
    cancel?.abort();
    this.log("agent device login cancelled", { agent: "codex", source: "dashboard" });
    this.set({ state: "cancelled" });
    return this.current;
  }

  private finish(state: LoginState): void {
    this.cancel = null;
    this.set(state);
  }

  private set(state: LoginState): void {
    this.current = state;
    this.onChange(state);
  }
}

function messageOf(error: unknown): string {
  return isUserError(error) ? error.message : `Codex login failed: ${error instanceof Error ? error.message : String(error)}`;
}
