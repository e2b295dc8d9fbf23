// bosun's own files in a runtime's folder that are not what bosun wrote: a journal that is a
// folder or a FIFO, a damaged line in a committed or an interrupted journal, a manifest, install
// state or lock that is a folder or a FIFO, a runtime folder that is a file. Each is one line
// naming the path and what to do (exit 1); nothing is changed, no read waits on a FIFO, and an
// interrupted run's damaged journal never costs a file of yours.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin, runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { packDir } from "../fixtures/install.js";
import { makeFifo, makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const G = ["--runtime", "claude", "--scope", "global"];
const RUN = "2026-12-01T00-00-00-000Z-0badf00d";
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function installed(pack?: string): Promise<{ t: TempHome; root: string }> {
  const t = makeTempHome();
  const result = await runCli(["install", ...(pack ? [pack] : []), ...G, "--yes"], t.env, t.home);
  expect(result.code).toBe(0);
  return { t, root: join(t.home, ".claude") };
}

/** Every command that reads the folder: one line matching `message`, exit 1, nothing changed. */
async function refusedEverywhere(t: TempHome, message: RegExp, run: typeof runCli = runCli): Promise<void> {
  const before = snapshotTree(t.root);
  for (const argv of [["install", ...G, "--yes"], ["install", ...G, "--dry-run"], ["uninstall", ...G, "--yes"]]) {
    const result = await run(argv, t.env, t.home);
    expect([result.code, result.stderr], argv.join(" ")).toEqual([1, expect.stringMatching(message)]);
    expect(result.stderr.trim().split("\n"), argv.join(" ")).toHaveLength(1);
    expect(snapshotTree(t.root), `${argv.join(" ")}: nothing changed`).toEqual(before);
  }
}

describe("a journal bosun cannot read", () => {
  it("a folder named like a journal", async () => {
    const { t, root } = await installed();
    mkdirSync(join(root, "bosun-journal", `${RUN}.jsonl`));
    await refusedEverywhere(t, new RegExp(`^bosun: ${root}/bosun-journal/${RUN}\\.jsonl: is a folder, not one of bosun's journals; move it out of bosun-journal/, then run again\\n$`));
  });

  it("a FIFO named like a journal is not waited on (the real bin, with a timeout)", async () => {
    const { t, root } = await installed();
    makeFifo(join(root, "bosun-journal", `${RUN}.jsonl`));
    await refusedEverywhere(t, /bosun-journal\/.*\.jsonl: is a FIFO \(named pipe\), not one of bosun's journals; move it out of bosun-journal\//, async (...args) => runBin(...args));
  });

  it("bosun-journal that is a file", async () => {
    const { t, root } = await installed();
    rmSync(join(root, "bosun-journal"), { recursive: true });
    writeFileSync(join(root, "bosun-journal"), "");
    await refusedEverywhere(t, /\.claude\/bosun-journal: is not a folder; bosun keeps its journals in a folder of that name: move it out of the way, then run again/);
  });

  it("a damaged line in a committed journal", async () => {
    const { t, root } = await installed();
    const [name] = readdirSync(join(root, "bosun-journal"));
    const file = join(root, "bosun-journal", name!);
    const lines = readFileSync(file, "utf8").split("\n");
    lines.splice(2, 0, '{"op":"create","pa');
    writeFileSync(file, lines.join("\n"));
    await refusedEverywhere(t, new RegExp(`^bosun: ${file}: line 3 is damaged; the run it records was committed and is never undone, so it is only a record: delete it, then run again\\n$`));
    rmSync(file);
    expect((await runCli(["install", ...G, "--yes"], t.env, t.home)).code).toBe(0);
  });
});

describe("an interrupted run whose journal has a damaged line", () => {
  /** demo v1 installed, your edits in its agent, and a run killed part way whose journal lost line 2 (it moved your copy into its stash). */
  async function interrupted(line2: string): Promise<{ t: TempHome; root: string; journal: string; stash: string }> {
    const { t, root } = await installed(packDir("demo-v1"));
    writeFileSync(join(root, "agents/demo-agent.md"), "my edits\n");
    const journal = join(root, "bosun-journal", `${RUN}.jsonl`);
    const stash = join(root, "bosun-journal", RUN);
    mkdirSync(stash);
    renameSync(join(root, "agents/demo-agent.md"), join(stash, "1"));
    writeFileSync(join(root, "commands/extra.md"), "written by the run\n");
    mkdirSync(join(root, "newdir"));
    const begin = { op: "begin", runId: RUN, startedAt: "2026-12-01T00:00:00.000Z", pid: 1, host: "h", runtime: "claude", scope: "global", pack: "demo", bosunVersion: "0.1.0" };
    writeFileSync(journal, [JSON.stringify(begin), line2, '{"op":"create","path":"commands/extra.md"}', '{"op":"mkdir","path":"newdir"}', ""].join("\n"));
    return { t, root, journal, stash };
  }

  it("undoes once only what was recorded after the damaged line, keeps the journal and its stash (your copy is in it), and says so on every run", async () => {
    const { t, root, journal, stash } = await interrupted('{"op":"stash","path":"agents/demo-agent.md","n":1,"ho');
    const message = `bosun: ${journal}: line 2 is damaged, so bosun cannot tell what that interrupted run changed up to there; it undid the 2 changes recorded after that line and left the rest as it is; what the run had moved aside is in ${stash}/: put back what you need, then delete the journal and that folder, then run again\n`;
    const lines = readFileSync(journal, "utf8").split("\n").slice(0, -1);
    for (let run = 0; run < 3; run++) {
      const result = await runCli(["install", packDir("demo-v1"), ...G, "--yes"], t.env, t.home);
      expect([result.code, result.stderr]).toEqual([1, message]);
      // Undone on the first run only: what you wrote at those paths since is yours, and stays.
      const extra = join(root, "commands/extra.md");
      expect(existsSync(extra) ? readFileSync(extra, "utf8") : null, `run ${run}`).toBe(run === 0 ? null : "mine now\n");
      expect(existsSync(join(root, "newdir")), `run ${run}`).toBe(run > 0);
      expect(readFileSync(join(stash, "1"), "utf8")).toBe("my edits\n");
      // The journal is kept as it was, with a line saying its tail was undone.
      expect(readFileSync(journal, "utf8")).toMatch(new RegExp(`^${escape(lines.join("\n"))}\n\\{"op":"rolled-back","at":"[^"]+"\\}\n$`));
      expect(existsSync(join(root, "bosun-install.lock"))).toBe(false);
      if (run === 0) {
        t.write(join(root, "commands/extra.md"), "mine now\n");
        mkdirSync(join(root, "newdir"));
      }
    }
    rmSync(join(root, "commands/extra.md"));
    rmSync(join(root, "newdir"), { recursive: true });
    // Once you have put your copy back and removed the journal, bosun carries on with your edits.
    renameSync(join(stash, "1"), join(root, "agents/demo-agent.md"));
    rmSync(stash, { recursive: true });
    rmSync(journal);
    const result = await runCli(["install", packDir("demo-v2"), ...G, "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(readFileSync(join(root, "agents/demo-agent.md"), "utf8")).toBe("my edits\n");
  });

  it("a torn last line as well (a crash mid-write): the journal keeps every whole line, and its tail is undone once", async () => {
    const { t, root, journal } = await interrupted('{"op":"stash","path":"agents/demo-agent.md","n":1,"ho');
    const whole = readFileSync(journal, "utf8");
    writeFileSync(journal, `${whole}{"op":"create","pa`);
    for (let run = 0; run < 2; run++) {
      expect((await runCli(["install", packDir("demo-v1"), ...G, "--yes"], t.env, t.home)).stderr).toMatch(/line 2 is damaged, .* it undid the 2 changes recorded after that line/);
      expect(readFileSync(journal, "utf8")).toMatch(new RegExp(`^${escape(whole)}\\{"op":"rolled-back","at":"[^"]+"\\}\n$`));
      if (run === 0) t.write(join(root, "commands/extra.md"), "mine now\n");
    }
    expect(readFileSync(join(root, "commands/extra.md"), "utf8")).toBe("mine now\n");
  });

  it("a line that is JSON but no record bosun writes (a path out of the folder) is damaged: never undone", async () => {
    const { t, root, journal } = await interrupted('{"op":"create","path":"../../outside.txt"}');
    const outside = t.write("outside.txt", "not bosun's\n");
    const result = await runCli(["install", packDir("demo-v1"), ...G, "--yes"], t.env, t.home);
    expect([result.code, result.stderr]).toEqual([1, expect.stringContaining(`${journal}: line 2 is damaged`)]);
    expect(readFileSync(outside, "utf8")).toBe("not bosun's\n");
    expect(existsSync(join(root, "commands/extra.md"))).toBe(false);
  });
});

describe("a manifest whose names no pack could have (a project's manifest is repository content)", () => {
  it("a pack name or version, or a hook's pack, name or event, with a newline or a terminal escape is dropped and reported, never printed", async () => {
    const t = makeTempHome();
    const project = join(t.home, "clone");
    mkdirSync(join(project, ".git"), { recursive: true });
    const L = ["--runtime", "claude", "--scope", "local"];
    expect((await runCli(["install", ...L, "--yes"], t.env, project)).code).toBe(0);
    const file = join(project, ".claude/bosun-manifest.json");
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    const hook = manifest.config[0];
    manifest.packs["evil\u001b[2J\nbosun: all good"] = { version: "1.0.0", files: [] };
    manifest.packs.fine = { version: "1.0.0\u001b[31m\nred", files: [] };
    manifest.config.push({ ...hook, pack: "x\u001b]0;title\u0007" }, { ...hook, hook: "h\nh" }, { ...hook, event: "Stop\u001b[1A" });
    writeFileSync(file, JSON.stringify(manifest));
    const runs = [
      await runCli(["uninstall", "nosuchpack", ...L, "--yes"], t.env, project),
      await runCli(["install", "--status", ...L], t.env, project),
      await runCli(["install", ...L, "--yes"], t.env, project),
      await runCli(["uninstall", ...L, "--yes"], t.env, project),
    ];
    expect(runs[0]!.stderr).toBe('bosun: pack "nosuchpack" is not installed in claude local (installed: bosun 0.1.0); nothing was changed\n');
    expect(runs[1]!.stdout).toMatch(/pack "evil\\u001b\[2J\\nbosun: all good" is not valid; ignored/);
    for (const { stdout, stderr } of runs) expect(stdout + stderr).not.toMatch(/\u001b|\u0007|\nbosun: all good|\nred|h\nh/);
    expect(runs.slice(2).map((run) => run.code)).toEqual([0, 0]);
  });
});

describe("a manifest or install state that is not a file, a runtime folder that is a file", () => {
  it.each([
    ["bosun-manifest.json", "folder", /bosun-manifest\.json: is a folder, not bosun's manifest; move it out of the way, then run again/],
    ["bosun-install-state.json", "folder", /bosun-install-state\.json: is a folder, not a regular file; fix the file or move it away/],
  ])("%s that is a %s", async (name, _kind, message) => {
    const { t, root } = await installed();
    rmSync(join(root, name));
    mkdirSync(join(root, name));
    await refusedEverywhere(t, message);
  });

  it.each([
    ["bosun-manifest.json", /bosun-manifest\.json: is a FIFO \(named pipe\), not bosun's manifest; move it out of the way, then run again/],
    ["bosun-install-state.json", /bosun-install-state\.json: is a FIFO \(named pipe\), not a regular file; fix the file or move it away/],
  ])("%s that is a FIFO: refused, never waited on (the real bin, with a timeout); install --status reports it", async (name, message) => {
    const { t, root } = await installed();
    rmSync(join(root, name));
    makeFifo(join(root, name));
    await refusedEverywhere(t, message, async (...args) => runBin(...args));
    const status = runBin(["install", "--status", "--json"], t.env, t.home);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).runtimes[0].problems.join(" ")).toMatch(/is a FIFO/);
  });

  it("a config file that is a FIFO: install --status reports the hook entry as gone, without waiting", async () => {
    const { t, root } = await installed();
    rmSync(join(root, "settings.json"));
    makeFifo(join(root, "settings.json"));
    const status = runBin(["install", "--status", "--json"], t.env, t.home);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).runtimes[0].drift.config).toEqual(["settings.json: SessionStart (bosun-session-start)"]);
  });

  it("bosun-install.lock that is a FIFO or a folder: refused at once, never waited on (the real bin, with a timeout)", async () => {
    for (const [kind, problem] of [["FIFO", "is a FIFO (named pipe), not a regular file"], ["folder", "is a folder, not a regular file"]] as const) {
      const t = makeTempHome();
      const lock = join(t.home, ".claude/bosun-install.lock");
      mkdirSync(join(t.home, ".claude"));
      if (kind === "folder") mkdirSync(lock);
      else makeFifo(lock);
      const before = snapshotTree(t.root);
      const result = runBin(["install", ...G, "--yes"], t.env, t.home);
      expect([result.code, result.stderr]).toEqual([1, `bosun: ${lock}: ${problem}; move it out of the way, then run again\n`]);
      expect(snapshotTree(t.root)).toEqual(before);
    }
  });

  it("the runtime's folder is a file", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude"), "not a folder\n");
    await refusedEverywhere(t, /\.claude: is not a folder, and Claude Code keeps its user configuration in a folder of that name; move it out of the way, then run again/);
  });
});
