import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ModelCallError } from "../../src/agent/model-errors.js";
import { parseJsonc } from "../../src/boot/jsonc.js";
import { logFilePath } from "../../src/boot/log.js";
import { baseURLOrigin } from "../../src/llm/base-url-origin.js";
import type { ModelTarget } from "../../src/llm/model-target.js";
import { runBin, runCli } from "../fixtures/cli.js";
import { languageModelFor, makeWorkspace, recordingUi, runScripted, scriptedTarget } from "../fixtures/agent-harness.js";
import { closedPortUrl } from "../fixtures/models-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

async function run(target: ModelTarget, overrides: Parameters<typeof runScripted>[1]["overrides"] = {}) {
  const ws = makeWorkspace();
  const ui = recordingUi();
  const outcome = await runScripted("hello", { model: await languageModelFor(target), target, workdir: ws.workdir, sessions: ws.sessions, ui, overrides }).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, retries: ui.events.filter((event) => event.type === "retry"), ws };
}

/** A config whose `local` provider points at `baseURL` (line 3 of the file). */
function configPointingAt(t: TempHome, baseURL: string): string {
  return t.write(join(t.paths.config, "bosun.json"), `{\n  "providers": {\n    "local": { "baseURL": "${baseURL}", "models": { "qwen3": {} } }\n  },\n  "model": "local/qwen3"\n}\n`);
}

describe("a model server that cannot be reached", () => {
  it("fails at once on a closed port, naming the provider, its URL and where the URL was set", async () => {
    const url = `${await closedPortUrl()}/v1`;
    const { error, retries, ws } = await run(scriptedTarget(llm, "@ai-sdk/openai-compatible", { baseURL: url, baseURLOrigin: "set in /etc/bosun.json:3" }));
    expect(retries).toEqual([]);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe(`the model call failed: cannot reach provider scripted at ${url} (set in /etc/bosun.json:3): connection refused (ECONNREFUSED): is the server running?`);
    const [file] = readdirSync(ws.sessions).filter((name) => name.endsWith(".jsonl"));
    const end = JSON.parse(readFileSync(join(ws.sessions, file!), "utf8").trim().split("\n").at(-1)!);
    expect(end).toMatchObject({ type: "run", phase: "end", reason: "error", error: (error as Error).message });
  });

  it("fails at once on a port fetch refuses, an unknown host and a URL that is not one", async () => {
    const cases: [string, RegExp][] = [
      ["http://127.0.0.1:1/v1", /: the port is one fetch refuses to use \(bad port\)$/],
      ["http://nonexistent.invalid/v1", /: the host nonexistent\.invalid (is not found \(ENOTFOUND\)|could not be looked up \(EAI_AGAIN\))$/],
      ["http://127.0.0.1:99999/v1", /: not a valid URL \(ERR_INVALID_URL\)$/],
    ];
    for (const [url, reason] of cases) {
      const { error, retries } = await run(scriptedTarget(llm, "@ai-sdk/openai-compatible", { baseURL: url }));
      expect(retries).toEqual([]);
      expect((error as Error).message).toMatch(new RegExp(`^the model call failed: cannot reach provider scripted at ${url.replace(/[.]/g, "\\.")}${reason.source}`));
    }
    for (const npm of ["@ai-sdk/anthropic", "@ai-sdk/google", "@ai-sdk/openai"] as const) {
      const { error, retries } = await run(scriptedTarget(llm, npm, { baseURL: "http://127.0.0.1:1/v1" }));
      expect(retries).toEqual([]);
      expect((error as Error).message).toContain(": the port is one fetch refuses to use (bad port)");
    }
  });

  it("still retries a reset connection, a 503 and a server that does not answer in time, then goes on", async () => {
    llm.reply().reset();
    llm.reply().httpError(503, "overloaded");
    llm.reply().latency(1_000).text("too late");
    llm.reply().text("Hello.");
    const { value, retries } = await run(scriptedTarget(llm), { idleTimeoutMs: 300 });
    expect(value?.result).toMatchObject({ reason: "final", text: "Hello." });
    expect(llm.requests).toHaveLength(4);
    expect(retries.map((event) => (event as { reason: string }).reason)).toEqual([
      `provider scripted at ${llm.openaiURL}: the connection dropped (ECONNRESET)`,
      "503: overloaded",
      "the model sent nothing for 0 s (network timeout)",
    ]);
  });
});

describe("bosun run with a local server that is not running", () => {
  it("exits 1 at once with one line naming the provider, the URL and the config file and line", async () => {
    const t = makeTempHome();
    const url = `${await closedPortUrl()}/v1`;
    const config = configPointingAt(t, url);
    const result = runBin(["run", "--yes", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^bosun: session \S+ · local\/qwen3 · full-access mode$/);
    const session = /session (\S+)/.exec(lines[0]!)![1];
    expect(lines[1]).toBe(`bosun: the model call failed: cannot reach provider local at ${url} (set in ${config}:3): connection refused (ECONNREFUSED): is the server running? (session ${session} is saved)`);
  });

  it("never shows the user name and password of a base URL: not on stderr, in the session file or in the log", async () => {
    const t = makeTempHome();
    const config = configPointingAt(t, "http://bob:hunter2@127.0.0.1:9/v1?token=tok-5678");
    const result = await runCli(["run", "--yes", "--verbose", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `bosun: the model call failed: cannot reach provider local at http://127.0.0.1:9/v1 (set in ${config}:3): a URL with a user name or password cannot be used`,
    );
    const sessions = join(t.paths.data, "sessions");
    const written = [readFileSync(logFilePath(t.paths.state), "utf8"), ...readdirSync(sessions).map((name) => readFileSync(join(sessions, name), "utf8"))];
    expect(written.join("\n")).toContain("cannot reach provider local at http://127.0.0.1:9/v1");
    for (const text of [result.stderr, ...written]) {
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain("bob");
      expect(text).not.toContain("tok-5678");
    }
  });

  it("names bosun's usual address of a known local server, and models.dev for a URL that comes from there", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ providers: { ollama: { models: { qwen3: {} } } } }));
    const ollama = await runCli(["run", "--yes", "--model", "ollama/qwen3", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(ollama.code).toBe(1);
    expect(ollama.stderr).toContain(
      "bosun: the model call failed: cannot reach provider ollama at http://127.0.0.1:11434/v1 (bosun's usual address for Ollama; providers.ollama.baseURL in bosun.json overrides it): connection refused (ECONNREFUSED)",
    );

    const listed = { acme: { id: "acme", name: "Acme", env: ["ACME_API_KEY"], npm: "@ai-sdk/openai-compatible", api: "http://127.0.0.1:1/v1", models: { m1: { id: "m1", tool_call: true } } } };
    t.write(join(t.paths.cache, "models-dev", "api.json"), JSON.stringify(listed));
    const acme = await runCli(["run", "--yes", "--model", "acme/m1", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1", ACME_API_KEY: "k" }, t.home);
    expect(acme.code).toBe(1);
    expect(acme.stderr).toContain(
      "bosun: the model call failed: cannot reach provider acme at http://127.0.0.1:1/v1 (from models.dev; providers.acme.baseURL in bosun.json overrides it): the port is one fetch refuses to use (bad port)",
    );
    expect(acme.stderr).not.toContain("retrying");
  });
});

describe("where a base URL was set", () => {
  const model = { providerID: "acme", id: "m1", npm: "@ai-sdk/openai-compatible" };
  const layer = (file: string, baseURL: string, text = JSON.stringify({ providers: { acme: { baseURL } } })) => ({
    scope: "global" as const,
    file,
    value: { providers: { acme: { baseURL } } },
    document: parseJsonc(file, text),
  });
  const snapshot = (source: "cache" | "embedded", api?: string) => ({ source, data: { acme: { models: { m1: {} }, ...(api ? { api } : {}) } } });

  it("is the config file that wins the merge, else the model list, bosun's default, the package's, or a plugin", () => {
    const t = makeTempHome();
    const project = t.write("project/bosun.json", `{\n  "providers": {\n\n    "acme": { "baseURL": "http://project/v1" }\n  }\n}\n`);
    const layers = [layer("/nowhere/global.json", "http://global/v1"), layer(project, "http://project/v1", readFileSync(project, "utf8"))];
    expect(baseURLOrigin({ ...model, url: "http://project/v1" }, { configLayers: layers, modelsDev: snapshot("cache") })).toBe(`set in ${project}:4`);
    expect(baseURLOrigin({ ...model, url: "http://global/v1" }, { configLayers: layers.slice(0, 1), modelsDev: snapshot("cache") })).toBe("set in /nowhere/global.json:1");
    const overrides = "providers.acme.baseURL in bosun.json overrides it";
    expect(baseURLOrigin({ ...model, url: "http://listed/v1" }, { configLayers: [], modelsDev: snapshot("cache", "http://listed/v1") })).toBe(`from models.dev; ${overrides}`);
    expect(baseURLOrigin({ ...model, url: "http://listed/v1" }, { configLayers: [], modelsDev: snapshot("embedded", "http://listed/v1") })).toBe(`from bosun's built-in provider list; ${overrides}`);
    expect(baseURLOrigin({ ...model, url: undefined }, { configLayers: [], modelsDev: snapshot("cache") })).toBe(`the default of @ai-sdk/openai-compatible; ${overrides}`);
    expect(baseURLOrigin({ ...model, providerID: "lmstudio", url: "http://127.0.0.1:1234/v1" }, { configLayers: [], modelsDev: snapshot("cache") })).toBe(
      "bosun's usual address for LM Studio; providers.lmstudio.baseURL in bosun.json overrides it",
    );
    // The project's file sets another URL than the one in use: a plugin changed it afterwards.
    expect(baseURLOrigin({ ...model, url: "http://elsewhere/v1" }, { configLayers: layers, modelsDev: snapshot("cache", "http://listed/v1") })).toBe("set by a plugin");
  });
});
