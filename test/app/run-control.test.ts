// A `bosun run` process's control channel over its real unix socket, with a raw client speaking
// the protocol line by line: the record and the private socket, the state on connect and after
// each change, approvals (without a terminal only while a page is open; with one, the first answer
// counting), commands and their refusals, and the cleanup.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest, Approver } from "../../src/agent/approval/approval.js";
import { lineReader, parseRunCommand, type RunControlState, type RunMessage } from "../../src/app/run-control/protocol.js";
import { RunControl } from "../../src/app/run-control/run-control.js";
import { readRunRecords } from "../../src/app/run-control/run-records.js";

const opened: RunControl[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((control) => control.close()));
});

async function openControl(options: { terminal?: boolean; dir?: string } = {}) {
  const dir = options.dir ?? join(mkdtempSync(join(tmpdir(), "bosun-runs-")), "runs");
  const notices: string[] = [];
  const control = await RunControl.open({ dir, terminal: options.terminal ?? false, bosun: "test", notice: (message) => notices.push(message) });
  opened.push(control);
  return { control, dir, notices };
}

/** A raw client: the messages it got, and a way to wait for one. */
interface Client {
  socket: Socket;
  messages: RunMessage[];
  send(command: unknown): void;
  next(match: (message: RunMessage) => boolean): Promise<RunMessage>;
  state(match: (state: RunControlState) => boolean): Promise<RunControlState>;
}

async function connect(socketPath: string): Promise<Client> {
  const socket = createConnection(socketPath);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.setEncoding("utf8");
  const messages: RunMessage[] = [];
  const waiters: { match: (message: RunMessage) => boolean; resolve: (message: RunMessage) => void }[] = [];
  socket.on(
    "data",
    lineReader(
      (line) => {
        const message = JSON.parse(line) as RunMessage;
        messages.push(message);
        for (const waiter of [...waiters]) {
          if (!waiter.match(message)) continue;
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      },
      () => socket.destroy(),
    ),
  );
  const next = (match: (message: RunMessage) => boolean) =>
    new Promise<RunMessage>((resolve, reject) => {
      const found = messages.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no such message in 5 s; got ${JSON.stringify(messages)}`)), 5_000);
      waiters.push({ match, resolve: (message) => (clearTimeout(timer), resolve(message)) });
    });
  return {
    socket,
    messages,
    send: (command) => socket.write(`${typeof command === "string" ? command : JSON.stringify(command)}\n`),
    next,
    state: async (match) => ((await next((message) => message.type === "state" && match(message.state))) as Extract<RunMessage, { type: "state" }>).state,
  };
}

const request: ApprovalRequest = { callId: "c1", tool: "bash", access: "execute", danger: null, description: "$ touch notes", agent: "sub-agent #2" };

describe("a run's control channel", () => {
  it("announces itself in a private folder, sends its state on connect and after each change, and removes everything on close", async () => {
    const { control, dir } = await openControl();
    const { live } = readRunRecords(dir);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ pid: process.pid, bosun: "test" });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(live[0]!.socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, `${process.pid}.json`)).mode & 0o777).toBe(0o600);

    const client = await connect(live[0]!.socket);
    const first = await client.state(() => true);
    expect(first).toMatchObject({ version: 1, pid: process.pid, terminal: false, turn: null, subagents: [], approvals: [] });

    const turn = new AbortController();
    control.startTurn(turn);
    control.describeTurn({ session: "s1", model: "p/m", mode: "ask", workdir: "/w" });
    control.observe({ type: "subagent-start", agent: { id: "a1", seq: 1, depth: 1, task: 1, tasks: 1 }, prompt: "check\nthe rest", continued: false });
    const running = await client.state((state) => state.subagents.length === 1);
    expect(running.turn).toMatchObject({ session: "s1", model: "p/m", mode: "ask", ended: null });
    expect(running.subagents[0]).toMatchObject({ id: "a1", prompt: "check", status: "running" });
    control.endTurn("final");
    expect((await client.state((state) => Boolean(state.turn?.ended))).turn?.ended?.reason).toBe("final");

    await control.close();
    opened.splice(opened.indexOf(control), 1);
    expect(existsSync(live[0]!.socket)).toBe(false);
    expect(readRunRecords(dir)).toEqual({ live: [], stale: [] });
  });

  it("without a terminal, asks a page only while one is open: none open is 'nobody' at once; the last one closing answers 'nobody'", async () => {
    const { control, dir, notices } = await openControl();
    const approver = control.approver(null);
    const signal = new AbortController().signal;
    expect(await approver(request, signal)).toBe("nobody");

    const client = await connect(readRunRecords(dir).live[0]!.socket);
    client.send({ type: "pages", id: 0, count: 1 });
    await client.next((message) => message.type === "reply" && message.id === 0);
    const asked = approver(request, signal);
    const state = await client.state((s) => s.approvals.length === 1);
    expect(state.approvals[0]).toMatchObject({ id: "q1", agent: "sub-agent #2", tool: "bash", description: "$ touch notes", waiting: 0 });
    client.send({ type: "answer", id: 7, approval: "q1", answer: "once" });
    expect(await client.next((message) => message.type === "reply" && message.id === 7)).toEqual({ type: "reply", id: 7, ok: true, message: "allowed once" });
    expect(await asked).toBe("once");
    expect(notices).toEqual(["sub-agent #2: bash: allowed once on the dashboard"]);
    await client.state((s) => s.approvals.length === 0);

    // Answered again: refused, nothing changes.
    client.send({ type: "answer", id: 8, approval: "q1", answer: "deny" });
    expect(await client.next((message) => message.type === "reply" && message.id === 8)).toMatchObject({ ok: false, message: expect.stringMatching(/^question q1 is not open any more/) });

    // The page goes away while a question waits: nobody can answer it.
    const stranded = approver(request, signal);
    await client.state((s) => s.approvals.length === 1);
    client.send({ type: "pages", id: 0, count: 0 });
    expect(await stranded).toBe("nobody");
  });

  it("with a terminal, asks both: the page's answer wins and the terminal's question is withdrawn; the terminal's answer withdraws the page's", async () => {
    const { control, dir, notices } = await openControl({ terminal: true });
    const terminalSignals: AbortSignal[] = [];
    let terminalAnswer: ((answer: "once" | "deny") => void) | null = null;
    const terminal: Approver = (_request, signal) => {
      terminalSignals.push(signal);
      return new Promise((resolve, reject) => {
        terminalAnswer = resolve;
        signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
    };
    const approver = control.approver(terminal);
    const client = await connect(readRunRecords(dir).live[0]!.socket);
    const signal = new AbortController().signal;

    const first = approver(request, signal);
    const question = (await client.state((s) => s.approvals.length === 1)).approvals[0]!;
    client.send({ type: "answer", id: 1, approval: question.id, answer: "session" });
    expect(await first).toBe("session");
    expect(terminalSignals[0]!.aborted).toBe(true);
    expect(notices).toEqual(["allowed for this session on the dashboard"]);

    const second = approver(request, signal);
    await client.state((s) => s.approvals.length === 1);
    terminalAnswer!("deny");
    expect(await second).toBe("deny");
    await client.state((s) => s.approvals.length === 0);
    expect(notices).toHaveLength(1);
  });

  it("answers each command with one line: bad lines and unknown ids are refused, Stop aborts the turn once", async () => {
    const { control, dir, notices } = await openControl();
    const client = await connect(readRunRecords(dir).live[0]!.socket);
    client.send("{not json");
    expect(await client.next((message) => message.type === "reply" && message.id === -1)).toMatchObject({ ok: false, message: "not a JSON line" });
    client.messages.length = 0;
    client.send({ type: "launch", id: 2 });
    expect(await client.next((message) => message.type === "reply" && message.id === -1)).toMatchObject({ ok: false, message: expect.stringMatching(/^not a command: type: /) });
    client.send({ type: "cancel", id: 3, agent: "nobody-runs-this" });
    expect(await client.next((message) => message.type === "reply" && message.id === 3)).toMatchObject({ ok: false, message: "sub-agent nobody-runs-this is not running" });
    client.send({ type: "stop", id: 4 });
    expect(await client.next((message) => message.type === "reply" && message.id === 4)).toMatchObject({ ok: false, message: "no turn is running" });

    const turn = new AbortController();
    control.startTurn(turn);
    client.send({ type: "stop", id: 5 });
    expect(await client.next((message) => message.type === "reply" && message.id === 5)).toMatchObject({ ok: true, message: "stopping" });
    expect(turn.signal.aborted).toBe(true);
    expect(notices).toEqual(["stopping: asked from the dashboard"]);
    client.send({ type: "stop", id: 6 });
    expect(await client.next((message) => message.type === "reply" && message.id === 6)).toMatchObject({ ok: false, message: "no turn is running" });
    client.send({ type: "cancel-all", id: 7 });
    expect(await client.next((message) => message.type === "reply" && message.id === 7)).toMatchObject({ ok: true, message: "0 sub-agents cancelled" });
  });

  it("removes the records of runs that are gone when it opens, and puts its socket in a private temp folder when the runs folder's path is too long for one", async () => {
    const base = mkdtempSync(join(tmpdir(), "bosun-runs-"));
    const dir = join(base, "a".repeat(60), "b".repeat(60), "runs");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // pid 2^22+1 is above Linux's pid_max: no process has it.
    writeFileSync(join(dir, "4194305.json"), JSON.stringify({ pid: 4194305, socket: join(dir, "4194305.sock"), startedAt: 1, bosun: "old" }));
    writeFileSync(join(dir, "4194305.sock"), "");
    await openControl({ dir });
    expect(existsSync(join(dir, "4194305.json"))).toBe(false);
    expect(existsSync(join(dir, "4194305.sock"))).toBe(false);
    const record = JSON.parse(readFileSync(join(dir, `${process.pid}.json`), "utf8")) as { socket: string };
    expect(record.socket.startsWith(tmpdir())).toBe(true);
    expect(Buffer.byteLength(record.socket)).toBeLessThanOrEqual(100);
    expect(statSync(join(record.socket, "..")).mode & 0o777).toBe(0o700);
    const client = await connect(record.socket);
    await client.state(() => true);
  });

  it("parses commands strictly", () => {
    expect(parseRunCommand('{"type":"answer","id":1,"approval":"q1","answer":"once"}')).toEqual({ type: "answer", id: 1, approval: "q1", answer: "once" });
    expect(parseRunCommand('{"type":"answer","id":1,"approval":"q1","answer":"always"}')).toMatchObject({ error: expect.stringMatching(/^not a command: answer: /) });
    expect(parseRunCommand('{"type":"pages","id":-1,"count":1}')).toMatchObject({ error: expect.stringMatching(/^not a command: id: /) });
    expect(parseRunCommand("[]")).toMatchObject({ error: expect.stringMatching(/^not a command/) });
  });
});
