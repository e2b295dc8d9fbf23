// A pack's `settings` (statusLine, permissions, env) as edits of the runtime's settings file:
// added and recorded, nothing written on a reinstall, replaced on an upgrade, your own entries
// kept, a value of yours a question (keep / remove, and an error without a terminal), and an
// uninstall that gives back your file byte for byte.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/install/config/json-hooks.js";
import { InstallBlockedError, NeedsChoiceError } from "../../src/install/install-errors.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { PackError } from "../../src/install/pack/pack-error.js";
import { buildInstallReport } from "../../src/install/report.js";
import { runBin } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, uninstall, watchedFs } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

interface Fragment {
  statusLine?: { command: string; padding?: number; hook?: string };
  permissions?: { allow?: string[]; deny?: string[]; ask?: string[] };
  env?: Record<string, string>;
}

/** A pack with a hook whose folder holds a status line script, and the given `settings`. */
function writePack(t: TempHome, version: string, settings: Fragment): string {
  const pack = t.write("pack/pack.json", JSON.stringify({ name: "setter", version, artifacts: { hooks: ["status"] }, settings }, null, 2));
  t.write("pack/hooks/status.json", JSON.stringify({ event: "session-start", command: "node {hook-dir}/line.mjs" }));
  t.write("pack/hooks/status/line.mjs", "console.log('status');\n");
  return join(pack, "..");
}

const V1: Fragment = {
  statusLine: { command: "node {hook-dir}/line.mjs", hook: "status" },
  permissions: { allow: ["Bash(git status:*)", "Read(./docs/**)"], deny: ["Read(./.env)"] },
  env: { SETTER_MODE: "fast" },
};

const settingsOf = (t: TempHome) => join(t.home, ".claude/settings.json");
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const settingRecords = (t: TempHome) => readManifest(nodeFs, join(t.home, ".claude/bosun-manifest.json")).manifest.config.filter((record) => record.kind === "setting");

describe("settings fragments in Claude Code", () => {
  it("adds the status line, the permission rules and env, recorded; your entries stay yours; the plan names each key", async () => {
    const t = makeTempHome();
    const mine = '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Read(./docs/**)", "Bash(ls)"]\n  }\n}\n';
    t.write(settingsOf(t), mine);
    const outcome = await install(t, { pack: writePack(t, "1.0.0", V1) });
    const root = join(t.home, ".claude");
    const settings = read(settingsOf(t));
    expect(settings.statusLine).toEqual({ type: "command", command: `node ${root}/hooks/status/line.mjs` });
    expect(settings.permissions).toEqual({ allow: ["Read(./docs/**)", "Bash(ls)", "Bash(git status:*)"], deny: ["Read(./.env)"] });
    expect(settings.env).toEqual({ SETTER_MODE: "fast" });
    // Your identical Read(./docs/**) is not recorded: it stays when the pack goes.
    expect(settingRecords(t).map((record) => (record.kind === "setting" ? `${record.path.join(".")} ${JSON.stringify(record.value)}` : ""))).toEqual([
      `statusLine ${JSON.stringify({ type: "command", command: `node ${root}/hooks/status/line.mjs` })}`,
      'permissions.allow "Bash(git status:*)"',
      'permissions.deny "Read(./.env)"',
      'env.SETTER_MODE "fast"',
    ]);
    const config = buildInstallReport(outcome, false).targets[0]!.roots[0]!.actions.filter((action) => action.group === "config");
    expect(config.map((action) => action.reason)).toEqual([
      "settings.json: adds the SessionStart hook",
      'settings.json: sets statusLine, adds permissions.allow entry "Bash(git status:*)", adds permissions.deny entry "Read(./.env)", sets env.SETTER_MODE',
    ]);
    const desired = outcome.result.targets[0]!.target.desired!.settings;
    expect(desired.map((setting) => [setting.key, setting.mode, setting.value])).toContainEqual(["permissions.allow", "entry", "Bash(git status:*)"]);

    await uninstall(t, { pack: writePack(t, "1.0.0", V1) });
    expect(readFileSync(settingsOf(t), "utf8")).toBe(mine);
  });

  it("an uninstall removes the list and the object bosun created for several entries, whichever entry made them", async () => {
    const t = makeTempHome();
    const mine = '{\n  "model": "opus"\n}\n';
    t.write(settingsOf(t), mine);
    const pack = writePack(t, "1.0.0", { permissions: { allow: ["Bash(git status:*)", "Bash(git diff:*)", "Read(./docs/**)"] } });
    await install(t, { pack });
    expect(read(settingsOf(t)).permissions).toEqual({ allow: ["Bash(git status:*)", "Bash(git diff:*)", "Read(./docs/**)"] });
    await uninstall(t, { pack });
    expect(readFileSync(settingsOf(t), "utf8")).toBe(mine);
  });

  it("in a project they go to .claude/settings.local.json (machine paths stay out of the shared settings.json)", async () => {
    const t = makeTempHome();
    const project = join(t.home, "project");
    nodeFs.mkdirSync(project);
    await install(t, { scope: "local", cwd: project, pack: writePack(t, "1.0.0", V1) });
    expect(read(join(project, ".claude/settings.local.json")).statusLine).toEqual({ type: "command", command: `node ${project}/.claude/hooks/status/line.mjs` });
    expect(existsSync(join(project, ".claude/settings.json"))).toBe(false);
  });

  it("a status line may name the pack's support folder and the config folder, resolved under CLAUDE_CONFIG_DIR too", async () => {
    const t = makeTempHome();
    const config = join(t.home, "elsewhere/claude");
    const pack = writePack(t, "1.0.0", { statusLine: { command: "node {pack-dir}/bin/line.mjs --config {config-dir}" } });
    t.write(join(pack, "files/bin/line.mjs"), "console.log('line');\n");
    await install(t, { pack, env: { ...t.env, CLAUDE_CONFIG_DIR: config } });
    const settings = read(join(config, "settings.json"));
    expect(settings.statusLine).toEqual({ type: "command", command: `node ${config}/setter/bin/line.mjs --config ${config}` });
    expect(readFileSync(join(config, "setter/bin/line.mjs"), "utf8")).toBe("console.log('line');\n");
  });

  it("a reinstall with nothing changed writes nothing", async () => {
    const t = makeTempHome();
    const pack = writePack(t, "1.0.0", V1);
    await install(t, { pack });
    const before = snapshotTree(t.home);
    const fs = watchedFs(() => {});
    const outcome = await install(t, { pack, fs });
    expect(outcome.result.targets[0]!.roots[0]!.status).toBe("unchanged");
    expect(fs.writes()).toBe(0);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("an upgrade that changes the fragment replaces bosun's old entries with the new ones, and leaves an entry you removed removed", async () => {
    const t = makeTempHome();
    await install(t, { pack: writePack(t, "1.0.0", V1) });
    // You remove the deny rule bosun added.
    const file = settingsOf(t);
    const edited = read(file);
    delete edited.permissions.deny;
    nodeFs.writeFileSync(file, JSON.stringify(edited, null, 2) + "\n");
    const upgrade = await install(t, { pack: writePack(t, "1.1.0", { statusLine: { command: "echo v2", padding: 1 }, permissions: { allow: ["Bash(npm test)"], deny: ["Read(./.env)"] }, env: { SETTER_MODE: "slow" } }) });
    expect(upgrade.result.targets[0]!.roots[0]!.plan.actions.filter((action) => action.type === "rewrite-json").map((action) => action.reason)).toEqual([
      'settings.json: removes permissions.allow entry "Bash(git status:*)", removes permissions.allow entry "Read(./docs/**)", replaces bosun\'s statusLine, adds permissions.allow entry "Bash(npm test)", replaces bosun\'s env.SETTER_MODE',
    ]);
    // Replaced in place: the keys keep their order.
    expect(Object.keys(read(file))).toEqual(["hooks", "statusLine", "permissions", "env"]);
    const settings = read(file);
    expect(settings.statusLine).toEqual({ type: "command", command: "echo v2", padding: 1 });
    expect(settings.permissions).toEqual({ allow: ["Bash(npm test)"] });
    expect(settings.env).toEqual({ SETTER_MODE: "slow" });
    await uninstall(t, { pack: writePack(t, "1.1.0", {}) });
    expect(existsSync(file)).toBe(false);
  });

  it("a status line of yours is a question: no terminal is an error and nothing is written; keep leaves yours; remove backs it up and sets the pack's", async () => {
    const t = makeTempHome();
    const mine = '{\n  "statusLine": { "type": "command", "command": "my-line" }\n}\n';
    t.write(settingsOf(t), mine);
    const pack = writePack(t, "1.0.0", { statusLine: { command: "echo pack" }, permissions: { allow: ["Bash(make)"] } });
    const before = snapshotTree(t.home);
    const error = await install(t, { pack }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NeedsChoiceError);
    expect((error as Error).message).toMatch(/^1 file bosun does not own needs your choice \(settings\.json\) and stdin is not a terminal; nothing was written/);
    expect(snapshotTree(t.home)).toEqual(before);
    // The dry run shows the question, with both values.
    const dry = buildInstallReport(await install(t, { pack, dryRun: true }), true).targets[0]!.roots[0]!.actions.find((action) => action.group === "needs-choice");
    expect(dry).toMatchObject({ path: "settings.json", choices: ["keep", "remove"], reason: 'settings.json: statusLine already set to another value (statusLine: yours {"type":"command","command":"my-line"}, the pack\'s {"type":"command","command":"echo pack"})' });

    await install(t, { pack, resolve: "keep" });
    expect(read(settingsOf(t)).statusLine).toEqual({ type: "command", command: "my-line" });
    expect(read(settingsOf(t)).permissions.allow).toEqual(["Bash(make)"]);
    expect(settingRecords(t).map((record) => (record.kind === "setting" ? record.path.join(".") : ""))).toEqual(["permissions.allow"]);

    await install(t, { pack, resolve: "remove" });
    expect(read(settingsOf(t)).statusLine).toEqual({ type: "command", command: "echo pack" });
    const backups = join(t.home, ".claude/bosun-backups");
    const [run] = readdirSync(backups);
    expect(read(join(backups, run!, "settings.json")).statusLine).toEqual({ type: "command", command: "my-line" });
    expect(settingRecords(t).map((record) => (record.kind === "setting" ? record.path.join(".") : ""))).toEqual(["permissions.allow", "statusLine"]);

    await uninstall(t, { pack });
    expect(existsSync(settingsOf(t)) ? read(settingsOf(t)) : {}).toEqual({});
  });
});

describe("settings fragments elsewhere, and bad ones", () => {
  it("Gemini skips each key with the reason; Qwen takes the permission rules only, and your comments, CRLF and trailing commas survive install and uninstall", async () => {
    const t = makeTempHome();
    const qwenFile = join(t.home, ".qwen/settings.json");
    const mine = '{\r\n\t// my qwen\r\n\t"permissions": {\r\n\t\t"allow": ["Read(./docs/**)",], // mine\r\n\t},\r\n}\r\n';
    t.write(qwenFile, mine);
    const pack = writePack(t, "1.0.0", { ...V1, statusLine: { command: "echo line" } });
    const outcome = await install(t, { runtimes: ["gemini", "qwen"], pack });
    const skipped = (id: string) => outcome.result.targets.find(({ target }) => target.runtime.id === id)!.target.desired!.skipped.filter((entry) => entry.kind === "setting").map((entry) => entry.name);
    expect(skipped("gemini")).toEqual(["statusLine", "permissions", "env"]);
    expect(skipped("qwen")).toEqual(["statusLine", "env"]);
    expect(read(join(t.home, ".gemini/settings.json")).permissions).toBeUndefined();
    const qwen = parseConfig(readFileSync(qwenFile, "utf8"));
    expect(qwen.ok && qwen.value.permissions).toEqual({ allow: ["Read(./docs/**)", "Bash(git status:*)"], deny: ["Read(./.env)"] });
    expect(readFileSync(qwenFile, "utf8")).toContain("// my qwen\r\n");
    await uninstall(t, { runtimes: ["gemini", "qwen"], pack });
    expect(readFileSync(qwenFile, "utf8")).toBe(mine);
  });

  it("a fragment of the wrong shape, or an env value that looks like a secret, is one line naming pack.json and the field; nothing is written", async () => {
    const cases: [Fragment | Record<string, unknown>, RegExp][] = [
      [{ statusLine: "echo" }, /pack\.json:\d+: settings\.statusLine: /],
      [{ permissions: { allow: "Bash" } }, /pack\.json:\d+: settings\.permissions\.allow: /],
      [{ permissions: { widen: ["Bash"] } }, /pack\.json:\d+: settings\.permissions\.widen: unknown key$/],
      [{ env: { GITHUB_TOKEN: "abc123" } }, /pack\.json: settings\.env\.GITHUB_TOKEN: looks like a secret; a pack must not carry one: write \{env:GITHUB_TOKEN\}/],
      [{ env: { MODE: "Zx8Qm3Lp0Vb7Nc4Hd2Kf6Gj9Ts1Wy5Re" } }, /settings\.env\.MODE: looks like a secret/],
      [{ statusLine: { command: "node {hook-dir}/x.mjs" } }, /settings\.statusLine\.command: uses \{hook-dir\}/],
      [{ statusLine: { command: "node {hook-folder}/x.mjs", hook: "status" } }, /pack\.json: settings\.statusLine\.command: unknown placeholder \{hook-folder\} \(use \{hook-dir\} or \{pack-dir\} or \{config-dir\}\)$/],
      [{ statusLine: { command: "node {pack-dir}/line.mjs" } }, /pack\.json: settings\.statusLine\.command: uses \{pack-dir\} but the pack has no files\/ folder/],
      [{ statusLine: { command: "echo", hook: "nope" } }, /pack\.json: settings\.statusLine\.hook: names hook nope, which artifacts\.hooks does not list$/],
    ];
    for (const [settings, message] of cases) {
      const t = makeTempHome();
      const before = snapshotTree(t.home);
      const error = await install(t, { pack: writePack(t, "1.0.0", settings as Fragment) }).catch((caught: unknown) => caught);
      expect(error, JSON.stringify(settings)).toBeInstanceOf(PackError);
      expect((error as Error).message).toMatch(message);
      expect(snapshotTree(t.home)).toEqual(before);
    }
  });

  it("an {env:NAME} reference is refused for Claude Code, which would not expand it: blocked, nothing written", async () => {
    const t = makeTempHome();
    const before = snapshotTree(t.home);
    const error = await install(t, { pack: writePack(t, "1.0.0", { env: { API_HOST: "{env:MY_HOST}" } }) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InstallBlockedError);
    expect((error as Error).message).toContain("pack.json: settings.env.API_HOST: Claude Code does not expand {env:…} references in its settings");
    expect(snapshotTree(t.home)).toEqual(before);
  });
});

describe("settings fragments through the bosun command", () => {
  it("a bad fragment is one line on stderr naming pack.json and the field, exit 1, nothing written", () => {
    const t = makeTempHome();
    const pack = writePack(t, "1.0.0", { permissions: { allow: ["not a rule"] } });
    const before = snapshotTree(t.home);
    const run = runBin(["install", pack, "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/pack\.json:\d+: settings\.permissions\.allow\[0\]: use a permission rule such as Bash\(git status:\*\)/);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("a status line of yours: without a terminal the install stops; --resolve keep installs the rest; the plan and --json name the keys", () => {
    const t = makeTempHome();
    t.write(settingsOf(t), '{ "statusLine": { "type": "command", "command": "mine" } }\n');
    const pack = writePack(t, "1.0.0", { statusLine: { command: "echo pack" }, env: { SETTER_MODE: "fast" } });
    const args = ["install", pack, "--runtime", "claude", "--scope", "global", "--yes"];
    const stopped = runBin(args, t.env, t.home);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain("needs your choice (settings.json)");
    const dry = runBin([...args, "--dry-run", "--json"], t.env, t.home);
    const actions = JSON.parse(dry.stdout).targets[0].roots[0].actions as { group: string; reason: string }[];
    expect(actions.filter((action) => action.group === "config" || action.group === "needs-choice").map((action) => `${action.group}: ${action.reason}`)).toEqual([
      "config: settings.json: adds the SessionStart hook",
      "config: settings.json: sets env.SETTER_MODE",
      'needs-choice: settings.json: statusLine already set to another value (statusLine: yours {"type":"command","command":"mine"}, the pack\'s {"type":"command","command":"echo pack"})',
    ]);
    const kept = runBin([...args, "--resolve", "keep"], t.env, t.home);
    expect(kept.code, kept.stderr).toBe(0);
    expect(read(settingsOf(t))).toMatchObject({ statusLine: { type: "command", command: "mine" }, env: { SETTER_MODE: "fast" } });
  });

  it("install --status lists a setting bosun added that is gone from the file as drift", async () => {
    const t = makeTempHome();
    await install(t, { pack: writePack(t, "1.0.0", V1) });
    const edited = read(settingsOf(t));
    delete edited.statusLine;
    edited.permissions.deny = [];
    nodeFs.writeFileSync(settingsOf(t), JSON.stringify(edited, null, 2) + "\n");
    const status = runBin(["install", "--status", "--json"], t.env, t.home);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).runtimes[0].drift.config).toEqual(["settings.json: statusLine", "settings.json: permissions.deny"]);
  });
});

