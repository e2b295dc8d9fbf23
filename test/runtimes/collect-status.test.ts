import { describe, expect, it } from "vitest";
import { agentCounts, agentsHeadline, collectAgentReports, signInLabel } from "../../src/runtimes/collect-status.js";
import { nodeFileReader } from "../../src/runtimes/kit/detect/node-file-reader.js";
import type { FileReader } from "../../src/runtimes/kit/detect/file-reader.js";
import { makeDetection } from "../fixtures/detection.js";

describe("collecting every agent's status", () => {
  it("runs the checks at once: a slow a0 probe holds up no other check", async () => {
    const events: string[] = [];
    const files: FileReader = { ...nodeFileReader, stat: (path) => (events.push("file"), nodeFileReader.stat(path)) };
    const t = makeDetection({
      files,
      prober: async () => {
        events.push("probe started");
        await new Promise((resolve) => setTimeout(resolve, 300));
        events.push("probe answered");
        return true;
      },
    });
    const started = Date.now();
    const reports = await collectAgentReports(t.ctx, undefined);
    expect(Date.now() - started).toBeLessThan(1000);
    // The other agents' file checks all happen while the probe is out.
    const during = events.slice(events.indexOf("probe started"), events.indexOf("probe answered"));
    expect(during.filter((event) => event === "file").length).toBeGreaterThan(10);
    expect(events.at(-1)).toBe("probe answered");
    expect(reports.map((report) => report.id)).toEqual(["a0", "claude", "codex", "gemini", "opencode", "cursor", "hermes", "grok"]);
    expect(reports[0]!.auth).toEqual({ connected: true, mode: "external", authPath: "http://localhost:80" });
  });

  it("uses each agent's bosun.json section (binary, a0 host) and ignores the rest", async () => {
    const t = makeDetection({ reachable: true });
    const codex = t.fakeBinary("codex-nightly");
    const reports = await collectAgentReports(t.ctx, { codex: { binary: codex, model: "x" }, a0: { host: "box:9" } });
    expect(reports[2]).toMatchObject({ binary: codex, installed: true });
    expect(reports[0]!.auth.authPath).toBe("box:9");
    expect(t.probes).toEqual([["box", 9, 2000]]);
  });

  it("summarizes: counts, headline and how each is signed in", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "k" }, reachable: true });
    t.fakeBinary("claude");
    const reports = await collectAgentReports(t.ctx, undefined);
    expect(agentCounts(reports)).toEqual({ total: 8, installed: 1, signedIn: 4 });
    expect(agentsHeadline(reports)).toBe("4 of 8 agents signed in, 1 installed");
    expect(reports.map(signInLabel)).toEqual(["host reachable", "env", "no", "no", "env", "no", "env", "no"]);
  });
});
