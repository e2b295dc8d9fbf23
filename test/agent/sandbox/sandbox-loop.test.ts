import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { ApprovalRequest } from "../../../src/agent/approval/approval.js";
import { languageModelFor, runScripted, scriptedTarget } from "../../fixtures/agent-harness.js";
import { describeSandboxed, sandboxLayout, testSandbox } from "../../fixtures/sandbox.js";
import { useLlmServer } from "../../fixtures/use-llm-server.js";

const llm = useLlmServer();

describeSandboxed("the loop with a sandbox", () => {
  it("a write the user allows runs with that folder writable, for that call; a declined one does not run", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir);
    const asked: ApprovalRequest[] = [];
    const answers = ["once", "deny", "deny"] as const;
    llm.reply().tool("bash", { command: "echo allowed > ../outside/a.txt" });
    llm.reply().tool("bash", { command: "echo declined > ../outside/b.txt" });
    llm.reply().tool("bash", { command: "echo sneaky > ../outside/c.txt" });
    llm.reply().text("done");
    const target = scriptedTarget(llm);
    const { result } = await runScripted("write outside", {
      model: await languageModelFor(target),
      target,
      workdir: layout.workdir,
      sessions: join(layout.root, "sessions"),
      mode: "full-access",
      approver: async (request) => answers[asked.push(request) - 1]!,
      overrides: { sandbox },
    });
    expect(result.reason).toBe("final");
    expect(asked.map((r) => r.escape)).toEqual(Array(3).fill(`writes outside the sandbox's writable folders: ${layout.outside}`));
    expect(readFileSync(join(layout.outside, "a.txt"), "utf8")).toBe("allowed\n");
    expect(existsSync(join(layout.outside, "b.txt"))).toBe(false);
    // An earlier "once" does not carry over to the next call.
    expect(existsSync(join(layout.outside, "c.txt"))).toBe(false);
  });

  it("sub-agents inherit the sandbox, narrowed by subagents.sandbox", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir, { settings: { writable: [layout.outside] } });
    llm.onPrompt("parent").reply().tool("agent", { prompt: "child: write beside the project" });
    llm.onPrompt("child").reply().tool("bash", { command: "echo from-child > ../outside/child.txt; echo exit=$?" });
    llm.onPrompt("child").reply().text("child done");
    llm.onPrompt("parent").reply().text("parent done");
    const target = scriptedTarget(llm);
    const { result } = await runScripted("parent", {
      model: await languageModelFor(target),
      target,
      workdir: layout.workdir,
      sessions: join(layout.root, "sessions"),
      mode: "full-access",
      overrides: { sandbox },
      subagents: { settings: { sandbox: { writable: [layout.workdir] } } },
    });
    expect(result.text).toBe("parent done");
    // The parent may write there; its sub-agent, narrowed to the project, may not (and nobody could be asked).
    expect(existsSync(join(layout.outside, "child.txt"))).toBe(false);
  });
});
