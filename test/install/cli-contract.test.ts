// `bosun install` reads the installed CLI's version (its npm package.json, else `--version`,
// cached), and writes the contract edition that version wants: Codex before 0.124 gets bosun's
// features.codex_hooks block, 0.124 and newer do not (and lose it from an older install).
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_VERSION_CACHE } from "../../src/install/cli-version-read.js";
import { buildInstallReport } from "../../src/install/report.js";
import { runCli } from "../fixtures/cli.js";
import { install, ownPackWithoutMcp, packDir, uninstall } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const FLAG = "features.codex_hooks = true";

/** A `codex` on PATH whose `--version` runs `body` (a shell script). */
function fakeCodex(t: TempHome, body: string): string {
  const bin = join(t.root, "bin");
  mkdirSync(bin, { recursive: true });
  const file = join(bin, "codex");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  t.env.PATH = `${bin}${delimiter}${process.env.PATH}`;
  return file;
}

/** The install state of a folder bosun installed into before the migration shipped. */
function forgetMigration(root: string, id: string): void {
  const file = join(root, "bosun-install-state.json");
  const state = JSON.parse(readFileSync(file, "utf8"));
  state.appliedMigrations = state.appliedMigrations.filter((entry: { id: string }) => entry.id !== id);
  delete state.settled;
  writeFileSync(file, JSON.stringify(state));
}

const config = (t: TempHome) => join(t.home, ".codex", "config.toml");
// bosun's own pack, without its MCP server (a table of its own in config.toml): only the hooks flag decides the file.
const codexInstall = (t: TempHome, extra: Parameters<typeof install>[1] = {}) => install(t, { runtimes: ["codex"], cacheDir: t.paths.cache, pack: ownPackWithoutMcp(join(t.root, "own-pack")), ...extra });
const cliOf = (outcome: Awaited<ReturnType<typeof install>>) => buildInstallReport(outcome, false).targets[0]?.cli;

describe("the Codex contract follows the installed Codex's version", () => {
  it("0.171 (the real CLI's version) gets no features.codex_hooks block and no note; 0.120 gets the block", async () => {
    const t = makeTempHome();
    fakeCodex(t, 'echo "codex-cli 0.171.0"');
    const outcome = await codexInstall(t);
    expect(existsSync(config(t))).toBe(false);
    expect(existsSync(join(t.home, ".codex", "hooks.json"))).toBe(true);
    expect(cliOf(outcome)).toEqual({ path: join(t.root, "bin", "codex"), version: "0.171.0", from: "--version", contract: "0.124.0 and newer" });
    expect(outcome.result.targets[0]!.target.desired!.notes.join("\n")).not.toMatch(/version/);

    const old = makeTempHome();
    fakeCodex(old, 'echo "codex-cli 0.120.0"');
    const oldOutcome = await codexInstall(old);
    expect(readFileSync(config(old), "utf8")).toContain(FLAG);
    expect(cliOf(oldOutcome)?.contract).toBe("0.114.0 – 0.123.x");
  });

  it("a Codex that is not installed gets the newest contract silently; a newer one gets it with a note", async () => {
    const t = makeTempHome();
    const absent = await codexInstall(t);
    expect(existsSync(config(t))).toBe(false);
    expect(cliOf(absent)).toEqual({ path: null, version: null, from: null, contract: "0.124.0 and newer" });
    expect(absent.result.targets[0]!.target.desired!.notes.some((note) => note.includes("version"))).toBe(false);

    const newer = makeTempHome();
    fakeCodex(newer, 'echo "codex-cli 0.200.1"');
    const outcome = await codexInstall(newer);
    expect(existsSync(config(newer))).toBe(false);
    expect(outcome.result.targets[0]!.target.desired!.notes[0]).toBe(
      "OpenAI Codex CLI 0.200.1 is newer than the versions bosun's contract was checked against (0.171.0): bosun wrote its newest contract (for 0.124.0 and newer)",
    );
  });

  it("a --version that hangs, prints garbage or fails costs at most the timeout and gives a note, never a failure", async () => {
    for (const [body, problem] of [
      ["sleep 30", "`codex --version` did not answer within 200 ms"],
      ["echo 'codex-cli: weird build, key sk-ant-test-PLANTED0123456789'", "`codex --version` printed no version number"],
      ["echo 0.171.0; exit 3", "`codex --version` exited with 3"],
    ] as const) {
      const t = makeTempHome();
      const path = fakeCodex(t, body);
      const outcome = await codexInstall(t, { versionTimeoutMs: 200 });
      expect(existsSync(join(t.home, ".codex", "hooks.json")), body).toBe(true);
      expect(existsSync(config(t)), body).toBe(false);
      // What the CLI printed is never shown (a planted key stays out of the report and the cache).
      const cache = join(t.paths.cache, CLI_VERSION_CACHE);
      expect(JSON.stringify(buildInstallReport(outcome, false)) + (existsSync(cache) ? readFileSync(cache, "utf8") : "")).not.toContain("PLANTED");
      // A timeout is not kept: the next run asks again.
      expect(existsSync(cache), body).toBe(body !== "sleep 30");
      expect(outcome.result.targets[0]!.target.desired!.notes[0], body).toBe(`could not tell which OpenAI Codex CLI version ${path} is (${problem}): bosun wrote its newest contract (for 0.124.0 and newer)`);
    }
  });

  it("reads the version from the npm package the binary belongs to, not from a --version that says otherwise", async () => {
    const t = makeTempHome();
    const pkg = join(t.root, "lib", "node_modules", "@openai", "codex");
    mkdirSync(join(pkg, "bin"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@openai/codex", version: "0.120.0", bin: { codex: "bin/codex.js" } }));
    writeFileSync(join(pkg, "bin", "codex.js"), "#!/bin/sh\necho 9.9.9\n");
    chmodSync(join(pkg, "bin", "codex.js"), 0o755);
    const bin = join(t.root, "bin");
    mkdirSync(bin);
    symlinkSync(join(pkg, "bin", "codex.js"), join(bin, "codex"));
    t.env.PATH = `${bin}${delimiter}${process.env.PATH}`;
    const outcome = await codexInstall(t);
    expect(cliOf(outcome)).toMatchObject({ version: "0.120.0", from: "package.json" });
    expect(readFileSync(config(t), "utf8")).toContain(FLAG);
  });

  it("keeps what it read in bosun's cache, keyed by the binary's path, size and modification time", async () => {
    const t = makeTempHome();
    const answer = t.write("answer.txt", "codex-cli 0.120.0\n");
    const path = fakeCodex(t, `cat ${answer}`);
    await codexInstall(t, { dryRun: true });
    const cache = JSON.parse(readFileSync(join(t.paths.cache, CLI_VERSION_CACHE), "utf8"));
    expect(cache.entries[path].reading).toEqual({ kind: "read", path, version: "0.120.0", from: "--version" });
    // The binary is unchanged: its answer is not asked for again.
    writeFileSync(answer, "codex-cli 0.171.0\n");
    expect(cliOf(await codexInstall(t, { dryRun: true }))?.version).toBe("0.120.0");
    // A new binary (another modification time) is asked again.
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(cliOf(await codexInstall(t, { dryRun: true }))?.version).toBe("0.171.0");
  });

  it("takes bosun's flag block out of an older install (migration 2026-12-01-codex-hooks-flag), keeping every line of yours", async () => {
    const t = makeTempHome();
    const script = fakeCodex(t, 'echo "codex-cli 0.120.0"');
    await codexInstall(t);
    forgetMigration(join(t.home, ".codex"), "2026-12-01-codex-hooks-flag");
    const withBlock = readFileSync(config(t), "utf8");
    const mine = 'model = "o3"\r\n\r\n[tui]\r\n# mine\r\nanimations = false\r\n';
    writeFileSync(config(t), withBlock + mine);
    writeFileSync(script, '#!/bin/sh\necho "codex-cli 0.171.0"\n');
    const upgrade = await codexInstall(t);
    expect(readFileSync(config(t), "utf8")).toBe(mine);
    const root = buildInstallReport(upgrade, false).targets[0]!.roots.find((entry) => entry.key === "main")!;
    expect(root.migrations).toContainEqual({ id: "2026-12-01-codex-hooks-flag", source: "engine", title: "Retire Codex's deprecated hooks flag", actions: 1 });
    expect(root.actions).toContainEqual(expect.objectContaining({ type: "rewrite-toml", path: "config.toml", migration: "2026-12-01-codex-hooks-flag" }));
    // After that the block follows the version both ways: a downgrade writes it, the next upgrade removes it.
    writeFileSync(script, '#!/bin/sh\necho "codex-cli 0.120.0"\n');
    await codexInstall(t);
    // (in the file's own line endings)
    expect(readFileSync(config(t), "utf8")).toBe(withBlock.replaceAll("\n", "\r\n") + mine);
    writeFileSync(script, '#!/bin/sh\necho "codex-cli 0.171.0"\n');
    const again = await codexInstall(t);
    expect(readFileSync(config(t), "utf8")).toBe(mine);
    expect(buildInstallReport(again, false).targets[0]!.roots[0]!.actions).toContainEqual(expect.objectContaining({ type: "rewrite-toml", path: "config.toml", reason: expect.stringContaining("Codex 0.124.0 and newer runs hooks without features.codex_hooks") }));
  });

  it("a config.toml bosun created for the flag alone goes with it, and an uninstall removes the block whatever the version", async () => {
    const t = makeTempHome();
    const script = fakeCodex(t, 'echo "codex-cli 0.120.0"');
    await codexInstall(t);
    writeFileSync(script, '#!/bin/sh\necho "codex-cli 0.171.0"\n');
    await codexInstall(t);
    expect(existsSync(config(t))).toBe(false);

    const u = makeTempHome();
    fakeCodex(u, 'echo "codex-cli 0.120.0"');
    await codexInstall(u);
    writeFileSync(config(u), readFileSync(config(u), "utf8") + "model = \"o3\"\n");
    await uninstall(u, { runtimes: ["codex"], cacheDir: u.paths.cache, pack: "bosun" });
    expect(readFileSync(config(u), "utf8")).toBe('model = "o3"\n');
  });

  it("`bosun install` prints which version it followed", async () => {
    const t = makeTempHome();
    fakeCodex(t, 'echo "codex-cli 0.171.0"');
    const run = await runCli(["install", "--runtime", "codex", "--scope", "global", "--yes"], t.env, t.home);
    // On stderr only what the pack will run (printed before applying, even with --yes): no note, no warning.
    expect(run.stderr).toMatch(/^What pack bosun will run in your agents: 1 hook, 1 MCP server, all new\n {2}OpenAI Codex CLI \(global\) {2}~\/\.codex\n {4}\+ hook bosun-session-start: SessionStart \(session-start\), in hooks\.json\n {8}node \S+ session-start\n {4}\+ mcp server bosun in config\.toml starts node \S+\/bin\/bosun\.js mcp serve\n$/);
    expect(run.stdout).toContain(`OpenAI Codex CLI 0.171.0 (${join(t.root, "bin", "codex")}): bosun follows its contract for 0.124.0 and newer`);
  });
});

describe("the install report's hook-helper line", () => {
  it("is absent when no hook runs bosun's helper, so it never claims a file that is not there", async () => {
    const t = makeTempHome();
    const outcome = await install(t, { pack: packDir("demo-v1") });
    expect(outcome.result.helper).toBeNull();
    expect(existsSync(join(t.paths.data, "bin", "bosun-hook.mjs"))).toBe(false);
    const run = await runCli(["install", packDir("demo-v1"), "--runtime", "gemini", "--scope", "global", "--yes"], t.env, t.home);
    expect(run.stdout).not.toContain("Hook helper");
    expect(run.stdout).not.toContain("already there");
  });

  it("says installed, then already there, for bosun's own pack whose hook runs the helper", async () => {
    const t = makeTempHome();
    const first = await install(t);
    expect(first.result.helper).toEqual({ path: join(t.paths.data, "bin", "bosun-hook.mjs"), installed: true });
    const second = await install(t, { runtimes: ["gemini"] });
    expect(second.result.helper).toEqual({ path: join(t.paths.data, "bin", "bosun-hook.mjs"), installed: false });
    expect(existsSync(second.result.helper!.path)).toBe(true);
  });
});

describe("a Claude Code settings file with comments", () => {
  it("is warned about in the plan, with where the hook can go instead (Claude Code ignores all of it)", async () => {
    const t = makeTempHome();
    t.write("home/.claude/settings.json", '// my settings\n{ "model": "sonnet" }\n');
    const outcome = await install(t);
    const notes = outcome.result.targets[0]!.roots[0]!.plan.notes;
    expect(notes).toEqual([
      "settings.json has comments or trailing commas: Claude Code then ignores the whole file, so bosun's hook there never runs (nor anything else in it); remove them (Claude Code reads settings.json as plain JSON), or install into a project instead: bosun install --scope local puts the hook in .claude/settings.local.json",
    ]);
    // The hook is still added (your comments stay), and the warning comes back until the file is plain JSON.
    expect(readFileSync(join(t.home, ".claude", "settings.json"), "utf8")).toMatch(/^\/\/ my settings\n/);
    expect((await install(t)).result.targets[0]!.roots[0]!.plan.notes).toHaveLength(1);
    writeFileSync(join(t.home, ".claude", "settings.json"), readFileSync(join(t.home, ".claude", "settings.json"), "utf8").replace("// my settings\n", ""));
    expect((await install(t)).result.targets[0]!.roots[0]!.plan.notes).toEqual([]);
  });

  it("a plain settings file, or a trailing comma in a project's settings.local.json, is told apart", async () => {
    const t = makeTempHome();
    t.write("home/.claude/settings.json", '{ "model": "sonnet" }\n');
    expect((await install(t)).result.targets[0]!.roots[0]!.plan.notes).toEqual([]);
    const project = join(t.root, "proj");
    t.write("proj/.claude/settings.local.json", '{ "model": "sonnet", }\n');
    const local = await install(t, { scope: "local", cwd: project });
    expect(local.result.targets[0]!.roots[0]!.plan.notes[0]).toMatch(/^settings\.local\.json has comments or trailing commas: .*Claude Code also reads \.claude\/settings\.json/);
  });
});

describe("a Gemini project install's hook command", () => {
  const commands = (settings: string) => (JSON.parse(readFileSync(settings, "utf8")).hooks.SessionStart as { hooks: { command: string }[] }[]).flatMap((group) => group.hooks.map((hook) => hook.command));

  it("names no path of this machine: the helper from \"$HOME\", a hook's own files from \"$GEMINI_PROJECT_DIR\"", async () => {
    const t = makeTempHome();
    const project = join(t.root, "proj");
    mkdirSync(project);
    await install(t, { runtimes: ["gemini"], scope: "local", cwd: project });
    expect(commands(join(project, ".gemini", "settings.json"))).toEqual(['node "$HOME"/.local/share/bosun/bin/bosun-hook.mjs --format json session-start']);
    await install(t, { runtimes: ["gemini"], scope: "local", cwd: project, pack: packDir("demo-v1") });
    const all = commands(join(project, ".gemini", "settings.json"));
    expect(all).toContain('node "$GEMINI_PROJECT_DIR"/.gemini/hooks/demo-hook/run.mjs');
    expect(all.join("\n")).not.toContain(t.root);
    // The user-wide settings.json is this machine's own: it keeps the absolute path.
    await install(t, { runtimes: ["gemini"] });
    expect(commands(join(t.home, ".gemini", "settings.json"))[0]).toBe(`node ${join(t.paths.data, "bin", "bosun-hook.mjs")} --format json session-start`);
  });

  it("says so in the plan when bosun's data folder is outside the home folder, so the path cannot be portable", async () => {
    const t = makeTempHome();
    const project = join(t.root, "proj");
    mkdirSync(project);
    const dataDir = join(t.root, "elsewhere", "bosun");
    const outcome = await install(t, { runtimes: ["gemini"], scope: "local", cwd: project, dataDir });
    expect(commands(join(project, ".gemini", "settings.json"))).toEqual([`node ${join(dataDir, "bin", "bosun-hook.mjs")} --format json session-start`]);
    expect(outcome.result.targets[0]!.target.desired!.notes).toContain(
      `the hook command in settings.json names bosun's hook helper by this machine's path (${join(dataDir, "bin", "bosun-hook.mjs")}, outside your home folder); that file is usually committed, so on another machine the hook fails until bosun install --scope local runs there too`,
    );
  });
});
