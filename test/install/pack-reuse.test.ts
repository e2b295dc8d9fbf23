// One command's preview and run share the pack they load (pack-reuse.ts): the second load is the
// first one's pack only while nothing it looked at changed, and never for a pack changed just before.
import * as nodeFs from "node:fs";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildDesired, type DesiredInputs } from "../../src/install/plan/desired.js";
import { loadPack, type LoadedPack } from "../../src/install/pack/load-pack.js";
import { PackReuse } from "../../src/install/pack/pack-reuse.js";
import { getInstallRuntime } from "../../src/runtimes/registry.js";
import { install, installOptions } from "../fixtures/install.js";
import { supportPack, writePackFile } from "../fixtures/support-pack.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { installPack } from "../../src/install/install-pack.js";

/** A clock past the settle time of files written now. */
const later = () => Date.now() + 10_000;

function counted(dir: string, options = {}) {
  let loads = 0;
  return { load: () => (loads++, loadPack(dir, options)), loads: () => loads };
}

describe("PackReuse", () => {
  it("gives the same pack while nothing the load looked at changed", () => {
    const dir = supportPack(join(makeTempHome().root, "kit"));
    const reuse = new PackReuse(later);
    const { load, loads } = counted(dir);
    const first = reuse.pack(dir, {}, nodeFs, load);
    expect(reuse.pack(dir, {}, nodeFs, load)).toBe(first);
    expect(reuse.pack(dir, {}, nodeFs, load)).toBe(first);
    expect(loads()).toBe(1);
    // Other load options, or another folder, load again.
    expect(reuse.pack(dir, { maxFileBytes: 1_000_000 }, nodeFs, load)).not.toBe(first);
    expect(loads()).toBe(2);
  });

  it("loads again after any change to what the load looked at", () => {
    const changes: [string, (dir: string) => void, (pack: LoadedPack) => unknown][] = [
      ["a skill's text", (dir) => writePackFile(dir, "skills/kit-skill/SKILL.md", `${readFileSync(join(dir, "skills/kit-skill/SKILL.md"), "utf8")}More.\n`), (pack) => pack.skills[0]?.files.find((file) => file.rel === "SKILL.md")?.size],
      ["a support file's text", (dir) => writePackFile(dir, "files/references/rules.md", "Other rules, longer than before.\n"), (pack) => pack.files.find((file) => file.rel === "references/rules.md")?.size],
      ["a support file added", (dir) => writePackFile(dir, "files/references/new.md", "New.\n"), (pack) => pack.files.length],
      ["a support file removed", (dir) => rmSync(join(dir, "files/references/rules.md")), (pack) => pack.files.length],
      ["a file made executable", (dir) => chmodSync(join(dir, "files/references/rules.md"), 0o755), (pack) => pack.files.find((file) => file.rel === "references/rules.md")?.mode],
      ["pack.json", (dir) => writeFileSync(join(dir, "pack.json"), readFileSync(join(dir, "pack.json"), "utf8").replace('"1.0.0"', '"1.0.1"')), (pack) => pack.version],
    ];
    for (const [what, change, seen] of changes) {
      const dir = supportPack(join(makeTempHome().root, "kit"));
      const reuse = new PackReuse(later);
      const { load, loads } = counted(dir);
      const first = reuse.pack(dir, {}, nodeFs, load);
      change(dir);
      const second = reuse.pack(dir, {}, nodeFs, load);
      expect(loads(), what).toBe(2);
      expect(seen(second), what).not.toEqual(seen(first));
      expect(seen(second), what).toEqual(seen(loadPack(dir)));
    }
  });

  it("never reuses a pack changed just before it was loaded (its stat keys may not move yet)", () => {
    const dir = supportPack(join(makeTempHome().root, "kit"));
    const reuse = new PackReuse();
    const { load, loads } = counted(dir);
    reuse.pack(dir, {}, nodeFs, load);
    reuse.pack(dir, {}, nodeFs, load);
    expect(loads()).toBe(2);
  });

  it("builds a runtime's desired state of the same pack once per set of inputs", () => {
    const dir = supportPack(join(makeTempHome().root, "kit"));
    const reuse = new PackReuse(later);
    const pack = reuse.pack(dir, {}, nodeFs, () => loadPack(dir));
    let builds = 0;
    const build = (inputs: DesiredInputs) => (builds++, buildDesired(inputs));
    const inputs = (home: string): DesiredInputs => ({ pack, runtime: getInstallRuntime("claude"), scope: "global", rootDirs: { main: join(home, ".claude") }, vars: new Map(), helperCommand: "node /h.mjs", bosunCommand: { command: "node", args: ["/bosun/bin/bosun.js"] }, paths: { home, cwd: home } });
    const first = reuse.desired(inputs("/home/a"), build);
    expect(reuse.desired(inputs("/home/a"), build)).toBe(first);
    expect(builds).toBe(1);
    expect(reuse.desired(inputs("/home/b"), build)).not.toBe(first);
    expect(builds).toBe(2);
    // Another pack object (a load of its own) is built for, not looked up.
    expect(reuse.desired({ ...inputs("/home/a"), pack: loadPack(dir) }, build)).not.toBe(first);
    expect(builds).toBe(3);
  });

  it("a run after its preview installs the pack as it is then, not as the preview read it", async () => {
    const t = makeTempHome();
    const dir = supportPack(join(t.root, "kit"));
    const reuse = new PackReuse(later);
    const preview = await installPack({ ...installOptions(t, { pack: dir }), dryRun: true, reuse });
    expect(preview.result.targets[0]?.roots[0]?.status).toBe("planned");
    // A file the install rewrites ({pack-dir} in it), so its bytes come from a read, not a copy.
    writePackFile(dir, "files/workflows/plan.md", "# Plan changed after the preview\n\nSee {pack-dir}/references/rules.md.\n");
    await installPack({ ...installOptions(t, { pack: dir }), reuse });
    expect(readFileSync(join(t.home, ".claude/kit/workflows/plan.md"), "utf8")).toBe(`# Plan changed after the preview\n\nSee ~/.claude/kit/references/rules.md.\n`);
    // And an unchanged pack installs the same either way.
    const other = makeTempHome();
    const same = supportPack(join(other.root, "kit"));
    await installPack({ ...installOptions(other, { pack: same }), dryRun: true, reuse });
    await installPack({ ...installOptions(other, { pack: same }), reuse });
    const plain = makeTempHome();
    await install(plain, { pack: supportPack(join(plain.root, "kit")) });
    expect(readFileSync(join(other.home, ".claude/agents/kit-agent.md"), "utf8")).toBe(readFileSync(join(plain.home, ".claude/agents/kit-agent.md"), "utf8").replaceAll(plain.home, other.home));
  });
});
