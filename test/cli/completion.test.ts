import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { APPROVAL_MODES } from "../../src/agent/approval/approval-policy.js";
import { listInstallRuntimes } from "../../src/runtimes/registry.js";
import { listRuntimes } from "../../src/runtimes/registry.js";
import { registerCompletion, VALUE_SOURCES } from "../../src/cli/completion.js";
import { Capture, runCli } from "../fixtures/cli.js";
import { KEYS, spawnInTerminal } from "../fixtures/pty.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const shellQuote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

async function script(t: TempHome, shell: string): Promise<string> {
  const result = await runCli(["completion", shell], t.env, t.home);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/**
 * Sources the bash script in a real bash and completes each line as bash would call `_bosun`
 * (COMP_WORDS and COMP_CWORD; the last word is the one under the cursor). One candidate list per line.
 */
function completeInBash(file: string, lines: string[][], cwd: string): string[][] {
  const driver = [
    `source ${shellQuote(file)}`,
    'c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _bosun bosun "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf "%s\\t" "${COMPREPLY[@]}"; printf "\\n"; }',
    ...lines.map((words) => `c ${words.map(shellQuote).join(" ")}`),
  ].join("\n");
  const out = execFileSync("bash", ["--norc", "--noprofile", "-c", driver], { cwd, encoding: "utf8" });
  return out.split("\n").slice(0, lines.length).map((line) => line.split("\t").filter(Boolean));
}

interface HelpListing {
  path: string[];
  commands: string[];
  flags: string[];
  /** The argument names of its usage line (`<agent>`, `[prompt...]` → `agent`, `prompt`). */
  arguments: string[];
}

/** Every command's --help, from `bosun --help` down. */
async function helpTree(t: TempHome): Promise<HelpListing[]> {
  const paths: string[][] = [[]];
  const listings: HelpListing[] = [];
  while (paths.length > 0) {
    const path = paths.shift()!;
    const listing = await helpListing(t, path);
    listings.push(listing);
    paths.push(...listing.commands.filter((name) => name !== "help").map((name) => [...path, name]));
  }
  return listings;
}

/** The subcommands and long flags `bosun <path> --help` lists (what completion must offer there), and its arguments. */
async function helpListing(t: TempHome, path: string[]): Promise<HelpListing> {
  const help = (await runCli([...path, "--help"], t.env, t.home)).stdout;
  const section = (title: string) => {
    const start = help.indexOf(`\n${title}:\n`);
    if (start < 0) return [];
    const lines = help.slice(start + title.length + 3).split("\n");
    return lines.slice(0, lines.findIndex((line) => !line.startsWith(" ")));
  };
  const usage = /^Usage: .*$/m.exec(help)![0];
  return {
    path,
    commands: section("Commands").flatMap((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1] ?? []),
    flags: section("Options").flatMap((line) => line.match(/--[a-z][\w-]*/g)?.slice(0, 1) ?? []),
    arguments: [...usage.matchAll(/[<[]([a-z][\w-]*)(?:\.\.\.)?[>\]]/g)].map((match) => match[1]!).filter((name) => name !== "options" && name !== "command"),
  };
}

/** zsh and fish come from Debian's packages (.ci/run installs them): a missing one fails, never skips. */
function shell(name: "zsh" | "fish"): string {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (found.status !== 0) throw new Error(`${name} is not installed: apt-get install -y ${name} (.ci/run does)`);
  return found.stdout.trim();
}

describe("bosun completion", () => {
  it("registers _bosun in a real bash and offers, at every command, exactly the subcommands and flags its --help lists", async () => {
    const t = makeTempHome();
    const file = t.write("bosun.bash", await script(t, "bash"));
    expect(execFileSync("bash", ["--norc", "-c", `source ${shellQuote(file)}; complete -p bosun`], { encoding: "utf8" }).trim()).toBe("complete -F _bosun bosun");

    const listings = await helpTree(t);
    expect(listings.map(({ path }) => path.join(" "))).toEqual(expect.arrayContaining(["", "agents login", "install", "completion", "models refresh"]));
    const results = completeInBash(file, listings.flatMap(({ path }) => [["bosun", ...path, ""], ["bosun", ...path, "--"]]), t.home);
    listings.forEach(({ path, commands, flags }, i) => {
      if (commands.length > 0) expect(results[2 * i], `bosun ${path.join(" ")} <TAB>`).toEqual(expect.arrayContaining(commands));
      expect(results[2 * i + 1]!.sort(), `bosun ${path.join(" ")} --<TAB>`).toEqual([...flags].sort());
    });
  });

  it("completes flag values and arguments from bosun's registries in bash, with --flag=value and comma lists", async () => {
    const t = makeTempHome();
    const file = t.write("bosun.bash", await script(t, "bash"));
    mkdirSync(join(t.home, "my-pack"));
    writeFileSync(join(t.home, "notes.txt"), "");
    const runtimeIds = listInstallRuntimes().map((runtime) => runtime.id);
    const cases: [string[], string[]][] = [
      [["bosun", "ins"], ["install"]],
      [["bosun", "install", "--scope", ""], ["global", "local"]],
      [["bosun", "install", "--scope", "=", ""], ["global", "local"]], // bash splits --scope= at the =
      [["bosun", "install", "--scope", "=", "lo"], ["local"]],
      [["bosun", "install", "--runtime", ""], runtimeIds],
      [["bosun", "install", "--runtime", "claude,co"], runtimeIds.filter((id) => id.startsWith("co")).map((id) => `claude,${id}`)],
      // A flag's value is skipped: the next word is a flag again, or the pack folder.
      [["bosun", "install", "--scope", "local", "--re"], ["--resolve"]],
      [["bosun", "install", "--scope", "local", ""], ["my-pack"]],
      [["bosun", "uninstall", ""], ["bosun", "my-pack"]],
      [["bosun", "install", "--resolve", ""], ["keep", "remove"]],
      [["bosun", "install", "--config-dir", "my"], ["my-pack"]],
      [["bosun", "run", "--mode", ""], [...APPROVAL_MODES]],
      [["bosun", "agents", "lo"], ["login"]],
      [["bosun", "agents", "login", ""], ["codex"]],
      [["bosun", "agents", "disconnect", ""], listRuntimes().map((runtime) => runtime.id)],
      [["bosun", "agents", "login", "codex", ""], []],
      [["bosun", "policy", "check", ""], ["provider.use", "model.use"]],
      [["bosun", "auth", "set", "anth"], ["anthropic"]],
      [["bosun", "models", "--provider", "op"], ["openai", "openrouter"]],
      [["bosun", "completion", ""], ["bash", "zsh", "fish"]],
      [["bosun", "help", "ins"], ["install"]],
      [["bosun", "auth", "help", ""], ["set", "remove", "list"]],
    ];
    const results = completeInBash(file, cases.map(([words]) => words), t.home);
    cases.forEach(([words, expected], i) => expect(results[i]!.sort(), words.join(" ")).toEqual([...expected].sort()));
  });

  it("prints a zsh script: #compdef, a function per command with its flags and values, that a real zsh parses and completes with", async () => {
    const t = makeTempHome();
    const text = await script(t, "zsh");
    const file = t.write("_bosun", text);
    expect(text.split("\n")[0]).toBe("#compdef bosun");
    for (const name of ["_bosun", "_bosun_install", "_bosun_agents", "_bosun_agents_login", "_bosun_models_refresh", "_bosun_completion"]) expect(text).toContain(`\n${name}() {\n`);
    expect(text).toContain("'--scope=[global (the runtime'\\''s user folder) or local (this project)]:scope:(global local)'");
    expect(text).toContain(`:runtime:_values -s , runtime ${listInstallRuntimes().map((runtime) => runtime.id).join(" ")}'`);
    expect(text).toContain("'1:shell:(bash zsh fish)'");
    expect(text).toContain("'(- *)--version[output the version number]'");
    expect(text).toContain("        login) _bosun_agents_login ;;");
    expect(text).toMatch(/compdef _bosun bosun\nfi\n$/);
    expect(spawnSync(shell("zsh"), ["-n", file], { encoding: "utf8" })).toMatchObject({ status: 0, stderr: "" });
    // A real interactive zsh with compinit (which alone can take seconds on a loaded machine), TAB pressed on its terminal.
    const zsh = spawnInTerminal([shell("zsh"), "-f", "-i"], { env: { HOME: t.home, PATH: process.env.PATH, TERM: "xterm" }, cwd: t.home, cols: 100 });
    // Typed only once zsh's line editor is up (it turns bracketed paste on): what arrives before may be dropped as it starts.
    for (const deadline = Date.now() + 40_000; !zsh.raw.includes("\u001b[?2004h"); ) {
      if (Date.now() > deadline) throw new Error(`zsh's line editor did not start within 40 s; the terminal shows: ${JSON.stringify(zsh.raw)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    zsh.type(`autoload -Uz compinit && compinit -u -D; source ${shellQuote(file)}; PS1='ready> '\r`);
    await zsh.waitFor(/ready> (?!')/, 40_000).catch((error: Error) => {
      throw new Error(`${error.message}\nraw: ${JSON.stringify(zsh.raw.slice(-1500))}`);
    });
    zsh.type("bosun install --scope \t");
    await zsh.waitFor(/global {2}local/);
    zsh.type(KEYS.ctrlC);
    await zsh.waitFor(/ready> (?!')/);
    zsh.type("bosun agents login \t");
    await zsh.waitFor("bosun agents login codex");
    zsh.type(KEYS.ctrlC);
    await zsh.waitFor(/ready> (?!')/);
    zsh.type("exit 0\r");
    expect(await zsh.exit).toBe(0);
  }, 120_000);

  it("prints a fish script: complete lines per command and flag, conditioned on the command path, that a real fish completes with", async () => {
    const t = makeTempHome();
    const text = await script(t, "fish");
    const file = t.write("bosun.fish", text);
    expect(text).toContain(`complete -c bosun -n "__bosun_at 'bosun install'" -l scope -x -a 'global local' -d 'global (the runtime\\'s user folder) or local (this project)'`);
    expect(text).toContain(`complete -c bosun -n "__bosun_at 'bosun agents' 0" -a login -d `);
    expect(text).toContain(`complete -c bosun -n "__bosun_at 'bosun agents login' 0" -a 'codex'`);
    expect(text).toContain(`complete -c bosun -n "__bosun_at 'bosun'" -s V -l version -d 'output the version number'`);
    expect(text).toContain(`-l runtime -x -a '(__bosun_list ${listInstallRuntimes().map((runtime) => runtime.id).join(" ")})'`);
    expect(text).toContain(`complete -c bosun -n "__bosun_at 'bosun install' 0" -a '(__fish_complete_directories)'`);
    // Every block that opens (function, switch, for, if) is closed.
    const opened = text.match(/^\s*(function|switch|for|if) /gm)!.length;
    expect(text.match(/^\s*end$/gm)!.length).toBe(opened);
    expect(spawnSync(shell("fish"), ["--no-execute", file], { encoding: "utf8" })).toMatchObject({ status: 0, stderr: "" });
    // What a real fish offers at a TAB, from the script alone.
    const offered = (line: string) => {
      const result = spawnSync(shell("fish"), ["--no-config", "-c", `source ${file}; complete -C ${JSON.stringify(line)}`], { encoding: "utf8", env: { ...t.env, PATH: process.env.PATH } });
      expect(result.stderr).toBe("");
      return result.stdout.split("\n").filter(Boolean).map((entry) => entry.split("\t")[0]);
    };
    expect(offered("bosun install --scope ")).toEqual(["global", "local"]);
    expect(offered("bosun agents ")).toEqual(expect.arrayContaining(["login", "disconnect"]));
    expect(offered("bosun agents login ")).toEqual(["codex"]);
    expect(offered("bosun completion ")).toEqual(["bash", "fish", "zsh"]);
  });

  it("takes every flag and argument its value sources name from the command tree (a renamed one fails here, not for users)", async () => {
    const t = makeTempHome();
    const named = new Set((await helpTree(t)).flatMap(({ path, flags, arguments: args }) => [...flags, ...args.map((name) => `${path.join(" ")} <${name}>`)]));
    expect(Object.keys(VALUE_SOURCES).filter((key) => !named.has(key))).toEqual([]);
  });

  it("still prints a script when a value source names a flag no command has", async () => {
    // Only the completion command itself: none of the flags and arguments VALUE_SOURCES names.
    const stdout = new Capture();
    const program = new Command("bosun").exitOverride();
    registerCompletion(program, { stdout, stderr: new Capture(), env: {} });
    await program.parseAsync(["completion", "bash"], { from: "user" });
    expect(stdout.text).toContain("complete -F _bosun bosun");
  });

  it("refuses a shell it has no script for, pointing at its own help", async () => {
    const t = makeTempHome();
    expect(await runCli(["completion", "tcsh"], t.env)).toEqual({
      code: 1,
      stdout: "",
      stderr: "bosun: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n(run bosun completion --help for usage)\n",
    });
    expect((await runCli(["completion", "--help"], t.env)).stdout).toContain("bosun completion bash > ~/.local/share/bash-completion/completions/bosun");
  });
});
