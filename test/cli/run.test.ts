import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const llm = useLlmServer();

function devModel(t: TempHome, extra: Record<string, unknown> = {}): Record<string, string | undefined> {
  return {
    ...t.env,
    SCRIPTED_API_KEY: "sk-scripted-secret-value-123",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000, ...extra }),
  };
}

describe("bosun run", () => {
  it("streams the answer to stdout, progress to stderr, and saves a session", async () => {
    const t = makeTempHome();
    t.write("home/work/notes.txt", "remember the milk\n");
    llm.reply().text("Reading.").tool("read", { path: "notes.txt" }).usage({ input: 100, output: 10 });
    llm.reply().text("It says: remember the ").text("milk.").usage({ input: 150, output: 8 });
    const result = await runCli(["run", "what do my notes say?"], devModel(t), join(t.home, "work"));
    expect(result.stderr).toMatch(/^bosun: session \S+ · scripted\/m1 · ask mode/m);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Reading.\nIt says: remember the milk.\n");
    expect(result.stderr).toContain("→ read notes.txt");
    expect(result.stderr).toContain("✓ lines 1-1 of 1");
    expect(llm.requests[0]!.headers.authorization).toBe("Bearer sk-scripted-secret-value-123");
    const id = /session (\S+)/.exec(result.stderr)![1]!;
    expect(existsSync(join(t.paths.data, "sessions", `${id}.jsonl`))).toBe(true);

    const list = await runCli(["sessions", "--json"], t.env);
    expect(JSON.parse(list.stdout).sessions).toMatchObject([{ id, title: "what do my notes say?", model: { providerID: "scripted", modelID: "m1" } }]);
    const show = await runCli(["sessions", "show", id.slice(0, 17)], t.env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("you: what do my notes say?");
    expect(show.stdout).toContain("bosun: It says: remember the milk.");
    expect(show.stdout).toContain("✓ read: lines 1-1 of 1");
    const status = JSON.parse((await runCli(["status", "--json"], t.env)).stdout);
    expect(status.subsystems.agent).toMatchObject({ state: "ready", sessions: 1, lastSession: { id, model: "scripted/m1" } });
  });

  it("prints one JSON result with --json and never streams text into it", async () => {
    const t = makeTempHome();
    llm.reply().text("Four.").usage({ input: 20, output: 2 });
    const result = await runCli(["run", "--json", "2+2?"], devModel(t), t.home);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ model: "scripted/m1", mode: "ask", reason: "final", text: "Four.", turns: 1, usage: { inputTokens: 20, outputTokens: 2 }, toolCalls: [] });
    expect(typeof json.sessionId).toBe("string");
  });

  it("resumes a session by id: the model gets the earlier conversation", async () => {
    const t = makeTempHome();
    llm.reply().text("Noted: blue.");
    const first = await runCli(["run", "my favourite colour is blue"], devModel(t), t.home);
    const id = /session (\S+)/.exec(first.stderr)![1]!;
    llm.reply().text("Blue.");
    const second = await runCli(["run", "--session", id, "what is my favourite colour?"], devModel(t), t.home);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`continuing ${id}`);
    const messages = llm.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(JSON.stringify(messages)).toContain("my favourite colour is blue");
  });

  it("keeps secrets out of stderr, the log and the session file", async () => {
    const t = makeTempHome();
    // Let into the command's environment by sandbox.env (it is left out otherwise): what it prints is redacted.
    t.write(join(t.paths.config, "bosun.json"), '{ "secrets": ["DB_URL"], "sandbox": { "env": ["DB_URL"] } }');
    const env = { ...devModel(t), DB_URL: "postgres://admin:pw-93ks@db/app" };
    llm.reply().httpError(503, "upstream rejected key sk-scripted-secret-value-123", { "retry-after": "0" });
    llm.reply().tool("bash", { command: "echo $DB_URL" });
    llm.reply().text("done");
    const result = await runCli(["run", "--yes", "connect"], env, t.home);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the model call failed (503: upstream rejected key [redacted:SCRIPTED_API_KEY]); retrying");
    expect(result.stderr).not.toContain("not attached to a terminal");
    const log = readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8");
    expect(log).toContain("agent model call retried");
    expect(log).toContain("[redacted:SCRIPTED_API_KEY]");
    expect(JSON.stringify(llm.requests[2]!.body)).toContain("[redacted:DB_URL]");
    const sessions = join(t.paths.data, "sessions");
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(sessions).filter((f) => f.endsWith(".jsonl")).map((f) => readFileSync(join(sessions, f), "utf8"));
    for (const text of [result.stderr, result.stdout, log, ...files, ...llm.requests.map((r) => JSON.stringify(r.body))]) {
      expect(text).not.toContain("sk-scripted-secret-value-123");
      expect(text).not.toContain("pw-93ks");
    }
  });

  it("without a terminal, a call that needs approval is refused and stderr says why", async () => {
    const t = makeTempHome();
    llm.reply().tool("write", { path: "x.txt", content: "x" });
    llm.reply().text("I need your approval to write x.txt.");
    const result = await runCli(["run", "make x.txt"], devModel(t), t.home);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("⊘ denied: write needs the user's approval in ask mode, and nobody can approve in this session (bosun is not attached to a terminal)");
    expect(result.stderr).toContain("bosun: not attached to a terminal: calls that need approval in ask mode will be refused unless a bosun serve page is open to answer them (--yes or --mode change that)");
    expect(existsSync(join(t.home, "x.txt"))).toBe(false);
    expect(result.stdout).toBe("I need your approval to write x.txt.\n");
  });

  it("rejects bad flags before doing anything", async () => {
    const t = makeTempHome();
    expect((await runCli(["run", "--mode", "yolo", "x"], devModel(t))).stderr).toBe("bosun: --mode must be one of ask, auto-edit, full-access, not \"yolo\"\n");
    expect((await runCli(["run", "--yes", "--mode", "ask", "x"], devModel(t))).stderr).toContain("--yes means --mode full-access");
    expect((await runCli(["run", "--max-turns", "0", "x"], devModel(t))).stderr).toContain("--max-turns takes a whole number");
    expect((await runCli(["run", "--session", "nope", "x"], devModel(t))).stderr).toBe('bosun: no session "nope"; bosun sessions lists them\n');
    expect((await runCli(["run", "--model", "other/model", "x"], devModel(t))).stderr).toContain("model other/model is not available");
    expect(llm.requests).toHaveLength(0);
  });

  it("says clearly that no model is available when the catalog has none", async () => {
    const t = makeTempHome();
    const result = await runCli(["run", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bosun: no model is available: set a provider's key variable/);
    expect(existsSync(join(t.paths.data, "sessions"))).toBe(false);
  });

  it("runs a model from the catalog: the README's local setup, pointed at a local server", async () => {
    const t = makeTempHome();
    t.write(
      join(t.paths.config, "bosun.json"),
      JSON.stringify({ providers: { local: { npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, models: { qwen3: {} } } }, model: "local/qwen3" }),
    );
    llm.reply().text("Hello from the catalog.").usage({ input: 10, output: 4 });
    const result = await runCli(["run", "--yes", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(result.stderr).toMatch(/^bosun: session \S+ · local\/qwen3 · full-access mode/m);
    expect(result.stdout).toBe("Hello from the catalog.\n");
    expect(result.code).toBe(0);
    expect(llm.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("takes a catalog model's key from bosun auth, sends the provider's headers, and refuses unknown models", async () => {
    const t = makeTempHome();
    t.write(
      join(t.paths.config, "bosun.json"),
      JSON.stringify({ providers: { gateway: { npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, env: ["GATEWAY_KEY"], headers: { "X-Team": "core" }, models: { big: { contextLimit: 64000, outputLimit: 4000 } } } } }),
    );
    const env = { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" };
    const missing = await runCli(["run", "--model", "gateway/big", "hello"], env, t.home);
    expect(missing.stderr).toBe("bosun: provider gateway has no credential: set GATEWAY_KEY or run bosun auth set gateway\n");
    await runCli(["auth", "set", "gateway"], env, t.home, "sk-gateway-stored-9876");
    llm.reply().text("ok").usage({ input: 5, output: 1 });
    const result = await runCli(["run", "--yes", "--model", "gateway/big", "hello"], env, t.home);
    expect(result.code).toBe(0);
    expect(llm.requests.at(-1)!.headers.authorization).toBe("Bearer sk-gateway-stored-9876");
    expect(llm.requests.at(-1)!.headers["x-team"]).toBe("core");
    expect(result.stdout + result.stderr).not.toContain("sk-gateway-stored-9876");
    expect((await runCli(["run", "--model", "gateway/nope", "hello"], env, t.home)).stderr).toBe(
      "bosun: model gateway/nope is not in the catalog (or a policy denies it); bosun models --all lists the models\n",
    );
  });

  it("names the env var when the provider's credential is missing", async () => {
    const t = makeTempHome();
    const env = { ...devModel(t, { npm: "@ai-sdk/anthropic", baseURL: llm.anthropicURL }), SCRIPTED_API_KEY: undefined };
    const result = await runCli(["run", "hello"], env, t.home);
    expect(result.stderr).toBe("bosun: provider scripted has no credential: set SCRIPTED_API_KEY or run bosun auth set scripted\n");
    expect(result.code).toBe(1);
  });

  it("validates permissions and secrets in bosun.json", async () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.config, "bosun.json"), '{\n  "permissions": { "bahs": "allow", "mode": "yolo" }\n}');
    expect((await runCli(["run", "x"], devModel(t))).stderr).toMatch(new RegExp(`^bosun: ${file}:2: permissions\\.mode: invalid option`));
    t.write(join(t.paths.config, "bosun.json"), '{\n  "permissions": { "bash": "sometimes" }\n}');
    expect((await runCli(["run", "x"], devModel(t))).stderr).toContain("permissions.bash: invalid option");
    t.write(join(t.paths.config, "bosun.json"), '{ "secrets": ["not a name"] }');
    expect((await runCli(["run", "x"], devModel(t))).stderr).toContain("secrets[0]: use an environment variable name");
    expect(readFileSync(file, "utf8")).toContain("secrets");
  });
});
