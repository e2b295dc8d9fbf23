// For every k, the k-th file-system change of an upgrade fails: the tree must come back byte
// for byte (every file's bytes and mode, every folder's mode, every symlink's target), or, when
// the failure hits after the commit, the upgrade must be complete.
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InstallFailedError } from "../../src/install/install-errors.js";
import { failingFs, install, packDir, treeState, uninstall, watchedFs } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

// A fixed clock and run ids that differ per run, so two trees can be compared.
let runs = 0;
const fixed = { now: () => new Date("2026-12-01T00:00:00.000Z"), random: () => String(++runs % 2).padStart(8, "0") };

/** v1 installed, plus what a user adds: their own settings (CRLF), an edited file, a file and a symlink of theirs. */
async function installedV1(): Promise<TempHome> {
  const t = makeTempHome();
  const root = join(t.home, ".claude");
  t.write(join(root, "settings.json"), '{\r\n  "model": "opus" // mine\r\n}\r\n');
  await install(t, { pack: packDir("demo-v1"), ...fixed });
  writeFileSync(join(root, "agents/demo-agent.md"), "my edits\n");
  t.write(join(root, "skills/demo-skill/references/deep/mine.md"), "mine\n");
  symlinkSync("../notes.md", join(root, "skills/demo-skill/references/deep/link.md"));
  t.write(join(t.home, "outside/secret.txt"), "do not touch\n");
  return t;
}

/**
 * What identifies a completed run: every path, and every file's bytes except the manifest (it
 * holds times and inodes), without the journals. A folder holding nothing else does not count: a
 * folder whose removal fails is left in place by design (remove-empty-dir never fails an install),
 * and so is one whose journal the tidying after the commit could not remove.
 */
function completed(tree: Record<string, string>): Record<string, string> {
  const kept = Object.entries(tree).filter(([path]) => !path.includes("bosun-journal"));
  const empty = (path: string, state: string) => state.startsWith("dir") && !kept.some(([other, what]) => other.startsWith(path + "/") && !what.startsWith("dir"));
  return Object.fromEntries(kept.filter(([path, state]) => !empty(path, state)).map(([path, state]) => [path, path.endsWith("bosun-manifest.json") ? "manifest" : state]));
}

describe("fault injection: the k-th write of an upgrade fails", () => {
  it("for every k: the tree is byte-identical to before, or the upgrade is complete", async () => {
    const reference = await installedV1();
    const counter = watchedFs(() => {});
    await install(reference, { pack: packDir("demo-v3"), fs: counter, ...fixed });
    const writes = counter.writes();
    const after = completed(treeState(reference.root));
    expect(writes).toBeGreaterThan(30);

    let rolledBack = 0;
    for (let k = 1; k <= writes; k++) {
      const t = await installedV1();
      const before = treeState(t.root);
      let failed: unknown = null;
      try {
        await install(t, { pack: packDir("demo-v3"), fs: failingFs(k), ...fixed });
      } catch (error) {
        failed = error;
      }
      if (failed) {
        expect(failed, `write ${k}`).toBeInstanceOf(InstallFailedError);
        expect((failed as InstallFailedError).failures, `write ${k}`).toEqual([]);
        expect(treeState(t.root), `write ${k} failed: the tree must be as before`).toEqual(before);
        rolledBack++;
      } else expect(completed(treeState(t.root)), `write ${k} hit after the commit: the upgrade must be complete`).toEqual(after);
    }
    // Nearly every write happens before the commit; only the tidying after it may fail harmlessly.
    expect(rolledBack).toBeGreaterThan(writes - 10);
  });

  it("a fresh install (folders created, hook helper copied) and an uninstall: the same for every k", async () => {
    for (const scenario of ["fresh", "uninstall"] as const) {
      const counter = watchedFs(() => {});
      const reference = makeTempHome();
      if (scenario === "uninstall") await install(reference, { runtimes: ["claude", "codex"], ...fixed });
      if (scenario === "fresh") await install(reference, { runtimes: ["claude", "codex"], fs: counter, ...fixed });
      else await uninstall(reference, { runtimes: ["claude", "codex"], fs: counter, ...fixed });
      const writes = counter.writes();
      expect(writes).toBeGreaterThan(10);
      // The install state holds stat keys and run ids: not compared. The config files name the
      // hook helper by its path in each home: compared with that path as `~`.
      const done = (t: TempHome) =>
        Object.fromEntries(
          Object.entries(completed(treeState(t.root)))
            .filter(([path]) => !path.endsWith("bosun-install-state.json"))
            .map(([path, state]) => [path, /(settings|hooks)\.json$/.test(path) ? readFileSync(join(t.root, path), "utf8").replaceAll(t.home, "~") : state]),
        );
      const after = done(reference);
      for (let k = 1; k <= writes; k++) {
        const t = makeTempHome();
        if (scenario === "uninstall") await install(t, { runtimes: ["claude", "codex"], ...fixed });
        const before = treeState(t.root);
        const run = scenario === "fresh" ? install : uninstall;
        const failed = await run(t, { runtimes: ["claude", "codex"], fs: failingFs(k), ...fixed }).then(
          () => null,
          (error: unknown) => error,
        );
        // A failure before the run starts (creating the folder for the lock) is reported as it is; either way nothing stays.
        if (failed) expect(treeState(t.root), `${scenario} write ${k} failed (${(failed as Error).message}): the tree must be as before`).toEqual(before);
        else expect(done(t), `${scenario} write ${k} hit after the commit: the run must be complete`).toEqual(after);
      }
    }
    // Two runs per write of two runs (a hundred-odd): far longer than one test's default.
  }, 180_000);
});
