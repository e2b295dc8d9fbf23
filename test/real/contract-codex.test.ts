// The real Codex 0.171 is the judge of the config bosun writes for it: no deprecated
// `[features].codex_hooks` (its strict config check passes, and `codex exec` reports no
// deprecation item), and an older install loses the flag on the next install.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildInstallReport } from "../../src/install/report.js";
import { install, ownPackWithoutMcp } from "../fixtures/install.js";
import { realCli, runRealCli, type RealCli } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const MODEL_401 = fileURLToPath(new URL("../fixtures/model-401-server.mjs", import.meta.url));
// Codex takes the model server's URL only in its provider config: the shell puts it there.
const EXEC = 'exec "$0" exec --json --skip-git-repo-check -c model_provider=mock -c "model_providers.mock={name=\\"mock\\",base_url=\\"$MOCK_URL/v1\\",env_key=\\"MOCK_KEY\\",wire_api=\\"responses\\",request_max_retries=0,stream_max_retries=0}" hello';
const DEPRECATION = /codex_hooks/;

/** `codex exec` against a scripted 401 server, in a network namespace with only loopback up. */
function codexExec(cli: RealCli, t: TempHome) {
  const shell = { ...cli, bin: "/bin/sh" };
  return runRealCli(shell, ["-c", 'ip link set lo up && exec node "$0" "$@"', MODEL_401, "MOCK_URL", "/bin/sh", "-c", EXEC, cli.bin], { home: t.home, cwd: t.home, env: { MOCK_KEY: "sk-test-scripted" }, timeoutMs: 60_000 });
}

/** The items `codex exec --json` printed that are errors (the deprecation comes as one). */
function errorItems(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string; item?: { type: string; message?: string } })
    .filter((event) => event.type === "item.completed" && event.item?.type === "error")
    .map((event) => event.item?.message ?? "");
}

describe("the config contract bosun writes for the real Codex 0.171", () => {
  it("passes codex's strict config check, and codex exec prints no deprecation item; an older install's flag is removed", async () => {
    const cli = realCli("codex");
    const t = makeTempHome();
    const config = join(t.home, ".codex", "config.toml");
    // An install made for an older Codex (0.120 wants the flag), with a config line of the user's.
    const old = join(t.root, "old-bin");
    mkdirSync(old);
    writeFileSync(join(old, "codex"), '#!/bin/sh\necho "codex-cli 0.120.0"\n');
    chmodSync(join(old, "codex"), 0o755);
    // bosun's own pack without its MCP server, whose table would hold the user's lines added below.
    const pack = ownPackWithoutMcp(join(t.root, "own-pack"));
    await install(t, { runtimes: ["codex"], cacheDir: t.paths.cache, pack, env: { ...t.env, PATH: `${old}${delimiter}${t.env.PATH}` } });
    const mine = 'model = "gpt-5"\n\n[tui]\nanimations = false\n';
    writeFileSync(config, readFileSync(config, "utf8") + mine);
    expect(readFileSync(config, "utf8")).toContain("features.codex_hooks = true");
    // The flag bosun wrote for 0.120 is what the real 0.171 complains about, on every exec.
    const before = await codexExec(cli, t);
    expect(before.timedOut).toBe(false);
    expect(errorItems(before.stdout).filter((message) => DEPRECATION.test(message))).toHaveLength(1);

    // Now the real Codex is on PATH: bosun reads 0.171.0 from its package.json and drops the flag.
    const outcome = await install(t, { runtimes: ["codex"], cacheDir: t.paths.cache, pack, env: { ...t.env, PATH: `${dirname(cli.bin)}${delimiter}${t.env.PATH}` } });
    expect(buildInstallReport(outcome, false).targets[0]?.cli).toEqual({ path: cli.bin, version: cli.version, from: "package.json", contract: "0.124.0 and newer" });
    expect(readFileSync(config, "utf8")).toBe(mine);

    const strict = await runRealCli(cli, ["app-server", "--strict-config", "--print-startup-config"], { home: t.home, timeoutMs: 30_000 });
    expect(strict.code, strict.stdout + strict.stderr).toBe(0);
    expect(JSON.parse(strict.stdout.trim().split("\n")[0] as string)).toMatchObject({ appServerVersion: cli.version });
    const after = await codexExec(cli, t);
    expect(after.timedOut).toBe(false);
    // It reached the scripted server (the run is real), and said nothing about the config.
    expect(after.stdout).toContain("401");
    expect(errorItems(after.stdout).filter((message) => DEPRECATION.test(message))).toEqual([]);
  }, 180_000);
});
