import { createHook } from "node:async_hooks";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { colorEnabled } from "../../src/cli/output.js";
import { createSpinner, createWaitSpinner } from "../../src/cli/spinner.js";
import { readmeFirstCommand } from "../../bench/readme-command.mjs";
import { BOSUN_BIN, Capture, runBin, runCli } from "../fixtures/cli.js";
import { spawnInTerminal } from "../fixtures/pty.js";
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
    expect(status.migrations.steps.map((s: { id: string }) => s.id)).toEqual(["10_legacy_layout", "20_agents_json_to_yaml", "30_runtime_helper_sync", "40_private_folders"]);
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

  it("suggests the flag for a word that is a flag's name, and shows help for bosun help", async () => {
    const t = makeTempHome();
    expect(await runCli(["version"], t.env)).toEqual({ code: 1, stdout: "", stderr: "bosun: unknown command 'version'\n(Did you mean --version?)\n(run bosun --help for usage)\n" });
    expect((await runCli(["agents", "help"], t.env)).stderr).toBe("bosun: unknown command 'help'\n(Did you mean --help?)\n(run bosun agents --help for usage)\n");
    expect((await runCli(["sessions", "json"], t.env)).stderr).toContain("(Did you mean --json?)");
    const help = await runCli(["help"], t.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: bosun [options] [command]");
    expect((await runCli(["help", "install"], t.env)).stdout).toContain("Usage: bosun install [options] [pack]");
  });

  it("points a usage error at the help of the command it is about, and suggests the closest subcommand", async () => {
    const t = makeTempHome();
    const cases: [string[], string][] = [
      [["instal"], "bosun: unknown command 'instal'\n(Did you mean install?)\n(run bosun --help for usage)\n"],
      [["install", "--nope"], "bosun: unknown option '--nope'\n(Did you mean --scope?)\n(run bosun install --help for usage)\n"],
      [["agents", "login"], "bosun: missing required argument 'agent'\n(run bosun agents login --help for usage)\n"],
      [["agents", "login", "codex", "--nope"], "bosun: unknown option '--nope'\n(run bosun agents login --help for usage)\n"],
      // A command with its own action and subcommands: a stray word is a mistyped subcommand.
      [["agents", "logn"], "bosun: unknown command 'logn'\n(Did you mean login?)\n(run bosun agents --help for usage)\n"],
      [["sessions", "shwo"], "bosun: unknown command 'shwo'\n(Did you mean show?)\n(run bosun sessions --help for usage)\n"],
      [["auth", "st"], "bosun: unknown command 'st'\n(Did you mean set?)\n(run bosun auth --help for usage)\n"],
      [["policy", "check", "provider.use"], "bosun: missing required argument 'resource'\n(run bosun policy check --help for usage)\n"],
      [["status", "extra"], "bosun: too many arguments for 'status'. Expected 0 arguments but got 1.\n(run bosun status --help for usage)\n"],
    ];
    for (const [argv, stderr] of cases) expect(await runCli(argv, t.env), argv.join(" ")).toEqual({ code: 1, stdout: "", stderr });
    // The help each one points at exists.
    for (const path of [["install"], ["agents", "login"], ["agents"], ["policy", "check"]]) {
      expect((await runCli([...path, "--help"], t.env)).stdout).toContain(`Usage: bosun ${path.join(" ")} [options]`);
    }
  });

  it("exits 2 for an internal error, with the stack only under BOSUN_DEBUG=1", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/a.jsonl"), "a");
    // A state folder whose name is longer than the file system allows: creating it for the
    // migrations lock fails in a way no user error covers.
    const env = { ...t.env, XDG_STATE_HOME: join(t.home, "s".repeat(300)) };
    const plain = await runCli(["status"], env, t.home);
    expect(plain.code).toBe(2);
    expect(plain.stderr.trim().split("\n")).toHaveLength(1);
    expect(plain.stderr).toMatch(/^bosun: internal error: .*\(set BOSUN_DEBUG=1 for details\)/);
    const debug = await runCli(["status"], { ...env, BOSUN_DEBUG: "1" }, t.home);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("the README's first command shows the main screen, starting bosun without npm in between", () => {
    const t = makeTempHome();
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const { command, args } = readmeFirstCommand(root);
    // npm, npx and friends start themselves before bosun on every run: 2.5–4.7× a direct start (bench/boot.mjs).
    expect(["npm", "npx", "pnpm", "yarn"]).not.toContain(command);
    const result = spawnSync(command, args, { cwd: root, env: t.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 20_000 });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^bosun ${version.replace(/\./g, "\\.")}\n\nPaths\n`));
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

// SGR colour/bold codes only (not the cursor codes a spinner also writes).
const STYLED = /\u001b\[(1|2|3[0-9])m/;

/** Everything the real bin draws on a pseudo-terminal (stdin, stdout and stderr all on it), escape sequences included. */
async function drawnOnTerminal(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<string> {
  const term = spawnInTerminal([process.execPath, BOSUN_BIN, ...argv], { env, cwd });
  expect(await term.exit, term.text()).toBe(0);
  return term.raw;
}

describe("colour", () => {
  it("FORCE_COLOR=1, 2, 3, true or empty colours output that is piped, as Node does", async () => {
    const t = makeTempHome();
    expect((await runCli(["status"], t.env, t.home)).stdout).not.toMatch(STYLED);
    for (const value of ["1", "2", "3", "true", ""]) {
      expect((await runCli(["status"], { ...t.env, FORCE_COLOR: value }, t.home)).stdout, `FORCE_COLOR=${value}`).toMatch(STYLED);
    }
    // The real bin in a pipe: Node's styleText would check process.stdout and drop the colour.
    expect(runBin(["status"], { ...t.env, FORCE_COLOR: "1" }, t.home).stdout).toMatch(STYLED);
    // FORCE_COLOR wins over NO_COLOR when both are set (Node's tty.getColorDepth rule).
    expect((await runCli(["status"], { ...t.env, FORCE_COLOR: "1", NO_COLOR: "1" }, t.home)).stdout).toMatch(STYLED);
  });

  it("a terminal is coloured unless FORCE_COLOR=0, NO_COLOR or TERM=dumb; FORCE_COLOR=1 colours even a dumb one", async () => {
    const t = makeTempHome();
    const env = { ...t.env, TERM: "xterm-256color" };
    expect(await drawnOnTerminal(["status"], env, t.home)).toMatch(STYLED);
    expect(await drawnOnTerminal(["status"], { ...env, FORCE_COLOR: "0" }, t.home)).not.toMatch(STYLED);
    expect(await drawnOnTerminal(["status"], { ...env, NO_COLOR: "1" }, t.home)).not.toMatch(STYLED);
    expect(await drawnOnTerminal(["status"], { ...env, TERM: "dumb", FORCE_COLOR: "1" }, t.home)).toMatch(STYLED);
  });

  it("decides colour from FORCE_COLOR, NO_COLOR, TERM and the stream, by Node's rules", () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    const cases: [{ isTTY: boolean }, Record<string, string>, boolean][] = [
      [tty, {}, true],
      [pipe, {}, false],
      [tty, { NO_COLOR: "1" }, false],
      [tty, { NO_COLOR: "" }, true], // no-color.org: an empty NO_COLOR is not set
      [tty, { TERM: "dumb" }, false],
      ...["1", "2", "3", "true", ""].map((value): [{ isTTY: boolean }, Record<string, string>, boolean] => [pipe, { FORCE_COLOR: value }, true]),
      ...["0", "false", "yes", "4"].map((value): [{ isTTY: boolean }, Record<string, string>, boolean] => [tty, { FORCE_COLOR: value }, false]),
      [pipe, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
      [tty, { FORCE_COLOR: "0", NO_COLOR: "" }, false],
    ];
    for (const [stream, env, expected] of cases) expect(colorEnabled(stream, env), `${stream.isTTY ? "tty" : "pipe"} ${JSON.stringify(env)}`).toBe(expected);
  });

  it("a spinner's frames follow the same rule, from the command's environment", async () => {
    const frames = async (env: Record<string, string | undefined>) => {
      const stderr = Object.assign(new Capture(), { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
      const spinner = await createSpinner({ stdout: new Capture(), stderr, env });
      spinner.show("working");
      spinner.stop();
      expect(stderr.text).toContain("working");
      return stderr.text;
    };
    expect(await frames({})).toMatch(STYLED);
    expect(await frames({ FORCE_COLOR: "0" })).not.toMatch(STYLED);
    expect(await frames({ NO_COLOR: "1" })).not.toMatch(STYLED);
  });

  it("a wait spinner that draws nothing (a pipe, CI, --quiet) starts no timer either", async () => {
    const timersStarted = (start: () => void): number => {
      let count = 0;
      const hook = createHook({ init: (_id, type) => void (type === "Timeout" && count++) }).enable();
      try {
        start();
      } finally {
        hook.disable();
      }
      return count;
    };
    const terminal = () => Object.assign(new Capture(), { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    for (const output of [
      { stdout: new Capture(), stderr: new Capture(), env: {} },
      { stdout: new Capture(), stderr: terminal(), env: { CI: "1" } },
      { stdout: new Capture(), stderr: terminal(), env: {}, verbosity: "quiet" as const },
    ]) {
      const wait = await createWaitSpinner(output);
      expect(timersStarted(() => wait.start("waiting for the model"))).toBe(0);
      wait.stop();
      expect(output.stderr.text).toBe("");
    }
    const drawn = await createWaitSpinner({ stdout: new Capture(), stderr: terminal(), env: {} });
    expect(timersStarted(() => drawn.start("waiting for the model"))).toBeGreaterThan(0);
    drawn.stop();
  });
});
