// Eight `bosun install` processes at once on the same folder: one installs, the others wait for
// the lock and then find nothing to do (or report the lock); the tree ends up valid.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InstallFs } from "../../src/install/apply/install-fs.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { BOSUN_BIN } from "../fixtures/cli.js";
import { sha } from "../fixtures/engine.js";
import { install } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

function runBosun(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BOSUN_BIN, ...argv], { env: env as NodeJS.ProcessEnv, cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("concurrent installs", () => {
  it("8 processes on the same root: all succeed one after another (or report the lock); one journal; a valid tree", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/settings.json"), '{\n  "model": "opus"\n}\n');
    const argv = ["install", "--runtime", "claude,codex", "--scope", "global", "--yes", "--json", "--lock-timeout", "60"];
    const results = await Promise.all(Array.from({ length: 8 }, () => runBosun(argv, t.env, t.home)));
    for (const result of results) {
      if (result.code !== 0) expect(result.stderr).toMatch(/bosun-install\.lock is held by process/);
    }
    const succeeded = results.filter((result) => result.code === 0).map((result) => JSON.parse(result.stdout));
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    const statuses = succeeded.map((report) => report.targets[0].roots[0].status);
    expect(statuses.filter((status: string) => status === "changed")).toHaveLength(1);
    for (const root of [join(t.home, ".claude"), join(t.home, ".codex"), join(t.home, ".agents")]) {
      expect(existsSync(join(root, "bosun-install.lock")), root).toBe(false);
      expect(readdirSync(join(root, "bosun-journal")), root).toHaveLength(1);
      const { manifest, problems } = readManifest(nodeFs, join(root, "bosun-manifest.json"));
      expect(problems).toEqual([]);
      for (const [rel, hash] of Object.entries(manifest.files)) expect(sha(readFileSync(join(root, rel), "utf8")), rel).toBe(hash);
    }
    const settings = JSON.parse(readFileSync(join(t.home, ".claude/settings.json"), "utf8"));
    expect(settings.model).toBe("opus");
    expect(settings.hooks.SessionStart).toHaveLength(1);
  }, 60_000);
});

describe("an uninstall removing a folder while another run is about to lock it", () => {
  it("the runtime's folder gone between making it and locking it is made again, and the install goes on", async () => {
    const t = makeTempHome();
    const root = join(t.home, ".claude");
    let taken = false;
    // As if another run's uninstall removed the (empty) folder right after this run made it.
    const fs = {
      ...nodeFs,
      mkdirSync: (...args: Parameters<typeof nodeFs.mkdirSync>) => {
        const made = nodeFs.mkdirSync(...args);
        if (args[0] === root && !taken) {
          taken = true;
          nodeFs.rmdirSync(root);
        }
        return made;
      },
    } as InstallFs;
    const outcome = await install(t, { fs });
    expect(taken).toBe(true);
    expect(outcome.result.targets[0]!.roots[0]!.status).toBe("changed");
    expect(readManifest(nodeFs, join(root, "bosun-manifest.json")).manifest.createdRoot).toBe(1);
  });
});
