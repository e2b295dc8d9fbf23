import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readSecret } from "../../src/cli/secret-input.js";
import { runBin, runCli } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const SECRET = "sk-ant-test-0123456789-SECRET";
const offline = { BOSUN_DISABLE_MODELS_FETCH: "1" };

describe("bosun auth", () => {
  it("stores a key read from standard input in a private file, and never prints it anywhere", async () => {
    const t = makeTempHome();
    const env = { ...t.env, ...offline };
    const set = await runCli(["auth", "set", "anthropic"], env, t.home, `${SECRET}\n`);
    expect(set).toEqual({ code: 0, stdout: "Saved the key for anthropic in ~/.local/share/bosun/auth.json (readable only by you).\n", stderr: "" });
    const file = join(t.paths.data, "auth.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ anthropic: { type: "api", key: SECRET } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    const outputs = [
      await runCli(["auth", "list"], env, t.home),
      await runCli(["auth", "list", "--json"], env, t.home),
      await runCli(["models", "--json"], env, t.home),
      await runCli(["models"], env, t.home),
      await runCli(["status", "--json"], env, t.home),
      await runCli(["status"], env, t.home),
    ];
    for (const output of outputs) expect(output.stdout + output.stderr).not.toContain(SECRET);
    expect(outputs[0]!.stdout).toMatch(/anthropic\s+stored by bosun auth/);
    expect(JSON.parse(outputs[2]!.stdout).default).toEqual({ providerID: "anthropic", modelID: "claude-sonnet-5" });
    const log = join(t.paths.state, "logs/bosun.log");
    if (existsSync(log)) expect(readFileSync(log, "utf8")).not.toContain(SECRET);
  });

  it("lists where each key comes from: the store, a variable, or the config", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ providers: { deepseek: { apiKey: "sk-config" } } }));
    const env = { ...t.env, ...offline, OPENAI_API_KEY: "sk-env" };
    await runCli(["auth", "set", "someday"], env, t.home, "sk-unknown");
    const list = JSON.parse((await runCli(["auth", "list", "--json"], env, t.home)).stdout);
    expect(list.credentials).toEqual([
      { provider: "openai", source: "env", variable: "OPENAI_API_KEY", inCatalog: true },
      { provider: "deepseek", source: "config", inCatalog: true },
      { provider: "someday", source: "auth", inCatalog: false },
    ]);
    expect(list.exposed).toBe(false);
  });

  it("warns about a provider the catalog does not know, but stores the key", async () => {
    const t = makeTempHome();
    const result = await runCli(["auth", "set", "my-gateway"], { ...t.env, ...offline }, t.home, "k");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("bosun: note: my-gateway is not in the catalog");
  });

  it("refuses an empty key or a key on several lines, and writes nothing", async () => {
    const t = makeTempHome();
    const env = { ...t.env, ...offline };
    const empty = await runCli(["auth", "set", "openai"], env, t.home, "\n");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(`bosun: no key on standard input; pipe it in, e.g. printf '%s' "$KEY" | bosun auth set openai\n`);
    const lines = await runCli(["auth", "set", "openai"], env, t.home, "a\nb\n");
    expect(lines.stderr).toBe("bosun: the key spans several lines; give exactly one line\n");
    expect(() => statSync(join(t.paths.data, "auth.json"))).toThrow();
    expect((await runCli(["auth", "set", "../x"], env, t.home, "k")).stderr).toBe('bosun: "../x" is not a provider id (letters, digits, \'.\', \'_\', \'-\')\n');
  });

  it("removes a stored key, and says so when there is none", async () => {
    const t = makeTempHome();
    const env = { ...t.env, ...offline };
    await runCli(["auth", "set", "openai"], env, t.home, "k1");
    await runCli(["auth", "set", "anthropic"], env, t.home, "k2");
    expect((await runCli(["auth", "remove", "openai"], env, t.home)).stdout).toBe("Removed the stored key for openai.\n");
    expect(JSON.parse(readFileSync(join(t.paths.data, "auth.json"), "utf8"))).toEqual({ anthropic: { type: "api", key: "k2" } });
    expect(await runCli(["auth", "remove", "openai"], env, t.home)).toEqual({ code: 1, stdout: "", stderr: "bosun: no key is stored for openai (bosun auth list shows the stored ones)\n" });
  });

  it("reports a broken auth.json without quoting it, and changes nothing", async () => {
    const t = makeTempHome();
    const file = join(t.paths.data, "auth.json");
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `{"openai": {"type": "api", "key": "${SECRET}"`, { mode: 0o600 });
    const result = await runCli(["auth", "set", "openai"], { ...t.env, ...offline }, t.home, "new");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`bosun: ${file}: is not valid JSON; fix or remove it, then run bosun auth set again\n`);
    expect(readFileSync(file, "utf8")).toContain(SECRET);
    const status = await runCli(["status"], { ...t.env, ...offline }, t.home);
    expect(status.stdout).toContain("! stored keys are not used:");
    expect(status.stdout + status.stderr).not.toContain(SECRET);
  });

  it("works through the installed bin with a piped key", () => {
    const t = makeTempHome();
    const result = runBin(["auth", "set", "openai"], { ...t.env, ...offline }, t.home, SECRET);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(JSON.parse(readFileSync(join(t.paths.data, "auth.json"), "utf8")).openai.key).toBe(SECRET);
  });
});

describe("readSecret at a terminal", () => {
  it("prompts on stderr without echoing, handles backspace, and restores the terminal", async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, raw: [] as boolean[], setRawMode(raw: boolean) { this.raw.push(raw); } });
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    let shown = "";
    stderr.on("data", (chunk) => (shown += chunk));
    const reading = readSecret({ stdout: new PassThrough(), stderr, env: {}, stdin }, "API key: ", "pipe it");
    stdin.write("sk-abx");
    stdin.write("\u007fc\r");
    expect(await reading).toBe("sk-abc");
    expect(shown).toBe("API key: \n");
    expect(stdin.raw).toEqual([true, false]);
  });

  it("cancels on Ctrl-C", async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode() {} });
    const reading = readSecret({ stdout: new PassThrough(), stderr: new PassThrough(), env: {}, stdin }, "API key: ", "pipe it");
    stdin.write("sk\u0003");
    await expect(reading).rejects.toThrow("cancelled; nothing was saved");
  });
});
