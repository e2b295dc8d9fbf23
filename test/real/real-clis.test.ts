import { describe, expect, it } from "vitest";
import { REAL_CLIS } from "../../scripts/real-clis.mjs";
import { realCli, runRealCli } from "../fixtures/real-clis.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("the pinned real CLIs", () => {
  it.each(REAL_CLIS.map((pin) => [pin.id, pin] as const))("%s is installed at its pinned version and runs offline", async (_id, pin) => {
    const cli = realCli(pin.id);
    const t = makeTempHome();
    const run = await runRealCli(cli, ["--version"], { home: t.home });
    expect(run.timedOut).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    // grok 0.0.34 prints the version of its own package.json's "version" field as 1.0.1.
    expect(run.stdout).toContain(pin.id === "grok" ? "1.0.1" : pin.version);
  });

  it("runs them without any network: not even loopback is up", async () => {
    const t = makeTempHome();
    const node = { id: "claude" as const, version: "", bin: process.execPath };
    const run = await runRealCli(node, ["-e", "require('node:net').connect(1, '127.0.0.1').on('error', (e) => { console.log(e.code); })"], { home: t.home });
    expect(run.stdout.trim()).toBe("ENETUNREACH");
  });
});
