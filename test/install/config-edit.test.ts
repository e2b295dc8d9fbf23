// Config edits: bosun adds and removes only its own entries; your comments, key order,
// indentation, trailing commas, BOM and CRLF line endings survive install + uninstall byte for
// byte, in JSONC (Claude, Codex, Gemini, Cursor, Windsurf and the other settings files) and TOML (Codex's block).
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addHookEntries, hasHookEntry, parseConfig, removeHookEntries } from "../../src/install/config/json-hooks.js";
import { addTomlBlock, parseToml, removeTomlBlock, TOML_BLOCK_BEGIN } from "../../src/install/config/toml-block.js";
import type { HookConfigFormat } from "../../src/runtimes/kit/install-types.js";
import { runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, ownPackWithoutMcp, packDir, uninstall } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** A Codex from before 0.124 (its --version says 0.120.0): it is the one that gets bosun's TOML block. */
function codexNeedingTheFlag(t: TempHome): Record<string, { binary: string }> {
  const binary = t.write("old-codex/codex", '#!/bin/sh\necho "codex-cli 0.120.0"\n');
  chmodSync(binary, 0o755);
  return { codex: { binary } };
}
import { seededRandom } from "../fixtures/random.js";

const HOOK = { event: "SessionStart", command: "node '/home/me/.local/share/bosun/bin/bosun-hook.mjs' session-start", timeout: 10 };

/** A JSONC document in some user's style: indentation, line endings, comments, trailing commas, existing hooks. */
function userDocument(next: () => number, format: HookConfigFormat): string {
  const eol = next() < 0.5 ? "\r\n" : "\n";
  const unit = ["  ", "    ", "\t"][Math.floor(next() * 3)]!;
  const trailing = next() < 0.3;
  const comment = (text: string) => (next() < 0.5 ? ` // ${text}` : "");
  const props: [string, string][] = [];
  if (next() < 0.7) props.push([`"model": "opus"`, comment("my model")]);
  if (next() < 0.5) props.push([`"permissions": { "allow": ["Bash(ls:*)"] }`, ""]);
  if (next() < 0.4) {
    const entry = format === "nested" ? `{ "hooks": [ { "type": "command", "command": "echo mine" } ] }` : `{ "command": "echo mine" }`;
    const list = next() < 0.3 ? "" : entry;
    props.push([`"hooks": {${eol}${unit}${unit}"${HOOK.event}": [${list}]${eol}${unit}}`, comment("my hooks")]);
  }
  if (next() < 0.3) props.push([`"empty": {}`, comment("keep me")]);
  const header = next() < 0.5 ? `// settings${eol}` : "";
  const lines = props.map(([text, note], i) => `${unit}${text}${i < props.length - 1 || trailing ? "," : ""}${note}`);
  const body = props.length === 0 ? (next() < 0.5 ? "{}" : `{${eol}}`) : `{${eol}${lines.join(eol)}${eol}}`;
  return (next() < 0.1 ? "\ufeff" : "") + header + body + (next() < 0.8 ? eol : "");
}

describe("JSON(C) hook entries", () => {
  const formats: HookConfigFormat[] = ["nested", "cursor", "windsurf"];
  it.each(formats)("%s: add then remove gives back the document byte for byte (300 generated documents)", (format) => {
    const next = seededRandom(format.length * 7);
    const event = HOOK.event;
    for (let i = 0; i < 300; i++) {
      const original = userDocument(next, format);
      const { text: added, created, inner } = addHookEntries(original, format, [{ ...HOOK, event }]);
      const parsed = parseConfig(added);
      expect(parsed.ok, added).toBe(true);
      expect(hasHookEntry((parsed as { value: Record<string, unknown> }).value, format, event, HOOK.command)).toBe(true);
      // Every comment is still there, and everything else means the same.
      for (const comment of original.match(/\/\/[^\r\n]*/g) ?? []) expect(added).toContain(comment);
      const removed = removeHookEntries(added, format, [{ event, command: HOOK.command, created: created[0]!, ...(inner[0] ? { emptyInner: inner[0] } : {}) }]);
      expect(removed, JSON.stringify(original)).toBe(original);
    }
  });

  it("keeps your entries: only the exact command is removed, a user hook with the same script name stays", () => {
    const original = '{\n  "hooks": {\n    "SessionStart": [\n      { "hooks": [ { "type": "command", "command": "node /elsewhere/bosun-hook.mjs session-start" } ] }\n    ]\n  }\n}\n';
    const added = addHookEntries(original, "nested", [HOOK]);
    expect(added.created).toEqual([0]);
    expect(removeHookEntries(added.text, "nested", [{ event: HOOK.event, command: HOOK.command, created: 0 }])).toBe(original);
    expect(removeHookEntries(original, "nested", [{ event: HOOK.event, command: HOOK.command }])).toBe(original);
  });

  it("a group holding your hook and bosun's keeps yours; pre-existing empty structures stay", () => {
    const mixed = '{ "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "echo mine" }, { "type": "command", "command": "BOSUN" } ] } ], "Stop": [] }, "metadata": null }';
    const removed = removeHookEntries(mixed, "nested", [{ event: "SessionStart", command: "BOSUN" }]);
    const value = (parseConfig(removed) as { value: Record<string, any> }).value;
    expect(value.hooks.SessionStart[0].hooks).toEqual([{ type: "command", command: "echo mine" }]);
    expect(value.hooks.Stop).toEqual([]);
    expect(value.metadata).toBeNull();
  });

  it("a new file: Cursor's carries version 1", () => {
    expect(JSON.parse(addHookEntries(null, "cursor", [HOOK]).text)).toEqual({ version: 1, hooks: { SessionStart: [{ command: HOOK.command, timeout: 10 }] } });
  });
});

describe("the TOML block", () => {
  it("goes at the top in the file's line endings and comes out byte for byte", () => {
    for (const original of ['# mine\r\nmodel = "gpt-5"\r\n\r\n[mcp_servers.x]\r\ncommand = "x"\r\n', "\ufeffmodel = 'o3'\n", "", "[features]\nother = 1"]) {
      const added = addTomlBlock(original, ["features.codex_hooks = true"]);
      expect(added.replace(/^\ufeff/, "").startsWith(TOML_BLOCK_BEGIN)).toBe(true);
      if (original.includes("\r\n")) expect(added.split("\n").every((line, i, all) => i === all.length - 1 || line.endsWith("\r"))).toBe(true);
      expect(removeTomlBlock(added)).toBe(original);
    }
  });

  it("a block that would clash with your [features] table is detected by parsing", () => {
    expect(parseToml(addTomlBlock('model = "x"\n', ["features.codex_hooks = true"])).ok).toBe(true);
    expect(parseToml(addTomlBlock("[features]\nother = true\n", ["features.codex_hooks = true"])).ok).toBe(false);
  });
});

describe("installs and uninstalls leave your config files as they were", () => {
  it("Claude settings.json, Codex hooks.json and config.toml (CRLF, comments) survive install + uninstall byte for byte", async () => {
    const t = makeTempHome();
    const files = {
      [join(t.home, ".claude/settings.json")]: '\ufeff{\r\n\t// mine\r\n\t"model": "opus",\r\n\t"hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ] },\r\n}\r\n',
      [join(t.home, ".codex/hooks.json")]: '{\n  "hooks": {}\n}\n',
      [join(t.home, ".codex/config.toml")]: '# my codex config\r\nmodel = "gpt-5"\r\n\r\n[projects."/work"]\r\ntrust_level = "trusted"\r\n',
      [join(t.home, ".cursor/hooks.json")]: '{ "version": 1, "hooks": { "stop": [ { "command": "afplay done.aiff" } ] } }',
      [join(t.home, ".gemini/settings.json")]: '{\n    "theme": "dark"\n}',
    };
    for (const [path, content] of Object.entries(files)) t.write(path, content);
    await install(t, { runtimes: ["claude", "codex", "cursor", "gemini"], agentsConfig: codexNeedingTheFlag(t) });
    for (const path of Object.keys(files)) expect(readFileSync(path, "utf8"), path).not.toBe(files[path]);
    expect(readFileSync(join(t.home, ".codex/config.toml"), "utf8")).toMatch(/^# >>> bosun.*\r\nfeatures\.codex_hooks = true\r\n# <<< bosun <<<\r\n# my codex config/);
    await uninstall(t, { runtimes: ["claude", "codex", "cursor", "gemini"], agentsConfig: codexNeedingTheFlag(t) });
    for (const [path, content] of Object.entries(files)) expect(readFileSync(path, "utf8"), path).toBe(content);
  });

  it("the Codex block is not written when your config already enables hooks, or cannot take it (a note says what to add)", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".codex/config.toml"), "[features]\ncodex_hooks = true\n");
    // bosun's own pack without its MCP server's table: the file holds only what the hooks flag needs.
    let outcome = await install(t, { runtimes: ["codex"], agentsConfig: codexNeedingTheFlag(t), pack: ownPackWithoutMcp(join(t.root, "own-pack")) });
    expect(readFileSync(join(t.home, ".codex/config.toml"), "utf8")).toBe("[features]\ncodex_hooks = true\n");
    const t2 = makeTempHome();
    t2.write(join(t2.home, ".codex/config.toml"), "[features]\nweb_search = true\n");
    outcome = await install(t2, { runtimes: ["codex"], agentsConfig: codexNeedingTheFlag(t2), pack: ownPackWithoutMcp(join(t2.root, "own-pack")) });
    expect(readFileSync(join(t2.home, ".codex/config.toml"), "utf8")).toBe("[features]\nweb_search = true\n");
    expect(outcome.result.targets[0]!.roots[0]!.plan.notes.join(" ")).toMatch(/already has a \[features\] table; add codex_hooks = true to it yourself/);
  });

  it("a config bosun cannot parse blocks the install with file and line, and nothing is written", async () => {
    const t = makeTempHome();
    t.write(join(t.home, ".claude/settings.json"), '{\n  "model": "opus",\n  oops\n}\n');
    await expect(install(t, {})).rejects.toThrow(/settings\.json: invalid JSON \(\w+\) at line 3; fix it, then run again/);
    expect(existsSync(join(t.home, ".claude/skills"))).toBe(false);
  });

  it("two packs' hooks on one event: once both have left, the file is as it was (or gone, when bosun made it), whichever leaves first", async () => {
    for (const mine of ['{\n  "model": "opus"\n}\n', null]) {
      for (const first of ["bosun", "demo"]) {
        const t = makeTempHome();
        const settings = join(t.home, ".claude/settings.json");
        if (mine !== null) t.write(settings, mine);
        await install(t, {});
        await install(t, { pack: packDir("demo-v1") });
        await uninstall(t, { pack: first });
        await uninstall(t, { pack: first === "bosun" ? "demo" : "bosun" });
        expect(existsSync(settings) ? readFileSync(settings, "utf8") : null, `${first} first`).toBe(mine);
      }
    }
  });

  it("two packs' hooks on two events: once both have left, the file is as it was (or gone with ~/.claude, when bosun made them), whatever the order", async () => {
    for (const mine of ['{\n  "model": "opus"\n}\n', null]) {
      for (const [installFirst, uninstallFirst] of [["bosun", "bosun"], ["bosun", "stopper"], ["stopper", "bosun"], ["stopper", "stopper"]] as const) {
        const t = makeTempHome();
        const stopper = t.write("stopper/pack.json", JSON.stringify({ name: "stopper", version: "1.0.0", artifacts: { hooks: ["on-stop"] } }));
        t.write("stopper/hooks/on-stop.json", JSON.stringify({ event: "stop", command: "echo finished" }));
        const packs: Record<string, string | undefined> = { bosun: undefined, stopper: join(stopper, "..") };
        const settings = join(t.home, ".claude/settings.json");
        if (mine !== null) t.write(settings, mine);
        const other = (name: string) => (name === "bosun" ? "stopper" : "bosun");
        await install(t, { pack: packs[installFirst] });
        await install(t, { pack: packs[other(installFirst)] });
        expect(Object.keys(JSON.parse(readFileSync(settings, "utf8")).hooks).sort()).toEqual(["SessionStart", "Stop"]);
        await uninstall(t, { pack: uninstallFirst });
        await uninstall(t, { pack: other(uninstallFirst) });
        const order = `installed ${installFirst} first, uninstalled ${uninstallFirst} first`;
        expect(existsSync(settings) ? readFileSync(settings, "utf8") : null, order).toBe(mine);
        if (mine === null) expect(existsSync(join(t.home, ".claude")), order).toBe(false);
      }
    }
  });

  it("one pack's hooks on two events leave together, whichever was registered first", async () => {
    for (const mine of ['{\n  "model": "opus"\n}\n', null]) {
      for (const events of [["session-start", "stop"], ["stop", "session-start"]]) {
        const t = makeTempHome();
        const names = events.map((event) => `on-${event}`);
        const pack = t.write("both/pack.json", JSON.stringify({ name: "both", version: "1.0.0", artifacts: { hooks: names } }));
        events.forEach((event, i) => t.write(`both/hooks/${names[i]}.json`, JSON.stringify({ event, command: `echo ${event}` })));
        const settings = join(t.home, ".claude/settings.json");
        if (mine !== null) t.write(settings, mine);
        await install(t, { pack: join(pack, "..") });
        await uninstall(t, { pack: "both" });
        expect(existsSync(settings) ? readFileSync(settings, "utf8") : null, events.join(", ")).toBe(mine);
      }
    }
  });

  it("a hook entry you deleted stays deleted on the next install", async () => {
    const t = makeTempHome();
    await install(t, {});
    const settings = join(t.home, ".claude/settings.json");
    t.write(settings, '{ "model": "opus" }\n');
    const outcome = await install(t, {});
    expect(outcome.result.targets[0]!.roots[0]!.status).toBe("unchanged");
    expect(readFileSync(settings, "utf8")).toBe('{ "model": "opus" }\n');
  });

  it("OpenCode and Kilo register no hooks (plugins only; 1.18 ignores experimental.hook): the plan says so, their config is not touched", async () => {
    const t = makeTempHome();
    const config = join(t.home, ".config/opencode/opencode.jsonc");
    const mine = '{\n  // my opencode\n  "model": "anthropic/claude-sonnet-4-5",\n}\n';
    t.write(config, mine);
    const pack = t.write("pack/pack.json", JSON.stringify({ name: "stopper", version: "1.0.0", artifacts: { hooks: ["on-stop"] } }));
    t.write("pack/hooks/on-stop.json", JSON.stringify({ event: "stop", command: "echo finished" }));
    const outcome = await install(t, { runtimes: ["opencode", "kilo"], pack: join(pack, "..") });
    expect(outcome.result.targets.map(({ target }) => target.desired!.skipped[0]!.reason)).toEqual([
      "OpenCode runs hooks only as JS plugins (its config's experimental.hook is ignored by 1.18), so bosun registers none",
      "Kilo runs hooks only as JS plugins, as OpenCode does, so bosun registers none",
    ]);
    expect(readFileSync(config, "utf8")).toBe(mine);
  });
});

describe("a config whose hooks hold a value of the wrong type", () => {
  // Every runtime that registers the demo pack's session-start hook in a JSON config file.
  const configs: [string, string][] = [
    ["claude", ".claude/settings.json"],
    ["gemini", ".gemini/settings.json"],
    ["codex", ".codex/hooks.json"],
    ["cursor", ".cursor/hooks.json"],
    ["qwen", ".qwen/settings.json"],
    ["augment", ".augment/settings.json"],
    ["codebuddy", ".codebuddy/settings.json"],
  ];
  const installDemo = (t: TempHome, runtime: string, version: string) => runCli(["install", packDir(version), "--runtime", runtime, "--scope", "global", "--yes"], t.env, t.home);
  /** Installs, breaks the config, installs `version`: one line, exit 1, nothing written. */
  async function refusal(runtime: string, config: string, broken: string, before: string | null, version: string): Promise<string> {
    const t = makeTempHome();
    if (before) expect((await installDemo(t, runtime, before)).code).toBe(0);
    t.write(join(t.home, config), broken);
    const tree = snapshotTree(t.root);
    const result = await installDemo(t, runtime, version);
    expect(result.code, `${runtime} ${before ?? "fresh"} → ${version}: ${result.stdout}`).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(snapshotTree(t.root), `${runtime}: nothing written`).toEqual(tree);
    return result.stderr;
  }

  it.each(configs)("%s: a fresh install, a pack upgrade and a reinstall all refuse with the same line (%s)", async (runtime, config) => {
    const name = config.split("/").at(-1);
    const fresh = await refusal(runtime, config, '{"hooks":"x"}', null, "demo-v1");
    expect(fresh).toBe(`bosun: nothing was installed: 1 path must be fixed first: ${name}: hooks is not an object; fix it, then run again\n`);
    expect(await refusal(runtime, config, '{"hooks":"x"}', "demo-v1", "demo-v2")).toBe(fresh);
    expect(await refusal(runtime, config, '{"hooks":"x"}', "demo-v1", "demo-v1")).toBe(fresh);
  });

  it("an event whose entries are not a list; a reinstall of a recorded hook and a pack bringing a new one: all refuse the same way", async () => {
    const broken = '{ "hooks": { "SessionStart": { "oops": true } } }';
    const fresh = await refusal("claude", ".claude/settings.json", broken, null, "demo-v1");
    expect(fresh).toMatch(/settings\.json: hooks\.SessionStart is not a list; fix it, then run again/);
    expect(await refusal("claude", ".claude/settings.json", broken, "demo-v1", "demo-v2")).toBe(fresh);
    // bosun's own pack has its session-start hook recorded; the demo pack brings one more.
    const t = makeTempHome();
    await runCli(["install", "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    t.write(join(t.home, ".claude/settings.json"), '{"hooks":"x"}');
    const tree = snapshotTree(t.root);
    const reinstall = await runCli(["install", "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect([reinstall.code, reinstall.stderr]).toEqual([1, "bosun: nothing was installed: 1 path must be fixed first: settings.json: hooks is not an object; fix it, then run again\n"]);
    expect((await installDemo(t, "claude", "demo-v1")).stderr).toBe(reinstall.stderr);
    expect(snapshotTree(t.root)).toEqual(tree);
  });

  it("an uninstall is not held up: bosun's entry cannot be under such a value, so there is nothing to remove", async () => {
    const t = makeTempHome();
    await installDemo(t, "claude", "demo-v1");
    t.write(join(t.home, ".claude/settings.json"), '{"hooks":"x"}');
    const result = await runCli(["uninstall", "demo", "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(readFileSync(join(t.home, ".claude/settings.json"), "utf8")).toBe('{"hooks":"x"}');
  });

  it("Codex's config.toml edited into one that does not parse: the upgrade notes it, as a first install does", async () => {
    const fresh = makeTempHome();
    fresh.write(join(fresh.home, ".codex/config.toml"), 'model = \n');
    const first = await install(fresh, { runtimes: ["codex"], pack: packDir("demo-v1"), agentsConfig: codexNeedingTheFlag(fresh) });
    expect(first.result.targets[0]!.roots[0]!.plan.notes).toEqual(["config.toml: invalid TOML (Invalid TOML document: invalid value) at line 1; bosun did not add features.codex_hooks = true to it"]);
    const t = makeTempHome();
    await install(t, { runtimes: ["codex"], pack: packDir("demo-v1"), agentsConfig: codexNeedingTheFlag(t) });
    const config = join(t.home, ".codex/config.toml");
    t.write(config, `${readFileSync(config, "utf8")}features = "x"\n`);
    for (const version of ["demo-v2", "demo-v2"]) {
      const outcome = await install(t, { runtimes: ["codex"], pack: packDir(version), agentsConfig: codexNeedingTheFlag(t) });
      expect(outcome.result.targets[0]!.roots[0]!.plan.notes.join(" ")).toMatch(/^config\.toml: invalid TOML \(.*\) at line 4; bosun's block \(features\.codex_hooks = true\) is in it, but the runtime cannot read the file until you fix it$/);
    }
  });
});
