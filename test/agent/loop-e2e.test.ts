import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { languageModelFor, makeWorkspace, recordingUi, runScripted, scriptedTarget } from "../fixtures/agent-harness.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

describe("the agent loop against a scripted OpenAI-compatible server", () => {
  it("reads, edits and runs a command in a temp repo, and the file on disk changes", async () => {
    const ws = makeWorkspace();
    ws.write("greet.sh", 'echo "hello wrld"\n');
    execFileSync("git", ["init", "-q"], { cwd: ws.workdir });
    llm.reply().text("Let me look at the script.").tool("read", { path: "greet.sh" }).usage({ input: 300, output: 20 });
    llm.reply().text("Fixing the typo.").tool("edit", { path: "greet.sh", old_string: "wrld", new_string: "world" }).usage({ input: 400, output: 30 });
    llm.reply().tool("bash", { command: "sh greet.sh" }).usage({ input: 500, output: 10 });
    llm.reply().text("Fixed: it now prints hello world.").usage({ input: 550, output: 12 });
    const target = scriptedTarget(llm);
    const ui = recordingUi();
    const { result, session } = await runScripted("fix the greeting", { model: await languageModelFor(target), target, workdir: ws.workdir, sessions: ws.sessions, ui });

    expect(result.reason).toBe("final");
    expect(result.text).toBe("Fixed: it now prints hello world.");
    expect(result.turns).toBe(4);
    expect(result.usage).toEqual({ inputTokens: 1750, outputTokens: 72 });
    expect(readFileSync(join(ws.workdir, "greet.sh"), "utf8")).toBe('echo "hello world"\n');
    // The model saw each tool's result in the next request.
    const toolMessages = (n: number) => (llm.requests[n]!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "tool");
    expect(JSON.stringify(toolMessages(1))).toContain("hello wrld");
    expect(JSON.stringify(toolMessages(2))).toContain("replaced 1 occurrence");
    expect(JSON.stringify(toolMessages(3))).toContain("hello world\\n[exit code 0]");
    expect(ui.text()).toContain("Fixing the typo.");
    expect(ui.events.filter((e) => e.type === "tool-end").map((e) => (e.type === "tool-end" ? `${e.tool}:${e.status}` : ""))).toEqual(["read:ok", "edit:ok", "bash:ok"]);
    // The session file holds every step.
    const lines = readFileSync(join(ws.sessions, `${session.id}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "header", version: 1, workdir: ws.workdir });
    expect(lines.filter((l) => l.type === "message").map((l) => l.message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"]);
    expect(lines.at(-1)).toMatchObject({ type: "run", phase: "end", reason: "final", turns: 4 });
  });
});
