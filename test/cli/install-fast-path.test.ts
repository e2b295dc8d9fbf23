// `bosun install` with its usual flags runs without commander (install-argv.ts): the same action
// with the same flags, so the same output, exit code and files; a settled reinstall loads neither
// commander nor the schema and YAML libraries nor the planner.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { installArgv } from "../../src/cli/install-argv.js";
import { registerInstall, type InstallFlags } from "../../src/cli/install.js";
import { addVerbosityFlags } from "../../src/cli/verbosity.js";
import { BOSUN_BIN, Capture, runCli } from "../fixtures/cli.js";
import { filesUnder, snapshotTree } from "../fixtures/fs-snapshot.js";
import { packDir } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** What commander gives install's action for `argv` (the words after `bosun`), without running it. */
function commanderFlags(argv: string[]): { pack: string | undefined; flags: InstallFlags } {
  const program = new Command("bosun").exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  const output = { stdout: new Capture(), stderr: new Capture(), env: {} };
  registerInstall(program, output);
  addVerbosityFlags(program, output);
  let seen: { pack: string | undefined; flags: InstallFlags } | undefined;
  program.commands.find((command) => command.name() === "install")?.action((pack: string | undefined, flags: InstallFlags & { quiet?: boolean; verbose?: boolean }) => {
    // --quiet and --verbose set the output's verbosity (verbosity.ts), not install's flags.
    const { quiet: _quiet, verbose: _verbose, ...rest } = flags;
    seen = { pack, flags: rest };
  });
  program.parse(argv, { from: "user" });
  if (!seen) throw new Error(`commander ran no install for ${argv.join(" ")}`);
  return seen;
}

const G = ["--runtime", "claude", "--scope", "global"];

/** Whether main runs `argv` by the fast path (a usage error it finds there counts). */
function takesFastPath(argv: string[]): boolean {
  try {
    return installArgv(argv.slice(1)) !== undefined;
  } catch {
    return true;
  }
}

describe("bosun install without commander", () => {
  it("reads install's usual flags exactly as commander gives them to the action", () => {
    for (const argv of [
      ["install", ...G],
      ["install", "./pack", ...G, "--yes"],
      ["install", "--yes", "./pack", "--scope", "local", "--runtime", "claude"],
      ["install", ...G, "--json", "--no-verify", "--yes"],
      ["install", "--runtime", "claude", "--runtime", "codex,gemini", "--scope", "global", "--dry-run"],
      ["install", "--all-detected", "--scope", "global", "-q"],
      ["install", ...G, "--verbose"],
      ["install", "--scope", "nowhere", "--runtime", "claude"],
      ["install"],
    ]) {
      const fast = installArgv(argv.slice(1));
      expect(fast, argv.join(" ")).toBeDefined();
      expect({ pack: fast?.pack, flags: fast?.flags }, argv.join(" ")).toEqual(commanderFlags(argv));
    }
  });

  it("leaves everything else to commander", () => {
    for (const argv of [
      [...G, "--lock-timeout", "30"],
      [...G, "--status"],
      [...G, "--frozen"],
      [...G, "--check"],
      [...G, "--resolve", "keep"],
      [...G, "--config-dir", "/x"],
      ["--runtime=claude", "--scope", "global"],
      [...G, "--scope", "global"],
      [...G, "--yes", "--yes"],
      [...G, "-q", "--quiet"],
      ["a", "b", ...G],
      [...G, "--"],
      ["--runtime", "--scope", "global"],
      ["--scope"],
      [...G, "--help"],
      [...G, "-y"],
    ]) {
      expect(installArgv(argv), argv.join(" ")).toBeUndefined();
    }
  });

  it("prints, exits and writes as the same install through commander does: settled, not settled, changed pack, dry run, bad flags", async () => {
    // Twin homes: A runs each command by the fast path, B the same meaning through commander
    // (`--lock-timeout 30` is install's default, and a flag the fast path leaves to commander).
    const twins = [makeTempHome(), makeTempHome()] as const;
    const packs = twins.map((t) => {
      const dir = join(t.root, "pack");
      cpSync(packDir("demo-v1"), dir, { recursive: true });
      return dir;
    });
    // The temp folder and each run's id (time and random part) differ between the twins.
    const shown = (t: TempHome, text: string) => text.replaceAll(t.root, "<root>").replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{8}/g, "<run>");
    const both = async (words: string[]) => {
      const results = [];
      for (const [index, t] of twins.entries()) {
        const argv = ["install", packs[index] as string, ...words, ...(index === 1 ? ["--lock-timeout", "30"] : [])];
        expect(takesFastPath(argv), argv.join(" ")).toBe(index === 0);
        const before = snapshotTree(t.home);
        const result = await runCli(argv, t.env, t.home);
        results.push({ code: result.code, stdout: shown(t, result.stdout), stderr: shown(t, result.stderr), changed: JSON.stringify(before) !== JSON.stringify(snapshotTree(t.home)), files: installed(t) });
      }
      expect(results[0], words.join(" ")).toEqual(results[1]);
      return results[0] as (typeof results)[0];
    };
    const installed = (t: TempHome) => Object.fromEntries(Object.entries(filesUnder(join(t.home, ".claude"))).flatMap(([rel, text]) => (rel.split("/").some((part) => part.startsWith("bosun-")) ? [] : [[rel, shown(t, text)]])));

    expect(await both([...G, "--yes", "--no-verify"])).toMatchObject({ code: 0, changed: true });
    // Settled: the report of a reinstall with nothing to do, and not one file touched.
    const settled = await both([...G, "--yes", "--no-verify"]);
    expect(settled).toMatchObject({ code: 0, changed: false });
    expect(settled.stdout).toContain("nothing to change");
    expect(await both([...G, "--yes", "--json", "--no-verify"])).toMatchObject({ code: 0, changed: false });
    expect(await both([...G, "--dry-run"])).toMatchObject({ code: 0, changed: false });
    // Not settled: an installed file edited (kept, with a note), then the pack changed (upgraded).
    for (const t of twins) writeFileSync(join(t.home, ".claude/skills/demo-skill/SKILL.md"), "edited by hand\n");
    expect((await both([...G, "--yes", "--no-verify"])).code).toBe(0);
    for (const dir of packs) writeFileSync(join(dir, "skills/demo-skill/SKILL.md"), `${readFileSync(join(dir, "skills/demo-skill/SKILL.md"), "utf8")}\nA new line.\n`);
    expect(await both([...G, "--yes", "--no-verify", "--json"])).toMatchObject({ code: 0, changed: true });
    // Bad input: the same one line, nothing written.
    expect(await both(["--runtime", "claude", "--scope", "nowhere", "--yes"])).toMatchObject({ code: 1, stdout: "", stderr: 'bosun: --scope must be global or local, not "nowhere"\n', changed: false });
    expect(await both([...G, "--quiet", "--verbose"])).toMatchObject({ code: 1, stderr: "bosun: --quiet and --verbose ask for opposite things; give one of them\n", changed: false });
    // A change to apply without --yes and without a terminal: refused, nothing written.
    for (const dir of packs) writeFileSync(join(dir, "skills/demo-skill/SKILL.md"), `${readFileSync(join(dir, "skills/demo-skill/SKILL.md"), "utf8")}\nAnother line.\n`);
    expect(await both([...G])).toMatchObject({ code: 1, stderr: expect.stringContaining("pass --yes to do it"), changed: false });
  });

  it("a settled reinstall loads neither commander, zod, the YAML library nor the planner", () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const argv = [BOSUN_BIN, "install", pack, ...G, "--yes", "--no-verify"];
    // Every module the process resolves (ES modules, through a hook) and requires (CommonJS).
    const log = join(t.root, "loaded.txt");
    writeFileSync(join(t.root, "hooks.mjs"), `import { appendFileSync } from "node:fs";\nexport async function resolve(specifier, context, next) {\n  const found = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, found.url + "\\n");\n  return found;\n}\n`);
    writeFileSync(join(t.root, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(`file://${join(t.root, "hooks.mjs")}`)});\n`);
    writeFileSync(join(t.root, "required.cjs"), `process.on("exit", () => require("node:fs").appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join("\\n") + "\\n"));\n`);
    const run = (more: string[] = []) => {
      writeFileSync(log, "");
      const result = spawnSync(process.execPath, ["--require", join(t.root, "required.cjs"), "--import", `file://${join(t.root, "register.mjs")}`, ...argv, ...more], { env: t.env, cwd: t.home, encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      return { stdout: result.stdout, loaded: readFileSync(log, "utf8") };
    };
    const bundle = join(BOSUN_BIN, "..", "..", "dist", "bundle");
    const chunksWith = (marker: RegExp) => readdirSync(bundle).filter((name) => marker.test(readFileSync(join(bundle, name), "utf8")));
    const heavy = { commander: chunksWith(/CommanderError\d* = class extends Error/), zod: chunksWith(/\$constructor\("\$ZodError"/), planner: chunksWith(/function planRoot\(/) };
    for (const [name, chunks] of Object.entries(heavy)) expect(chunks.length, `the bundle's ${name} chunk`).toBeGreaterThan(0);

    // A first install loads the schema library and the planner; through commander (a flag the fast
    // path leaves to it), commander too: the check can fail.
    const fresh = run(["--lock-timeout", "30"]);
    expect(fresh.stdout).toContain("demo-skill");
    for (const [name, chunks] of Object.entries(heavy)) expect(chunks.some((chunk) => fresh.loaded.includes(`/${chunk}`)), name).toBe(true);
    const again = run();
    expect(again.stdout).toContain("nothing to change");
    for (const [name, chunks] of Object.entries(heavy)) expect(chunks.filter((chunk) => again.loaded.includes(`/${chunk}`)), name).toEqual([]);
    expect(again.loaded).not.toContain("/node_modules/yaml/");
  });
});
