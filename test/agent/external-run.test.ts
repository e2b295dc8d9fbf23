import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { claudeStreamParser } from "../../src/agent/subagents/external/claude-stream.js";
import { runExternal, type ExternalRunOptions } from "../../src/agent/subagents/external/run-external.js";
import { CapMeter, TreeMeter, type Caps } from "../../src/agent/subagents/limits.js";

// The runner's handling of what no real CLI can be made to do on purpose (print garbage, hang,
// leave a process behind): small node programs stand in for the CLI. Parsing the real CLIs'
// streams is tested against their own output (external-streams.test.ts, delegate-real.test.ts).
const dir = mkdtempSync(join(tmpdir(), "bosun-external-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function program(name: string, source: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return file;
}

const line = (value: unknown) => `process.stdout.write(${JSON.stringify(JSON.stringify(value) + "\n")});`;
const assistant = (id: string, text: string, output: number) => ({ type: "assistant", message: { id, content: [{ type: "text", text }], usage: { input_tokens: 100, output_tokens: output } } });

function options(file: string, caps: Caps = {}, extra: Partial<ExternalRunOptions> = {}): ExternalRunOptions & { events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return {
    name: "claude",
    command: { file: process.execPath, args: [file], env: { PATH: process.env.PATH }, cwd: dir },
    parser: claudeStreamParser(),
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    meter: new CapMeter(caps, new TreeMeter({})),
    onCap: () => {},
    price: () => null,
    redact: (text) => text.replaceAll("sk-secret", "[redacted]"),
    events,
    ...extra,
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("running an agent CLI headless", () => {
  it("turns its stream into sub-agent events and its result into the answer (redacted), cost from the CLI", async () => {
    const file = program(
      "ok",
      [
        line({ type: "system", subtype: "init", session_id: "s-1", model: "claude-x" }),
        line(assistant("m1", "working on sk-secret", 5)),
        line({ type: "result", subtype: "success", is_error: false, result: "done with sk-secret", num_turns: 1, total_cost_usd: 0.0123, usage: { input_tokens: 100, output_tokens: 9 } }),
      ].join("\n"),
    );
    const run = options(file);
    const end = await runExternal(run);
    expect(end).toMatchObject({ status: "completed", text: "done with [redacted]", turns: 1, usage: { inputTokens: 100, outputTokens: 9 }, costUsd: 0.0123, cliSession: "s-1", model: "claude-x" });
    expect(run.events.map((event) => event.type)).toEqual(["turn-start", "text", "reply-end", "reply-end"]);
    expect(run.events[1]).toEqual({ type: "text", delta: "working on [redacted]" });
  });

  it("shows a CLI's tool call as its tool and what it works on, and its result", async () => {
    const file = program(
      "tool",
      [
        line({ type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test" } }], usage: { input_tokens: 10, output_tokens: 2 } } }),
        line({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "3 failed", is_error: true }] } }),
        line({ type: "result", subtype: "success", is_error: false, result: "tests fail", num_turns: 1 }),
      ].join("\n"),
    );
    const run = options(file);
    await runExternal(run);
    expect(run.events.find((event) => event.type === "tool-start")).toEqual({ type: "tool-start", callId: "t1", tool: "Bash", description: "Bash: npm test" });
    expect(run.events.find((event) => event.type === "tool-end")).toMatchObject({ callId: "t1", tool: "Bash", status: "error", summary: "3 failed" });
  });

  it("fails with the first line quoted when the CLI prints nothing bosun can read", async () => {
    const end = await runExternal(options(program("garbage", `console.log("Welcome to the CLI!"); console.log("[not an object]"); console.log("42");`)));
    expect(end.status).toBe("failed");
    expect(end.text).toBe('claude printed no events bosun can read (its first line: "Welcome to the CLI!"); it exited with code 0');
  });

  it("fails with the CLI's last stderr line when it exits badly without a result", async () => {
    const end = await runExternal(options(program("bad", `console.error("starting"); console.error("Error: the config is broken"); process.exit(2);`)));
    expect(end).toMatchObject({ status: "failed", text: "claude exited with code 2: Error: the config is broken" });
  });

  it("fails in one line when the program cannot be started", async () => {
    const run = options("");
    const end = await runExternal({ ...run, command: { ...run.command, file: join(dir, "no-such-cli"), args: [] } });
    expect(end.status).toBe("failed");
    expect(end.text).toMatch(/^claude could not be started: spawn .*no-such-cli ENOENT$/);
  });

  it("stops a CLI that hangs at the time cap, its whole process group with it, and keeps what it said", async () => {
    const pidFile = join(dir, "hang.pid");
    const file = program(
      "hang",
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
       const child = spawn("sleep", ["600"], { stdio: "ignore" }); writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
       process.on("SIGTERM", () => {}); // a CLI that ignores SIGTERM gets SIGKILL after the grace time
       ${line(assistant("m1", "thinking hard", 3))}
       setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    const end = await runExternal(options(file, { seconds: 1 }));
    expect(end.status).toBe("stopped");
    expect(end.text).toBe("stopped: time cap (1 s); its work is kept\nIts last words: thinking hard");
    expect(end.stoppedBy?.cap).toBe("seconds");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(alive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("stops a CLI at its tokens cap while it runs", async () => {
    const file = program("spender", `let n = 0; setInterval(() => { n++; ${"process.stdout.write(JSON.stringify({ type: 'assistant', message: { id: 'm' + n, content: [{ type: 'text', text: 'step ' + n }], usage: { input_tokens: 100, output_tokens: 50 } } }) + '\\n');"} }, 20);`);
    const told: string[] = [];
    const end = await runExternal(options(file, { tokens: 400 }, { onCap: (reason) => told.push(reason.message) }));
    expect(told).toEqual(["stopped: tokens cap (400)"]);
    expect(end.status).toBe("stopped");
    expect(end.text).toMatch(/^stopped: tokens cap \(400\); its work is kept/);
    expect((end.usage.inputTokens ?? 0) + (end.usage.outputTokens ?? 0)).toBeGreaterThanOrEqual(400);
    expect(end.turns).toBeGreaterThanOrEqual(3);
  });

  it("ends the process group when the task is cancelled", async () => {
    const controller = new AbortController();
    const file = program("slow", `${line({ type: "system", subtype: "init", session_id: "s", model: "m" })} setInterval(() => {}, 1000);`);
    const run = options(file, {}, { signal: controller.signal, onEvent: () => {} });
    setTimeout(() => controller.abort(), 300);
    const end = await runExternal(run);
    expect(end.status).toBe("cancelled");
  });
});
