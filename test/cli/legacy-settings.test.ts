import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin, runCli, type CliResult } from "../fixtures/cli.js";
import { makeFifo, makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** A home with the old layout: only `~/.bosun/settings.json`, holding `settings`. */
function legacyHome(settings: string | Buffer): TempHome {
  const t = makeTempHome();
  mkdirSync(t.paths.legacy);
  writeFileSync(join(t.paths.legacy, "settings.json"), settings);
  return t;
}

function files(t: TempHome) {
  const read = (path: string) => (existsSync(path) ? readFileSync(path) : null);
  const log = read(join(t.paths.state, "logs/bosun.log"));
  return {
    bosunJson: read(join(t.paths.config, "bosun.json"))?.toString("utf8") ?? null,
    backup: read(join(t.paths.config, "legacy-settings.json")),
    log: log ? log.toString("utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) : [],
    legacyLeft: existsSync(t.paths.legacy),
  };
}

const lines = (result: CliResult) => result.stderr.trim().split("\n").filter(Boolean);
const env = (t: TempHome) => ({ ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" });
const configFile = (t: TempHome) => join(t.paths.config, "bosun.json");

describe("a legacy ~/.bosun/settings.json on the first start", () => {
  it("with unknown keys only: moves it unchanged, and every command works, warning once per key and start", async () => {
    const original = '{"theme":"dark","telemetry":false}';
    const t = legacyHome(original);
    const first = await runCli(["agents"], env(t), t.home);
    expect(first.code).toBe(0);
    expect(lines(first)).toEqual([
      "bosun: 10_legacy_layout: create ~/.config/bosun (private)",
      "bosun: 10_legacy_layout: create ~/.local/share/bosun (private)",
      "bosun: 10_legacy_layout: move ~/.bosun/settings.json → ~/.config/bosun/bosun.json",
      "bosun: 10_legacy_layout: remove the emptied folder ~/.bosun",
      `bosun: warning: ${configFile(t)}:1: theme: unknown key, ignored`,
      `bosun: warning: ${configFile(t)}:1: telemetry: unknown key, ignored`,
    ]);
    const after = files(t);
    expect(after).toMatchObject({ bosunJson: original, backup: null, legacyLeft: false });
    expect(after.log.map((entry) => entry.action)).toContain("move ~/.bosun/settings.json → ~/.config/bosun/bosun.json");

    for (const argv of [["status"], ["models", "--offline"], ["status", "--json"]]) {
      const again = await runCli(argv, env(t), t.home);
      expect(again.code, argv.join(" ")).toBe(0);
      expect(lines(again).filter((line) => line.includes("warning")), argv.join(" ")).toEqual([
        `bosun: warning: ${configFile(t)}:1: theme: unknown key, ignored`,
        `bosun: warning: ${configFile(t)}:1: telemetry: unknown key, ignored`,
      ]);
    }
  });

  it("with comments and renamed keys: translates them in place, keeping the comments, and keeps the original as a backup", async () => {
    const original = [
      "{",
      "  // the model I use most",
      '  "defaultModel": "anthropic/claude-sonnet-5", // set in 2025',
      '  "disabledProviders": ["openai"],',
      "  /* plugins */",
      '  "plugins": { "demo": false },',
      '  "theme": "dark"',
      "}",
      "",
    ].join("\n");
    const t = legacyHome(original);
    const result = await runCli(["status"], { ...env(t), ANTHROPIC_API_KEY: "sk-test-value-1234" }, t.home);
    expect(result.code).toBe(0);
    const after = files(t);
    expect(after.bosunJson).toBe(
      [
        "{",
        "  // the model I use most",
        '  "model": "anthropic/claude-sonnet-5", // set in 2025',
        '  "disabled_providers": ["openai"],',
        "  /* plugins */",
        '  "plugins": { "demo": { "enabled": false } },',
        '  "theme": "dark"',
        "}",
        "",
      ].join("\n"),
    );
    expect(after.backup?.toString("utf8")).toBe(original);
    const write =
      "write ~/.config/bosun/bosun.json from ~/.bosun/settings.json, translating defaultModel → model, disabledProviders → disabled_providers, plugins.demo → plugins.demo.enabled";
    const keep = "move ~/.bosun/settings.json → ~/.config/bosun/legacy-settings.json (the original, untouched)";
    expect(lines(result)).toEqual([
      "bosun: 10_legacy_layout: create ~/.config/bosun (private)",
      "bosun: 10_legacy_layout: create ~/.local/share/bosun (private)",
      `bosun: 10_legacy_layout: ${write}`,
      `bosun: 10_legacy_layout: ${keep}`,
      "bosun: 10_legacy_layout: remove the emptied folder ~/.bosun",
      `bosun: warning: ${configFile(t)}:7: theme: unknown key, ignored`,
    ]);
    expect(after.log.map((entry) => entry.action)).toEqual(expect.arrayContaining([write, keep]));
    expect(result.stdout).toMatch(/default model\s+anthropic\/claude-sonnet-5/);
    expect(result.stdout).toContain("! ~/.config/bosun/bosun.json:7: theme: unknown key, ignored");
  });

  it("with a BOM and CRLF lines: keeps both, and turns the old plugin lists into toggles", async () => {
    const original = '\uFEFF{\r\n  "disabled_plugins": ["old-tool"],\r\n  "approval_mode": "auto"\r\n}\r\n';
    const t = legacyHome(original);
    t.write(join(t.paths.legacy, "plugins/old-tool/plugin.json"), '{"name":"old-tool"}');
    const result = runBin(["status", "--json"], env(t), t.home);
    expect(result.code).toBe(0);
    const after = files(t);
    expect(after.bosunJson).toBe('\uFEFF{\r\n  "permissions": { "mode": "auto-edit" },\r\n  "plugins": { "old-tool": { "enabled": false } }\r\n}\r\n');
    expect(after.backup?.equals(Buffer.from(original, "utf8"))).toBe(true);
    const status = JSON.parse(result.stdout);
    expect(status.plugins).toEqual([{ name: "old-tool", version: null, enabled: false, problem: null }]);
    expect(status.config.warnings).toEqual([]);
    expect(result.stderr).toContain("translating approval_mode → permissions.mode, disabled_plugins → plugins.old-tool.enabled");
    expect(after.log.map((entry) => entry.msg)).toContain("startup migration applied");
  });

  it("with the model in two old keys and an old value no rule can take: joins the one, keeps the other and says why", async () => {
    const original = '{\n  "chat_model_provider": "ollama",\n  "chat_model_name": "qwen3:8b",\n  "default_model": "gpt-4",\n  "secret_env": ["CORP_TOKEN"]\n}\n';
    const t = legacyHome(original);
    const result = await runCli(["agents", "--json"], env(t), t.home);
    expect(result.code).toBe(0);
    const after = files(t);
    expect(after.bosunJson).toBe('{\n  "model": "ollama/qwen3:8b",\n  "default_model": "gpt-4",\n  "secrets": ["CORP_TOKEN"]\n}\n');
    expect(after.backup?.toString("utf8")).toBe(original);
    const note =
      "bosun: 10_legacy_layout: ~/.bosun/settings.json: default_model: its value is not one model takes, so it was not translated; bosun.json reports it as an unknown key";
    expect(lines(result)).toContain(note);
    expect(lines(result).at(-1)).toBe(`bosun: warning: ${configFile(t)}:3: default_model: unknown key, ignored`);
    expect(after.log.find((entry) => entry.note)?.note).toBe(note.replace("bosun: 10_legacy_layout: ", ""));
  });

  it("with a known key of the wrong type: does not make it the config, keeps it unread with one warning naming the key, and bosun starts", async () => {
    const original = '{\n  "defaultModel": "openai/gpt-5",\n  "theme": "dark",\n  "subagents": { "maxDepth": "two" }\n}\n';
    const t = legacyHome(original);
    const result = await runCli(["status"], env(t), t.home);
    expect(result.code).toBe(0);
    const warning =
      "~/.bosun/settings.json would stop every start as the config (line 4: subagents.maxDepth: expected number, received string); it is kept unread as ~/.config/bosun/legacy-settings.json: copy what you need into ~/.config/bosun/bosun.json";
    expect(lines(result)).toEqual([
      "bosun: 10_legacy_layout: create ~/.config/bosun (private)",
      "bosun: 10_legacy_layout: create ~/.local/share/bosun (private)",
      "bosun: 10_legacy_layout: move ~/.bosun/settings.json → ~/.config/bosun/legacy-settings.json (the original, untouched)",
      "bosun: 10_legacy_layout: remove the emptied folder ~/.bosun",
      `bosun: 10_legacy_layout: ${warning}`,
    ]);
    const after = files(t);
    expect(after).toMatchObject({ bosunJson: null, legacyLeft: false });
    expect(after.backup?.toString("utf8")).toBe(original);
    expect(after.log.map((entry) => entry.note)).toContain(warning);
    expect(result.stdout).toContain(`! ${warning}`);
    expect((await runCli(["agents"], env(t), t.home)).code).toBe(0);
  });

  it("with a current key whose value is wrong and nothing to translate: keeps it unread too, instead of moving it into place", async () => {
    const t = legacyHome('{"model":"gpt-4"}');
    const result = await runCli(["agents"], env(t), t.home);
    expect(result.code).toBe(0);
    expect(lines(result)).toContain(
      "bosun: 10_legacy_layout: ~/.bosun/settings.json would stop every start as the config (line 1: model: use provider/model, e.g. anthropic/claude-sonnet-4-5); it is kept unread as ~/.config/bosun/legacy-settings.json: copy what you need into ~/.config/bosun/bosun.json",
    );
    expect(files(t)).toMatchObject({ bosunJson: null, legacyLeft: false });
    expect(files(t).backup?.toString("utf8")).toBe('{"model":"gpt-4"}');
  });

  it("with the closing brace on the last key's line: the key moved into a new object lands inside the file's object, and every command works", async () => {
    const t = legacyHome('{\n  "theme": "dark",\n  "approval_mode": "auto" }');
    const first = await runCli(["agents"], env(t), t.home);
    expect(first.code, first.stderr).toBe(0);
    expect(files(t).bosunJson).toBe('{\n  "theme": "dark",\n  "permissions": { "mode": "auto-edit" } }');
    for (const argv of [["agents"], ["status"]]) expect((await runCli(argv, env(t), t.home)).code, argv.join(" ")).toBe(0);
  });

  it("that is a symlink: the linked file is checked as it is, and a link to settings that would stop bosun is kept as the backup", async () => {
    const t = legacyHome("{}");
    const linked = t.write("dotfiles/bosun-settings.json", '{ "subagents": { "maxDepth": "two" } }');
    const link = join(t.paths.legacy, "settings.json");
    rmSync(link);
    symlinkSync(linked, link);
    const result = await runCli(["status"], env(t), t.home);
    expect(result.code).toBe(0);
    expect(lines(result)).toContain(
      "bosun: 10_legacy_layout: ~/.bosun/settings.json would stop every start as the config (line 1: subagents.maxDepth: expected number, received string); it is kept unread as ~/.config/bosun/legacy-settings.json: copy what you need into ~/.config/bosun/bosun.json",
    );
    expect(existsSync(configFile(t))).toBe(false);
    expect(readlinkSync(join(t.paths.config, "legacy-settings.json"))).toBe(linked);

    const u = legacyHome("{}");
    const good = u.write("dotfiles/bosun-settings.json", '{ "model": "openai/gpt-5", "defaultModel": "a/b" }');
    rmSync(join(u.paths.legacy, "settings.json"));
    symlinkSync(good, join(u.paths.legacy, "settings.json"));
    expect((await runCli(["status"], env(u), u.home)).code).toBe(0);
    expect(readlinkSync(configFile(u))).toBe(good);
    expect(readFileSync(good, "utf8")).toBe('{ "model": "openai/gpt-5", "defaultModel": "a/b" }');
  });

  it("that is not valid JSONC: keeps it unread next to the config with one warning, and bosun starts", async () => {
    const original = '{ "defaultModel": "a/b",, }';
    const t = legacyHome(original);
    const result = await runCli(["status"], env(t), t.home);
    expect(result.code).toBe(0);
    const after = files(t);
    expect(after).toMatchObject({ bosunJson: null, legacyLeft: false });
    expect(after.backup?.toString("utf8")).toBe(original);
    const warning =
      "~/.bosun/settings.json is not usable JSONC (line 1): invalid JSON (property name expected); it is kept unread as ~/.config/bosun/legacy-settings.json: copy what you need into ~/.config/bosun/bosun.json";
    expect(lines(result).filter((line) => line.includes("JSONC"))).toEqual([`bosun: 10_legacy_layout: ${warning}`]);
    expect(lines(result)).toContain("bosun: 10_legacy_layout: move ~/.bosun/settings.json → ~/.config/bosun/legacy-settings.json (the original, untouched)");
    expect(after.log.map((entry) => entry.note)).toContain(warning);
    expect(result.stdout).toContain(`! ${warning}`);
  });

  it("when the log cannot be written (logs/ is a file, bosun.log a FIFO): announces every move, warns once, and the command works", async () => {
    const t = legacyHome('{"theme":"dark"}');
    t.write(join(t.paths.state, "logs"), "not a folder");
    const result = await runCli(["agents"], env(t), t.home);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result)).toEqual([
      "bosun: 10_legacy_layout: create ~/.config/bosun (private)",
      `bosun: warning: not logging: ${join(t.paths.state, "logs")} is a file, not a folder: move it away`,
      "bosun: 10_legacy_layout: create ~/.local/share/bosun (private)",
      "bosun: 10_legacy_layout: move ~/.bosun/settings.json → ~/.config/bosun/bosun.json",
      "bosun: 10_legacy_layout: remove the emptied folder ~/.bosun",
      `bosun: warning: ${configFile(t)}:1: theme: unknown key, ignored`,
    ]);
    expect(files(t)).toMatchObject({ bosunJson: '{"theme":"dark"}', legacyLeft: false });

    const u = legacyHome("{}");
    mkdirSync(join(u.paths.state, "logs"), { recursive: true, mode: 0o700 });
    makeFifo(join(u.paths.state, "logs", "bosun.log"));
    const fifo = await runCli(["status"], env(u), u.home);
    expect(fifo.code, fifo.stderr).toBe(0);
    expect(lines(fifo).filter((line) => line.includes("warning"))).toEqual([
      `bosun: warning: not logging: ${join(u.paths.state, "logs", "bosun.log")} is a FIFO (named pipe), not a regular file: move it away`,
    ]);
    expect(lines(fifo)).toContain("bosun: 10_legacy_layout: move ~/.bosun/settings.json → ~/.config/bosun/bosun.json");
  });
});
