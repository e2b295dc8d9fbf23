import { interceptEvents, type AgentEvent, type AgentUi } from "./events.js";
import { AgentAbortedError } from "./model/errors.js";

interface Waiter {
  start(): void;
}

/**
 * One question to the user at a time, for whoever asks them: the approval gate of every agent of
 * a tree and the agent's own `ask_user` questions share one `QuestionTurns`, owned by the host that
 * shows them (the terminal prompter). Each question waits for its turn (in the order they were
 * asked), and the agents that have nothing to ask keep working meanwhile. What they report while
 * a question is open is held back (`holding`) and delivered, in order, once it is answered, so
 * nothing is written into the middle of a question; streamed text is not held (the host does not
 * show a sub-agent's, and no agent streams while its own question is open). Waiting and asking
 * end at once when the signal aborts (Ctrl-C), whatever the approver does.
 */
export class QuestionTurns {
  private asking = false;
  private readonly queue: Waiter[] = [];
  private held: (() => void)[] = [];

  /** Questions waiting behind the one being asked. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `ask` when it is this question's turn and gives the turn on when it settles. */
  async take<T>(signal: AbortSignal, ask: () => Promise<T>): Promise<T> {
    await this.turn(signal);
    try {
      return await untilAborted(ask(), signal);
    } finally {
      this.next();
    }
  }

  /** Runs `deliver` now, or after the question being asked is answered. */
  private deliver(deliver: () => void): void {
    if (this.asking) this.held.push(deliver);
    else deliver();
  }

  /** The UI with its events, other than streamed text, held back while a question is open. */
  holding(ui: AgentUi): AgentUi {
    return interceptEvents(ui, (event, forward) => {
      if (isStreamedText(event)) forward(event);
      else this.deliver(() => forward(event));
    });
  }

  private turn(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new AgentAbortedError());
    if (!this.asking) {
      this.asking = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        reject(new AgentAbortedError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /**
   * What was held back comes first, then the next question. A delivery that throws stops neither
   * the others nor the next question (its agent would wait forever): the first such error is
   * thrown once the turn has been given on.
   */
  private next(): void {
    const held = this.held;
    this.held = [];
    this.asking = false;
    let failure: { error: unknown } | null = null;
    for (const deliver of held) {
      try {
        deliver();
      } catch (error) {
        failure ??= { error };
      }
    }
    const waiter = this.queue.shift();
    if (waiter) {
      this.asking = true;
      waiter.start();
    }
    if (failure) throw failure.error;
  }
}

/** `promise`, or an AgentAbortedError as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AgentAbortedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A piece of an agent's streamed reply, the top-level agent's or a sub-agent's. */
function isStreamedText(event: AgentEvent): boolean {
  return event.type === "text" || (event.type === "subagent-event" && event.event.type === "text");
}
