import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin, runCli } from "../fixtures/cli.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const env = (t: TempHome) => ({ ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" });

/** A global config and a project `app/` with its own. */
function twoFiles(globalText: string, projectText: string) {
  const t = makeTempHome();
  const global = t.write(join(t.paths.config, "bosun.json"), globalText);
  const project = t.write(join(t.home, "app/bosun.json"), projectText);
  return { t, global, project, cwd: join(t.home, "app") };
}

describe("bosun config", () => {
  const globalText = '{\n  // mine\n  "model": "anthropic/claude-sonnet-5",\n  "theme": "dark",\n  "plugins": { "demo": { "enabled": true }, "other": {} },\n  "disabled_providers": ["openai"]\n}\n';
  const projectText = '{\n  "plugins": {\n    "demo": { "enabled": false, "enable": true }\n  },\n  "model": "openai/gpt-5"\n}\n';

  it("prints each merged value with the file and line it came from, project over global, and the warnings", async () => {
    const { t, global, project, cwd } = twoFiles(globalText, projectText);
    const result = await runCli(["config", "--json"], env(t), cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const json = JSON.parse(result.stdout);
    expect(json.files).toEqual([
      { scope: "global", file: global, exists: true },
      { scope: "project", file: project, exists: true },
    ]);
    expect(json.value).toEqual({ model: "openai/gpt-5", plugins: { demo: { enabled: false }, other: {} }, disabled_providers: ["openai"] });
    expect(json.keys).toEqual([
      { key: "disabled_providers", value: ["openai"], scope: "global", file: global, line: 6 },
      { key: "model", value: "openai/gpt-5", scope: "project", file: project, line: 5 },
      { key: "plugins.demo.enabled", value: false, scope: "project", file: project, line: 3 },
      { key: "plugins.other", value: {}, scope: "global", file: global, line: 5 },
    ]);
    expect(json.warnings.map((w: { file: string; line: number; key: string; suggestion: string | null }) => [w.file, w.line, w.key, w.suggestion])).toEqual([
      [global, 4, "theme", null],
      [project, 3, "plugins.demo.enable", "enabled"],
    ]);

    const screen = await runCli(["config"], env(t), cwd);
    expect(screen.code).toBe(0);
    expect(screen.stderr).toBe("");
    expect(screen.stdout).toContain(
      [
        "Values (project over global)",
        '  disabled_providers    ["openai"]      ~/.config/bosun/bosun.json:6',
        '  model                 "openai/gpt-5"  ~/app/bosun.json:5',
        "  plugins.demo.enabled  false           ~/app/bosun.json:3",
        "  plugins.other         {}              ~/.config/bosun/bosun.json:5",
      ].join("\n"),
    );
    expect(screen.stdout).toContain("! ~/app/bosun.json:3: plugins.demo.enable: unknown key, ignored; did you mean enabled?");
  });

  it("says so when no file sets anything", async () => {
    const t = makeTempHome();
    const result = await runCli(["config"], env(t), t.home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("none: no config file sets anything");
    expect(JSON.parse((await runCli(["config", "--json"], env(t), t.home)).stdout)).toMatchObject({ value: {}, keys: [], warnings: [] });
  });

  // (A base URL with a password in it is refused at load: fetch cannot use one; see config-schema.test.ts.)
  it("never prints a secret: a provider's apiKey and its header values show as [redacted], with their file and line", async () => {
    const t = makeTempHome();
    const file = t.write(
      join(t.paths.config, "bosun.json"),
      [
        "{",
        '  "providers": {',
        '    "corp": {',
        '      "apiKey": "sk-corp-secret-0123456789",',
        '      "headers": { "Authorization": "Bearer tok-abcdef-0123", "X-Team": "infra" }',
        "    }",
        "  },",
        '  "model": "corp/m1"',
        "}",
        "",
      ].join("\n"),
    );
    const secrets = ["sk-corp-secret-0123456789", "tok-abcdef-0123", "infra"];
    const json = await runCli(["config", "--json"], env(t), t.home);
    expect(json.code).toBe(0);
    for (const secret of secrets) expect(json.stdout).not.toContain(secret);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.value.providers.corp).toEqual({
      apiKey: "[redacted]",
      headers: { Authorization: "[redacted]", "X-Team": "[redacted]" },
    });
    expect(parsed.keys.filter((entry: { key: string }) => entry.key.startsWith("providers."))).toEqual([
      { key: "providers.corp.apiKey", value: "[redacted]", scope: "global", file, line: 4 },
      { key: "providers.corp.headers.Authorization", value: "[redacted]", scope: "global", file, line: 5 },
      { key: "providers.corp.headers.X-Team", value: "[redacted]", scope: "global", file, line: 5 },
    ]);

    const screen = await runCli(["config"], env(t), t.home);
    expect(screen.code).toBe(0);
    for (const secret of secrets) expect(screen.stdout).not.toContain(secret);
    expect(screen.stdout).toMatch(/providers\.corp\.apiKey +\[redacted\] +~\/\.config\/bosun\/bosun\.json:4\n/);
    expect(screen.stdout).toMatch(/providers\.corp\.headers\.Authorization +\[redacted\] +~\/\.config\/bosun\/bosun\.json:5\n/);
    expect(screen.stdout).toMatch(/model +"corp\/m1" +~\/\.config\/bosun\/bosun\.json:8\n/);
  });
});

describe("bosun config check", () => {
  it("exits 0 and says so when every file is clean", async () => {
    const { t, cwd } = twoFiles('{ "model": "a/b" }', "{}");
    const result = await runCli(["config", "check"], env(t), cwd);
    expect(result).toEqual({ code: 0, stdout: "ok: no problems in ~/.config/bosun/bosun.json, ~/app/bosun.json\n", stderr: "" });
  });

  it("lists every error and warning of every file, one line each with file:line, and exits 1", async () => {
    const { t, global, project, cwd } = twoFiles('{\n  "model": 5,\n  "modle": "a/b"\n}', '{\n  "subagents": { "maxDepth": -1 },\n  "secrets": ["A B"]\n}');
    const result = await runCli(["config", "check"], env(t), cwd);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split("\n")).toEqual([
      `error: ${global}:2: model: expected string, received number`,
      `error: ${project}:2: subagents.maxDepth: use 0 or more`,
      `error: ${project}:3: secrets[0]: use an environment variable name (letters, digits, _)`,
      `warning: ${global}:3: modle: unknown key, ignored; did you mean model?`,
    ]);
    expect(result.stderr).toBe("bosun: the config has 3 errors and 1 warning (listed above)\n");
    const json = await runCli(["config", "check", "--json"], env(t), cwd);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, files: [global, project], errors: [{ file: global, line: 2, field: "model" }, {}, {}], warnings: [{ key: "modle" }] });
  });

  it("stops at a syntax error with one line naming its file and line", async () => {
    const { t, project, cwd } = twoFiles('{ "model": "a/b", }', '{\n  "plugins": {\n    "x": { "enabled": true }\n    "y": {}\n  }\n}');
    const result = await runCli(["config", "check"], env(t), cwd);
    expect(result).toEqual({ code: 1, stdout: "", stderr: `bosun: ${project}:4: invalid JSON (comma expected)\n` });
  });

  it("counts a project config it does not use as a warning", async () => {
    const { t, project, cwd } = twoFiles("{}", "{}");
    chmodSync(project, 0o646);
    const result = await runCli(["config", "check"], env(t), cwd);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`warning: ${project}: project config not used: it is writable by others (mode 0646); chmod go-w it if you trust it\n`);
  });
});

describe("config warnings elsewhere", () => {
  it("status shows unknown keys and an ignored project config, on the screen, in JSON and once on stderr", async () => {
    const t = makeTempHome();
    const global = t.write(join(t.paths.config, "bosun.json"), '{\n  "plugins": { "off": { "enabled": false, "colour": "red" } }\n}');
    t.write(join(t.paths.data, "plugins/off/plugin.json"), '{"name":"off","version":"1.0.0"}');
    const shared = join(t.root, "shared");
    mkdirSync(join(shared, ".bosun"), { recursive: true });
    mkdirSync(join(shared, "work"));
    chmodSync(join(shared, ".bosun"), 0o777);
    const warnings = [
      `${join(shared, ".bosun")}: project config not used: it is writable by others (mode 0777); chmod go-w it if you trust it`,
      `${global}:2: plugins.off.colour: unknown key, ignored`,
    ];
    for (let run = 0; run < 2; run++) {
      const json = await runCli(["status", "--json"], env(t), join(shared, "work"));
      expect(json.code).toBe(0);
      expect(json.stderr.trim().split("\n")).toEqual(warnings.map((w) => `bosun: warning: ${w}`));
      const status = JSON.parse(json.stdout);
      expect(status.project).toBeNull();
      expect(status.config.warnings).toEqual([
        { kind: "ignored-project", file: join(shared, ".bosun"), line: null, key: null, message: expect.stringContaining("not used"), suggestion: null },
        { kind: "unknown-key", file: global, line: 2, key: "plugins.off.colour", message: "unknown key, ignored", suggestion: null },
      ]);
      expect(status.plugins).toEqual([{ name: "off", version: "1.0.0", enabled: false, problem: null }]);
      expect(status.next[0]).toContain("bosun config check");
    }
    const screen = await runCli(["status"], env(t), join(shared, "work"));
    expect(screen.stdout).toContain(`  ! ~/.config/bosun/bosun.json:2: plugins.off.colour: unknown key, ignored`);
    expect(screen.stdout).toMatch(/project +none \(the project config found is not used: see Config\)/);
  });

  it("refuses a bosun.json nested 100,000 levels deep with one line naming it, for the installed bin", () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.config, "bosun.json"), "[".repeat(100_000));
    for (const argv of [["status"], ["agents", "--json"], ["config", "check"]]) {
      const result = runBin(argv, env(t), t.home);
      expect(result.code, argv.join(" ")).toBe(1);
      expect(result.stderr, argv.join(" ")).toBe(`bosun: ${file}:1: nests objects and arrays more than 100 levels deep\n`);
    }
  });
});
