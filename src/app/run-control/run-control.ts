import { chmodSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { ApprovalAnswer, ApprovalReply, ApprovalRequest, Approver } from "../../agent/approval/approval.js";
import type { AgentEvent } from "../../agent/events.js";
import { SubagentControl } from "../../agent/subagents/control.js";
import { LiveSubagentTree } from "../../agent/subagents/live-tree.js";
import { lineReader, parseRunCommand, RUN_CONTROL_VERSION, type PendingApproval, type RunCommand, type RunControlState, type RunTurn } from "./protocol.js";
import { removeStaleRuns, socketPlace, writeRunRecord } from "./run-records.js";

/** Who stops or answers through the control channel, as the run tells its terminal and its sub-agents' parents. */
const FROM_PAGE = "from the dashboard";

/** How long a terminal's question may take to be given up once a page answered it. */
const TERMINAL_GIVE_UP_MS = 200;

/** How long changes gather before the state goes out (a burst of events is one message). */
const SEND_MS = 25;

export interface RunControlOptions {
  /** The runs folder (run-records.ts `runsDir`). */
  dir: string;
  /** Whether the run's questions are asked on a terminal too. */
  terminal: boolean;
  bosun: string;
  /** Tells the run's user what a page did: an answer given there, a stop asked there. */
  notice(message: string): void;
}

interface OpenQuestion {
  approval: PendingApproval;
  /** With no terminal, a question nobody can answer any more (the last page closed) is answered "nobody". */
  needsPage: boolean;
  settle(reply: ApprovalReply): void;
}

/**
 * The control channel of one `bosun run` process (protocol.ts): a unix socket in the private runs
 * folder, announced by a record beside it, through which `bosun serve` sees the turn, its sub-agent
 * tree and the approval questions live, answers those questions (through the same approval gate
 * as the terminal: a page answers only what the gate asks, never more), cancels one sub-agent or
 * all of them, and stops the turn as Ctrl-C would.
 */
export class RunControl {
  /** Passed to the turn's agent tree: how a page cancels its sub-agents. */
  readonly subagents = new SubagentControl();
  private tree = new LiveSubagentTree();
  private turn: RunTurn | null = null;
  private controller: AbortController | null = null;
  private changes = 0;
  private questionSeq = 0;
  private readonly questions = new Map<string, OpenQuestion>();
  private readonly clients = new Map<Socket, number>();
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly server: Server,
    private readonly options: RunControlOptions,
    private readonly cleanup: () => void,
  ) {}

  /** Listens on this process's socket and writes its record; stale records of runs that are gone are removed first. */
  static async open(options: RunControlOptions): Promise<RunControl> {
    removeStaleRuns(options.dir);
    const place = socketPlace(options.dir, process.pid);
    rmSync(place.socket, { force: true });
    let control: RunControl | null = null;
    const server = createServer((socket) => control?.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(place.socket, () => {
        server.off("error", reject);
        resolve();
      });
    });
    server.unref();
    chmodSync(place.socket, 0o600);
    const record = writeRunRecord(options.dir, { pid: process.pid, socket: place.socket, startedAt: Date.now(), bosun: options.bosun });
    control = new RunControl(server, options, () => {
      rmSync(record, { force: true });
      place.cleanup();
    });
    return control;
  }

  /** A turn starts: `controller` is what Stop aborts. */
  startTurn(controller: AbortController): void {
    this.controller = controller;
    this.tree = new LiveSubagentTree();
    this.turn = null;
    this.changed();
  }

  /** The turn's session is open. */
  describeTurn(turn: Omit<RunTurn, "ended" | "startedAt">): void {
    this.turn = { ...turn, startedAt: Date.now(), ended: null };
    this.changed();
  }

  endTurn(reason: string): void {
    if (this.turn) this.turn = { ...this.turn, ended: { reason, at: Date.now() } };
    this.controller = null;
    this.changed();
  }

  /** Every event of the turn, as it happens (also while a question holds the terminal's output back). */
  observe(event: AgentEvent): void {
    this.tree.onEvent(event);
    this.changed();
  }

  /**
   * The turn's approver: the terminal's (when there is one) and the open pages', the first answer
   * counting (the other question is withdrawn). Without a terminal the pages alone are asked, and
   * only while one is open: with none, or once the last one closes, the answer is "nobody" (the
   * call is refused as when nobody can approve).
   */
  approver(terminal: Approver | null): Approver {
    return async (request, signal) => {
      if (!terminal) {
        if (this.pages() === 0) return "nobody";
        const reply = await this.ask(request, signal, true).reply;
        if (reply !== "nobody") this.options.notice(`${request.agent ? `${request.agent}: ` : ""}${request.tool}: ${answerWords(reply)} on the dashboard`);
        return reply;
      }
      const local = new AbortController();
      const stop = () => local.abort();
      signal.addEventListener("abort", stop, { once: true });
      const page = this.ask(request, local.signal, false);
      // With a terminal, only a page's real answer races it ("nobody" is the page's question withdrawn).
      const fromPage = page.reply.then((reply) => (reply === "nobody" ? new Promise<never>(() => {}) : { from: "page" as const, reply }));
      const asking = terminal(request, local.signal).then((reply) => ({ from: "terminal" as const, reply }));
      let first: { from: "terminal" | "page"; reply: ApprovalReply };
      try {
        first = await Promise.race([asking, fromPage]);
      } finally {
        signal.removeEventListener("abort", stop);
        local.abort();
        page.withdraw();
      }
      if (first.from === "page") {
        // The terminal's question is given up first (it ends its line), then the run says who answered.
        await Promise.race([asking.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TERMINAL_GIVE_UP_MS))]);
        this.options.notice(`${answerWords(first.reply)} on the dashboard`);
      }
      return first.reply;
    };
  }

  /** The state a client is sent. */
  state(): RunControlState {
    return {
      version: RUN_CONTROL_VERSION,
      pid: process.pid,
      terminal: this.options.terminal,
      turn: this.turn,
      subagents: this.tree.snapshot(),
      approvals: [...this.questions.values()].map((question) => question.approval),
      changes: this.changes,
    };
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    for (const question of this.questions.values()) question.settle("nobody");
    for (const socket of this.clients.keys()) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.cleanup();
  }

  private ask(request: ApprovalRequest, signal: AbortSignal, needsPage: boolean): { reply: Promise<ApprovalReply>; withdraw(): void } {
    const id = `q${++this.questionSeq}`;
    const approval: PendingApproval = {
      id,
      agent: request.agent ?? null,
      tool: request.tool,
      description: request.description,
      preview: request.preview ?? null,
      danger: request.danger,
      escape: request.escape ?? null,
      waiting: request.waiting ?? 0,
      askedAt: Date.now(),
    };
    const withdraw = () => {
      if (this.questions.delete(id)) this.changed();
    };
    const reply = new Promise<ApprovalReply>((resolve) => {
      const settle = (answer: ApprovalReply) => {
        signal.removeEventListener("abort", onAbort);
        withdraw();
        resolve(answer);
      };
      // Aborted: the gate has given the question up already; nothing waits for this answer.
      const onAbort = () => settle("nobody");
      signal.addEventListener("abort", onAbort, { once: true });
      this.questions.set(id, { approval, needsPage, settle });
    });
    this.changed();
    return { reply, withdraw };
  }

  private pages(): number {
    let count = 0;
    for (const pages of this.clients.values()) count += pages;
    return count;
  }

  private accept(socket: Socket): void {
    this.clients.set(socket, 0);
    socket.setEncoding("utf8");
    const forget = () => {
      if (!this.clients.delete(socket)) return;
      this.pagesChanged();
    };
    socket.on("data", lineReader((line) => this.command(socket, line), () => socket.destroy()));
    socket.on("error", forget);
    socket.on("close", forget);
    this.send(socket, { type: "state", state: this.state() });
  }

  private command(socket: Socket, line: string): void {
    const command = parseRunCommand(line);
    if ("error" in command) {
      this.send(socket, { type: "reply", id: -1, ok: false, message: command.error });
      return;
    }
    const reply = (ok: boolean, message: string) => this.send(socket, { type: "reply", id: command.id, ok, message });
    const outcome = this.carryOut(socket, command);
    reply(outcome.ok, outcome.message);
  }

  private carryOut(socket: Socket, command: RunCommand): { ok: boolean; message: string } {
    switch (command.type) {
      case "pages":
        this.clients.set(socket, command.count);
        this.pagesChanged();
        return { ok: true, message: `${command.count} page(s)` };
      case "answer": {
        const question = this.questions.get(command.approval);
        if (!question) return { ok: false, message: `question ${command.approval} is not open any more (answered on the terminal, or the call was cancelled)` };
        question.settle(command.answer);
        return { ok: true, message: answerWords(command.answer) };
      }
      case "cancel":
        if (!this.subagents.cancel(command.agent, FROM_PAGE)) return { ok: false, message: `sub-agent ${command.agent} is not running` };
        this.options.notice(`sub-agent ${command.agent} cancelled ${FROM_PAGE}`);
        return { ok: true, message: `sub-agent ${command.agent} cancelled` };
      case "cancel-all": {
        const stopped = this.subagents.cancelAll(FROM_PAGE);
        if (stopped > 0) this.options.notice(`${stopped} sub-agent${stopped === 1 ? "" : "s"} cancelled ${FROM_PAGE}`);
        return { ok: true, message: `${stopped} sub-agent${stopped === 1 ? "" : "s"} cancelled` };
      }
      case "stop":
        if (!this.controller || this.controller.signal.aborted) return { ok: false, message: "no turn is running" };
        this.options.notice(`stopping: asked ${FROM_PAGE}`);
        this.controller.abort();
        return { ok: true, message: "stopping" };
    }
  }

  /** The last page closed: a question only pages could answer is answered "nobody". */
  private pagesChanged(): void {
    if (this.pages() > 0) return;
    for (const question of [...this.questions.values()]) if (question.needsPage) question.settle("nobody");
  }

  private changed(): void {
    this.changes++;
    if (this.timer || this.clients.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const message = { type: "state" as const, state: this.state() };
      for (const socket of this.clients.keys()) this.send(socket, message);
    }, SEND_MS);
    this.timer.unref();
  }

  private send(socket: Socket, message: unknown): void {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  }
}

function answerWords(answer: ApprovalReply | ApprovalAnswer): string {
  if (answer === "once") return "allowed once";
  if (answer === "session") return "allowed for this session";
  if (answer === "deny") return "denied";
  return "nobody answered";
}
