// What a pack may hold beyond the canonical keys: frontmatter keys that pass to the runtimes that
// know them (and are left out, with a note, elsewhere), keys no runtime knows (a warning), dotted
// names where the runtime takes them; and the bad input that is one error line with nothing written.
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FRONTMATTER_KEYS, passesTo } from "../../src/install/pack/frontmatter-keys.js";
import { loadPack } from "../../src/install/pack/load-pack.js";
import { runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install } from "../fixtures/install.js";
import { supportPack, writePackFile } from "../fixtures/support-pack.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const read = (path: string) => readFileSync(path, "utf8");

const AGENT = "---\nname: kit-agent\ndescription: The kit's agent.\ntools: Read, Bash\ncolor: green\neffort: high\ntemperature: 0.2\nmax_turns: 5\ncolour: red\n---\n\nDo the work.\n";

function agentPack(t: TempHome, agent = AGENT, name = "kit-agent"): string {
  const dir = join(t.root, "pack");
  writePackFile(dir, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { agents: [name], skills: ["kit-skill"] } }));
  writePackFile(dir, `agents/${name}.md`, agent.replace("name: kit-agent", `name: ${name}`));
  writePackFile(dir, "skills/kit-skill/SKILL.md", "---\nname: kit-skill\ndescription: A skill.\nallowed-tools:\n  - Read\n  - Bash\nargument-hint: \"<phase>\"\ndisable-model-invocation: true\n---\n\nBody.\n");
  return dir;
}

describe("frontmatter keys pass to the runtimes that know them", () => {
  it("Claude Code gets the agent as written minus the key no runtime knows; the skill byte for byte", async () => {
    const t = makeTempHome();
    const outcome = await install(t, { pack: agentPack(t) });
    expect(read(join(t.home, ".claude/agents/kit-agent.md"))).toBe(AGENT.replace("temperature: 0.2\nmax_turns: 5\ncolour: red\n", ""));
    expect(read(join(t.home, ".claude/skills/kit-skill/SKILL.md"))).toBe(read(join(t.root, "pack/skills/kit-skill/SKILL.md")));
    expect(outcome.result.warnings).toEqual([`${join(t.root, "pack/agents/kit-agent.md")}:9: frontmatter key colour is known to no runtime bosun installs into; it is left out (check its spelling)`]);
    const notes = outcome.result.targets[0]!.target.desired!.notes;
    expect(notes).toContain("Claude Code does not take the agent frontmatter key `temperature`: left out of kit-agent");
    expect(notes).toContain("Claude Code does not take the agent frontmatter key `max_turns`: left out of kit-agent");
    expect(notes.some((note) => note.includes("colour"))).toBe(false);
  });

  it("Gemini CLI's strict agent schema gets only its own keys; OpenCode its own; each drop is one note", async () => {
    const t = makeTempHome();
    const gemini = await install(t, { pack: agentPack(t), runtimes: ["gemini"] });
    expect(read(join(t.home, ".gemini/agents/kit-agent.md"))).toBe("---\nname: kit-agent\ndescription: The kit's agent.\ntemperature: 0.2\nmax_turns: 5\n---\nDo the work.\n");
    expect(read(join(t.home, ".gemini/skills/kit-skill/SKILL.md"))).toBe("---\nname: kit-skill\ndescription: A skill.\nallowed-tools:\n  - Read\n  - Bash\n---\n\nBody.\n");
    const notes = gemini.result.targets[0]!.target.desired!.notes;
    for (const key of ["color", "effort"]) expect(notes).toContain(`Gemini CLI does not take the agent frontmatter key \`${key}\`: left out of kit-agent`);
    expect(notes).toContain("Gemini CLI does not take the skill frontmatter key `argument-hint`: left out of kit-skill");

    const opencode = await install(t, { pack: agentPack(t), runtimes: ["opencode"] });
    expect(read(join(t.home, ".config/opencode/agents/kit-agent.md"))).toBe("---\ndescription: The kit's agent.\nmode: subagent\ntemperature: 0.2\n---\nDo the work.\n");
    expect(opencode.result.targets[0]!.target.desired!.notes).toContain("OpenCode does not take the agent frontmatter key `color`: left out of kit-agent");
  });

  it("a SKILL.md that is a template and loses a key is rendered, then written without it", async () => {
    const t = makeTempHome();
    const dir = agentPack(t);
    writePackFile(dir, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", templates: ["skills/**"], artifacts: { skills: ["kit-skill"], agents: ["kit-agent"] } }));
    writePackFile(dir, "skills/kit-skill/SKILL.md", "---\nname: kit-skill\ndescription: A skill.\nargument-hint: \"<phase>\"\n---\n\nFor {{runtime.title}}, version {{pack.version}}.\n");
    await install(t, { pack: dir, runtimes: ["gemini", "claude"] });
    expect(read(join(t.home, ".gemini/skills/kit-skill/SKILL.md"))).toBe("---\nname: kit-skill\ndescription: A skill.\n---\n\nFor Gemini CLI, version 1.0.0.\n");
    expect(read(join(t.home, ".claude/skills/kit-skill/SKILL.md"))).toBe("---\nname: kit-skill\ndescription: A skill.\nargument-hint: \"<phase>\"\n---\n\nFor Claude Code, version 1.0.0.\n");
  });

  it("the table: canonical keys go everywhere, Claude Code's own keys only to it", () => {
    expect(passesTo("agent", "description", "qwen")).toBe(true);
    expect(passesTo("agent", "color", "claude")).toBe(true);
    expect(passesTo("agent", "color", "opencode")).toBe(false);
    expect(passesTo("skill", "user-invocable", "codex")).toBe(false);
    expect(passesTo("agent", "colour", "claude")).toBe(false);
    for (const rules of Object.values(FRONTMATTER_KEYS)) expect(new Set(rules.map((rule) => rule.key)).size).toBe(rules.length);
  });
});

describe("dotted names", () => {
  it("Claude Code, OpenCode take a dotted agent name (file named by it)", async () => {
    const t = makeTempHome();
    const pack = agentPack(t, AGENT, "kit-agent.compact");
    await install(t, { pack, runtimes: ["claude", "opencode"] });
    expect(read(join(t.home, ".claude/agents/kit-agent.compact.md"))).toContain("name: kit-agent.compact\n");
    expect(read(join(t.home, ".config/opencode/agents/kit-agent.compact.md"))).toContain("Do the work.");
  });

  it("an agent variant (<base>.<variant>, named as its base, beside the base agent) is skipped with the reason where dots are not taken; the base installs", async () => {
    const t = makeTempHome();
    const dir = agentPack(t);
    writePackFile(dir, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { agents: ["kit-agent", "kit-agent.compact"], skills: ["kit-skill"] } }));
    writePackFile(dir, "agents/kit-agent.compact.md", AGENT.replace("Do the work.", "Do the work, briefly."));
    const outcome = await install(t, { pack: dir, runtimes: ["gemini"] });
    expect(existsSync(join(t.home, ".gemini/agents/kit-agent.md"))).toBe(true);
    expect(existsSync(join(t.home, ".gemini/agents/kit-agent.compact.md"))).toBe(false);
    expect(outcome.result.targets[0]!.target.desired!.skipped).toContainEqual({ kind: "agent", name: "kit-agent.compact", reason: "Gemini CLI takes no dots in agent names; kit-agent.compact is a variant of agent kit-agent, which is installed" });
  });
});

/** Runs `bosun install` on a broken pack: one error line matching `expected`, nothing written anywhere under the temp root. */
async function refused(t: TempHome, pack: string, expected: RegExp, runtime = "claude", watched = t.root): Promise<void> {
  const before = snapshotTree(watched);
  const result = await runCli(["install", pack, "--runtime", runtime, "--scope", "global", "--yes"], t.env, t.home);
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr.trim()).toMatch(expected);
  expect(snapshotTree(watched)).toEqual(before);
}

describe("bad input is one error line, and nothing is written", () => {
  const packOf = (t: TempHome) => supportPack(join(t.root, "pack"));
  it("a dotted agent name for Gemini CLI", async () => {
    const t = makeTempHome();
    await refused(t, agentPack(t, AGENT, "kit-agent.compact"), /kit-agent\.compact\.md: agent kit-agent\.compact: Gemini CLI refuses agent names that are not letters, digits, '-' and '_'; rename it without the dot, or install without --runtime gemini$/, "gemini");
  });

  it("an unknown path variable in text, with its line", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "files/references/rules.md", "ok\nsee {pack-root}/x\n");
    await refused(t, pack, /files\/references\/rules\.md:2: unknown path variable \{pack-root\} \(use \{pack-dir\} or \{config-dir\}\)$/);
  });

  it("{hook-dir} in text", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "commands/kit-do.md", "---\ndescription: d\n---\n\nRun {hook-dir}/x\n");
    await refused(t, pack, /kit-do\.md:5: unknown path variable \{hook-dir\} \(\{hook-dir\} is for hook commands only/);
  });

  it("an unknown placeholder in a hook command", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "hooks/kit-hook.json", JSON.stringify({ event: "session-start", command: "node {packdir}/x.js" }));
    await refused(t, pack, /kit-hook\.json: command: unknown placeholder \{packdir\} \(use \{bosun-hook\}, \{hook-dir\}, \{pack-dir\}, \{config-dir\}\)$/);
  });

  it("a shell's own ${name} in a hook command is not a placeholder", () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "hooks/kit-hook.json", JSON.stringify({ event: "session-start", command: "x=1; node {pack-dir}/hooks/start.js ${x}" }));
    expect(loadPack(pack).hooks[0]!.command).toBe("x=1; node {pack-dir}/hooks/start.js ${x}");
  });

  it("{pack-dir} in a pack without files/", async () => {
    const t = makeTempHome();
    const dir = join(t.root, "pack");
    writePackFile(dir, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { commands: ["kit-do"] } }));
    writePackFile(dir, "commands/kit-do.md", "---\ndescription: d\n---\n\nRun {pack-dir}/x\n");
    await refused(t, dir, /kit-do\.md:5: uses \{pack-dir\} but the pack has no files\/ folder/);
  });

  it("a symlink in files/", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    symlinkSync("/etc/passwd", join(pack, "files/passwd"));
    await refused(t, pack, /files\/passwd: is a symlink; a pack holds real folders and files only$/);
  });

  it("a file name with a control character", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "files/bad\u0007name.md", "x\n");
    await refused(t, pack, /files\/"bad\\u0007name\.md": its file name holds a control character; rename it$/);
  });

  it("a file name that is not UTF-8", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(Buffer.concat([Buffer.from(join(pack, "files/")), Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64])]), "x\n");
    // The pack itself cannot be listed by name here: the home folder is what must stay untouched.
    await refused(t, pack, /files\/f\uFFFD\.md: its file name is not valid UTF-8; rename it$/, "claude", t.home);
  });

  it("a file over bosun.json install.max_pack_file_bytes", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "files/big.bin", Buffer.alloc(4096, 1));
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ install: { max_pack_file_bytes: 1024 } }));
    await refused(t, pack, /files\/big\.bin: is 4096 bytes, over the limit of 1024 for one pack file; make it smaller, or raise bosun\.json install\.max_pack_file_bytes$/);
  });

  it("a bosun.json install.max_pack_file_bytes that is not a whole number", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ install: { max_pack_file_bytes: "big" } }));
    await refused(t, pack, /bosun\.json:1: install\.max_pack_file_bytes: expected number/);
  });

  it("a pack whose support folder would be a surface folder of the runtime", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "pack.json", read(join(pack, "pack.json")).replace('"name":"kit"', '"name":"skills"'));
    await refused(t, pack, /pack\/files: the pack's support files would go to skills\/, which is Claude Code's skills; rename the pack/);
  });

  it("a pack whose support folder would be bosun's own files", async () => {
    const t = makeTempHome();
    const pack = packOf(t);
    writePackFile(pack, "pack.json", read(join(pack, "pack.json")).replace('"name":"kit"', '"name":"bosun-backups"'));
    await refused(t, pack, /which is bosun's own bosun-backups; rename the pack/);
  });

  it("a known key of the wrong type", async () => {
    const t = makeTempHome();
    await refused(t, agentPack(t, AGENT.replace("max_turns: 5", "max_turns: many")), /kit-agent\.md:8: max_turns: has the wrong type: expected number/);
  });
});
