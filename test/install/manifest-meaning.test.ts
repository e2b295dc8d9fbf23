// What "the manifest means the same" is (a run with nothing to record writes nothing): times,
// bosun's version and the stat cache do not count; files, packs, config and created files do,
// whatever their order.
import { describe, expect, it } from "vitest";
import { emptyManifest, type Manifest } from "../../src/install/records/manifest.js";
import { sameManifestMeaning } from "../../src/install/plan/next-state.js";

const HASH_A = "a".repeat(64);
const HASH_B = "b".repeat(64);

function manifest(edit: (m: Manifest) => void = () => {}): Manifest {
  const m = emptyManifest();
  Object.assign(m, { runtime: "claude", scope: "global", bosunVersion: "0.1.0", updatedAt: "2026-11-29T00:00:00.000Z" });
  m.files = { "skills/x/SKILL.md": HASH_A, "commands/y.md": HASH_B };
  m.packs = { bosun: { version: "1.0.0", installedAt: "t0", updatedAt: "t0", files: ["commands/y.md", "skills/x/SKILL.md"] } };
  m.fileStats = { "commands/y.md": { installed: "1:2:3:4" } };
  m.config = [{ kind: "hook", pack: "bosun", hook: "start", file: "settings.json", event: "SessionStart", command: "node hook.mjs" }];
  m.createdFiles = ["a.json", "b.json"];
  edit(m);
  return m;
}

describe("sameManifestMeaning", () => {
  it("ignores times, bosun's version, the stat cache and the order of files, packs and created files", () => {
    const other = manifest((m) => {
      m.bosunVersion = "0.2.0";
      m.updatedAt = "later";
      m.fileStats = {};
      m.files = { "commands/y.md": HASH_B, "skills/x/SKILL.md": HASH_A };
      m.packs = { bosun: { version: "1.0.0", installedAt: "t1", updatedAt: "t1", files: ["skills/x/SKILL.md", "commands/y.md"] } };
      m.createdFiles = ["b.json", "a.json"];
    });
    expect(sameManifestMeaning(manifest(), other)).toBe(true);
    expect(sameManifestMeaning(null, null)).toBe(true);
  });

  it.each<[string, (m: Manifest) => void]>([
    ["a changed hash", (m) => (m.files["commands/y.md"] = HASH_A)],
    ["one file more", (m) => (m.files["commands/z.md"] = HASH_A)],
    ["one file less", (m) => delete m.files["commands/y.md"]],
    ["a different list of the pack's files", (m) => (m.packs.bosun!.files = ["commands/y.md", "commands/y.md"])],
    ["a new pack version", (m) => (m.packs.bosun!.version = "1.1.0")],
    ["another pack", (m) => (m.packs.extra = { version: "1.0.0", installedAt: "", updatedAt: "", files: [] })],
    ["another config entry", (m) => m.config.push({ kind: "toml-block", file: "config.toml" })],
    ["another created file", (m) => m.createdFiles.push("c.json")],
    ["another scope", (m) => (m.scope = "local")],
  ])("tells %s apart", (_, edit) => {
    expect(sameManifestMeaning(manifest(), manifest(edit))).toBe(false);
    expect(sameManifestMeaning(manifest(edit), manifest())).toBe(false);
    expect(sameManifestMeaning(manifest(), null)).toBe(false);
  });
});
