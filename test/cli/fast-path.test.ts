import { describe, expect, it } from "vitest";
import { UserError } from "../../src/kernel/errors.js";
import { fastPath } from "../../src/cli/fast-path.js";
import { runStatus } from "../../src/cli/status.js";
import { listAgents } from "../../src/cli/agents.js";
import { runCli } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("the fast path for frequent read commands", () => {
  it("takes exactly bosun, status and agents, each with any of --json, --quiet and --verbose", async () => {
    const normal = "normal";
    expect(await fastPath([])).toEqual({ run: runStatus, options: {}, verbosity: normal });
    expect(await fastPath(["--json"])).toEqual({ run: runStatus, options: { json: true }, verbosity: normal });
    expect(await fastPath(["-q"])).toEqual({ run: runStatus, options: {}, verbosity: "quiet" });
    expect(await fastPath(["status"])).toEqual({ run: runStatus, options: {}, verbosity: normal });
    expect(await fastPath(["status", "--json"])).toEqual({ run: runStatus, options: { json: true }, verbosity: normal });
    expect(await fastPath(["status", "--verbose", "--json"])).toEqual({ run: runStatus, options: { json: true }, verbosity: "verbose" });
    expect(await fastPath(["agents"])).toEqual({ run: listAgents, options: {}, verbosity: normal });
    expect(await fastPath(["agents", "--json", "--quiet"])).toEqual({ run: listAgents, options: { json: true }, verbosity: "quiet" });
    // Anything else goes through commander, and so does a flag given twice, in either spelling.
    for (const argv of [["status", "--nope"], ["--json", "--json"], ["agents", "login", "codex"], ["agents", "--help"], ["migrate"], ["constructor"], ["--help"], ["-q", "--quiet"]]) {
      expect(await fastPath(argv), argv.join(" ")).toBeUndefined();
    }
  });

  it("refuses --quiet with --verbose by the same rule as every other command", async () => {
    for (const argv of [["-q", "--verbose"], ["status", "--verbose", "--quiet"], ["agents", "--json", "-q", "--verbose"]]) {
      await expect(fastPath(argv), argv.join(" ")).rejects.toThrow(new UserError("--quiet and --verbose ask for opposite things; give one of them"));
    }
    const t = makeTempHome();
    expect(await runCli(["agents", "--quiet", "--verbose"], t.env, t.home)).toEqual({ code: 1, stdout: "", stderr: "bosun: --quiet and --verbose ask for opposite things; give one of them\n" });
  });

  it("prints what the same command prints through the argument parser", async () => {
    const t = makeTempHome();
    for (const [fast, parsed] of [
      [["status", "--json"], ["status", "--json", "--json"]],
      [["agents", "--json"], ["agents", "--json", "--json"]],
      [["agents"], ["agents", "--no-such-flag"]],
    ]) {
      const viaFast = await runCli(fast!, t.env, t.home);
      const viaParser = await runCli(parsed!, t.env, t.home);
      if (parsed!.includes("--no-such-flag")) {
        expect(viaParser).toMatchObject({ code: 1, stderr: expect.stringContaining("unknown option '--no-such-flag'") });
        continue;
      }
      expect(viaFast.code).toBe(0);
      expect(viaParser.stdout).toBe(viaFast.stdout);
    }
  });
});
