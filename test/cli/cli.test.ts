import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { runBin, runCli } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("bosun (CLI)", () => {
  it("prints its version and help", async () => {
    const t = makeTempHome();
    expect(await runCli(["--version"], t.env)).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    const help = await runCli(["--help"], t.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: bosun");
    expect(help.stdout).toMatch(/status \[options\]/);
    expect(help.stdout).toMatch(/migrate \[options\]/);
    expect(help.stdout).toMatch(/run \[options\] \[prompt\.\.\.\]/);
    expect(help.stdout).toMatch(/sessions \[options\]/);
  });

  it("shows the status screen by default: paths, migrations, agents, installs, the catalog and the agent", async () => {
    const t = makeTempHome();
    const { code, stdout, stderr } = await runCli([], t.env, t.home);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain(`bosun ${version}`);
    expect(stdout).toMatch(/config\s+~\/\.config\/bosun/);
    expect(stdout).toMatch(/10_legacy_layout\s+nothing to do/);
    expect(stdout).toMatch(/^Agents  0 of 8 agents signed in, \d installed \(bosun agents\)$/m);
    expect(stdout).toMatch(/^Catalog  no provider available \(\d+ known\)/m);
    expect(stdout).toMatch(/^Install  no pack installed yet; 0 agent folders found: bosun install --runtime R --scope global$/m);
    expect(stdout).toMatch(/^Agent  no sessions yet; bosun run "…" starts the agent$/m);
  });

  it("ends the screen with next steps, most basic first, and drops each once it is done", async () => {
    const t = makeTempHome();
    const env = { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" };
    const first = JSON.parse((await runCli(["status", "--json"], env, t.home)).stdout);
    expect(first.next).toEqual([
      expect.stringContaining("install a coding agent"),
      expect.stringContaining("make a model available: bosun auth set PROVIDER"),
      expect.stringContaining('bosun run "'),
    ]);
    const screen = await runCli(["status"], env, t.home);
    expect(screen.stdout).toMatch(/Next steps\n  1\. install a coding agent/);

    // A model key and an agent folder: the catalog's step is gone, the pack's step appears.
    t.write(join(t.home, ".claude/settings.json"), "{}");
    const second = JSON.parse((await runCli(["status", "--json"], { ...env, OPENAI_API_KEY: "sk-test-value-1234" }, t.home)).stdout);
    expect(second.next.join("\n")).not.toContain("make a model available");
    expect(second.next).toContainEqual(expect.stringContaining("bosun install --runtime claude --scope global --dry-run"));
  });

  it("prints status as JSON with the paths in use", async () => {
    const t = makeTempHome({ bosunHome: true });
    const { code, stdout } = await runCli(["status", "--json"], t.env, t.home);
    expect(code).toBe(0);
    const status = JSON.parse(stdout);
    const home = t.env.BOSUN_HOME!;
    expect(status.paths).toEqual({ config: join(home, "config"), data: join(home, "data"), cache: join(home, "cache"), state: join(home, "state"), legacy: join(t.home, ".bosun") });
    expect(status.version).toBe(version);
    expect(status.migrations.steps.map((s: { id: string }) => s.id)).toEqual(["10_legacy_layout", "20_agents_json_to_yaml", "30_runtime_helper_sync"]);
    expect(status.subsystems.catalog).toMatchObject({ state: "attention", source: "embedded", default: null });
    expect(typeof status.summary).toBe("string");
    expect((await runCli(["--json"], t.env, t.home)).stdout).toBe(stdout);
  });

  it("announces what the startup migrations moved on stderr, once", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/a.jsonl"), "a");
    const first = await runCli(["status"], t.env, t.home);
    expect(first.stderr).toContain("bosun: 10_legacy_layout: move ~/.bosun/sessions → ~/.local/share/bosun/sessions");
    expect(first.stdout).toMatch(/10_legacy_layout\s+\d changes applied/);
    expect(existsSync(join(t.paths.state, "logs/bosun.log"))).toBe(true);
    expect(readFileSync(join(t.paths.state, "logs/bosun.log"), "utf8")).toContain("startup migration applied");
    expect((await runCli(["status"], t.env, t.home)).stderr).toBe("");
  });

  it("migrate --dry-run lists the plan and changes nothing; migrate applies it", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/a.jsonl"), "a");
    const before = snapshotTree(t.root);
    const dry = await runCli(["migrate", "--dry-run"], t.env, t.home);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("dry run: nothing was changed");
    expect(dry.stdout).toContain("would move ~/.bosun/sessions → ~/.local/share/bosun/sessions");
    expect(snapshotTree(t.root)).toEqual(before);

    const json = JSON.parse((await runCli(["migrate", "--dry-run", "--json"], t.env, t.home)).stdout);
    expect(json.dryRun).toBe(true);
    expect(json.steps[0].actions).toContainEqual({ kind: "move", describe: "move ~/.bosun/sessions → ~/.local/share/bosun/sessions" });

    const real = await runCli(["migrate"], t.env, t.home);
    expect(real.stdout).toContain("did move ~/.bosun/sessions");
    expect(real.stderr).toBe("");
    expect(readFileSync(join(t.paths.data, "sessions/a.jsonl"), "utf8")).toBe("a");
  });

  it("fails with one line naming file, line and field for an invalid config, and writes nothing", async () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.config, "bosun.json"), '{\n  "plugins": { "x": { "enabled": 1 } }\n}');
    const before = snapshotTree(t.root);
    const result = await runCli(["status"], t.env, t.home);
    expect(result).toEqual({ code: 1, stdout: "", stderr: `bosun: ${file}:2: plugins.x.enabled: expected boolean, received number\n` });
    expect(snapshotTree(t.root)).toEqual(before);
  });

  it("exits 1 with one line for an unknown command or flag", async () => {
    const t = makeTempHome();
    const command = await runCli(["frobnicate"], t.env);
    expect(command.code).toBe(1);
    expect(command.stderr).toMatch(/^bosun: unknown command 'frobnicate'/);
    const flag = await runCli(["status", "--nope"], t.env);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/^bosun: unknown option '--nope'/);
  });

  it("exits 2 for an internal error, with the stack only under BOSUN_DEBUG=1", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/a.jsonl"), "a");
    // The state folder is a file: taking the migrations lock fails in a way no user error covers.
    t.write(join(t.home, ".local/state"), "not a folder");
    const plain = await runCli(["status"], t.env, t.home);
    expect(plain.code).toBe(2);
    expect(plain.stderr.trim().split("\n")).toHaveLength(1);
    expect(plain.stderr).toMatch(/^bosun: internal error: .*\(set BOSUN_DEBUG=1 for details\)/);
    const debug = await runCli(["status"], { ...t.env, BOSUN_DEBUG: "1" }, t.home);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("runs as the installed bin: version, status and the exit code of a bad flag", () => {
    const t = makeTempHome();
    expect(runBin(["--version"], t.env)).toMatchObject({ code: 0, stdout: `${version}\n` });
    const status = runBin(["status", "--json"], t.env, t.home);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).paths.data).toBe(t.paths.data);
    expect(runBin(["--bogus"], t.env).code).toBe(1);
  });
});
