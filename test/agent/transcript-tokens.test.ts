import { describe, expect, it } from "vitest";
import { SubagentSessionCache } from "../../src/agent/subagents/sessions.js";
import { transcriptLines } from "../../src/agent/session/transcript.js";
import { languageModelFor, makeWorkspace, runScripted, scriptedTarget } from "../fixtures/agent-harness.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const plain = (_style: string, text: string) => text;

describe("token counts in a transcript (bosun sessions show)", () => {
  it("are written in the same decimal units as bosun models, for the run and for each sub-agent", async () => {
    llm.onPrompt("delegate it").reply().tool("agent", { prompt: "summarize the spec" }).usage({ input: 100_000, output: 1_000 });
    llm.onPrompt("summarize the spec").reply().text("It is short.").usage({ input: 45_600, output: 1_234 });
    llm.onPrompt("delegate it").reply().text("Done.").usage({ input: 28_000, output: 500 });
    const ws = makeWorkspace();
    // A window large enough that 100K tokens of context do not call for compaction.
    const target = scriptedTarget(llm, "@ai-sdk/openai-compatible", { limits: { context: 1_000_000, output: 4_000 } });
    const run = await runScripted("delegate it", {
      model: await languageModelFor(target),
      target,
      workdir: ws.workdir,
      sessions: ws.sessions,
      subagents: { settings: {}, sessions: new SubagentSessionCache() },
    });
    expect(run.result.reason).toBe("final");
    const transcript = transcriptLines(run.store.read(run.session.id), plain).join("\n");
    expect(transcript).toContain("(128K in / 1.5K out tokens)");
    expect(transcript).toMatch(/✓ \S+ · 1 turn, \d+\.\d s, 45\.6K in \/ 1\.23K out tokens · summarize the spec/);
  });
});
