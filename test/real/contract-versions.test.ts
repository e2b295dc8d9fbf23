// bosun reads each real CLI's version from the npm package its binary belongs to (true where
// `--version` is slow, as Gemini's, or wrong, as the npm grok's 1.0.1), and the contract editions
// name the real CLIs they were checked against.
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { REAL_CLIS } from "../../scripts/real-clis.mjs";
import { readCliVersions } from "../../src/install/cli-version-read.js";
import { chooseEdition } from "../../src/runtimes/kit/cli-version.js";
import { listInstallRuntimes } from "../../src/runtimes/registry.js";
import { realCli } from "../fixtures/real-clis.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("the real CLIs' versions", () => {
  it("are read from their npm package.json, without running them (grok's is 0.0.34, not the 1.0.1 it prints)", async () => {
    const t = makeTempHome();
    const clis = REAL_CLIS.map((pin) => realCli(pin.id));
    // Not on PATH: the binaries are named by path, as `bosun.json` `agents.<id>.binary` would.
    const readings = await readCliVersions(
      clis.map((cli) => ({ id: cli.id, binary: cli.bin })),
      { env: { PATH: dirname(process.execPath) }, cwd: t.home, cacheDir: t.paths.cache, timeoutMs: 1 },
    );
    for (const cli of clis) expect(readings.get(cli.id), cli.id).toEqual({ kind: "read", path: cli.bin, version: cli.version, from: "package.json" });
  });

  it("each runtime's newest contract edition was checked against the pinned real CLI, so it gets no note", async () => {
    const withCli = listInstallRuntimes().filter((runtime) => runtime.installSurface.cli);
    expect(withCli.map((runtime) => runtime.id).sort()).toEqual(["claude", "codex", "gemini", "opencode"]);
    for (const runtime of withCli) {
      const cli = realCli(runtime.id as "claude");
      const contract = runtime.installSurface.cli!;
      expect(contract.editions.at(-1)!.verified, runtime.id).toContain(cli.version);
      const choice = chooseEdition(runtime.title, contract, { kind: "read", path: cli.bin, version: cli.version, from: "package.json" });
      expect(choice, runtime.id).toEqual({ edition: contract.editions.at(-1), note: null });
    }
  });
});
