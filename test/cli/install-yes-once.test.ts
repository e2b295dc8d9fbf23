// `bosun install --yes` asks nothing, so it plans once: no preview run before the run that applies.
// Without --yes (a question to ask, or a refusal to give) the preview is planned first, as before.
import { cpSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type * as InstallPackModule from "../../src/install/install-pack.js";
import { runCli, runCliAnswering } from "../fixtures/cli.js";
import { packDir } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

/** Every installPack call the CLI makes: whether it was a dry run (a preview). */
const calls = vi.hoisted(() => [] as boolean[]);
vi.mock("../../src/install/install-pack.js", async (importOriginal) => {
  const original = await importOriginal<typeof InstallPackModule>();
  return { ...original, installPack: (options: InstallPackModule.InstallPackOptions) => (calls.push(options.dryRun), original.installPack(options)) };
});

const G = ["--runtime", "claude", "--scope", "global"];

describe("bosun install --yes", () => {
  it("runs the installer once, fresh, settled, changed or refused, with the report a preview first gave", async () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const runs = async (argv: string[]) => {
      calls.length = 0;
      const result = await runCli(argv, t.env, t.home);
      return { ...result, runs: [...calls] };
    };
    const fresh = await runs(["install", pack, ...G, "--yes", "--no-verify"]);
    expect(fresh).toMatchObject({ code: 0, runs: [false] });
    // What the pack runs is shown once, before the first write; the report after it leaves it out.
    expect(fresh.stderr).toContain("What pack demo will run in your agents");
    expect(fresh.stdout).not.toContain("What pack demo will run in your agents");
    const settled = await runs(["install", pack, ...G, "--yes", "--no-verify"]);
    expect(settled).toMatchObject({ code: 0, runs: [false] });
    expect(settled.stdout).toContain("nothing to change");
    // Nothing to change: reported as the preview was (what the pack runs, as installed, in the report).
    expect(settled.stdout).toContain("What pack demo will run in your agents: nothing new");
    const skill = join(pack, "skills", "demo-skill", "SKILL.md");
    writeFileSync(skill, `${readFileSync(skill, "utf8")}\nA new line.\n`);
    expect(await runs(["install", pack, ...G, "--yes", "--no-verify"])).toMatchObject({ code: 0, runs: [false] });
    // A file of yours where the pack now puts one, without a terminal and without --resolve: refused, nothing written.
    writeFileSync(join(pack, "skills", "demo-skill", "extra.md"), "the pack's\n");
    const yours = join(t.home, ".claude", "skills", "demo-skill", "extra.md");
    writeFileSync(yours, "mine\n");
    const refused = await runs(["install", pack, ...G, "--yes", "--no-verify"]);
    expect(refused).toMatchObject({ code: 1, runs: [false] });
    expect(refused.stderr).toContain("extra.md");
    expect(readFileSync(yours, "utf8")).toBe("mine\n");
  });

  it("without --yes the preview is planned first: shown and confirmed on a terminal, refused without one", async () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    calls.length = 0;
    const refused = await runCli(["install", pack, ...G, "--no-verify"], t.env, t.home);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("pass --yes to do it");
    expect(calls).toEqual([true]);
    calls.length = 0;
    const answered = await runCliAnswering(["install", pack, ...G, "--no-verify"], t.env, "y", t.home);
    expect(answered.code).toBe(0);
    expect(answered.asked).toContain("Apply these changes?");
    expect(calls).toEqual([true, false]);
    calls.length = 0;
    expect((await runCli(["install", pack, ...G, "--dry-run"], t.env, t.home)).code).toBe(0);
    expect(calls).toEqual([true]);
  });
});
