import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Location } from "../../src/catalog/location.js";
import { ANTHROPIC_BETAS } from "../../src/catalog/plugins/builtin/anthropic.js";
import { openTestLocation } from "../fixtures/location.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const open: Location[] = [];
afterEach(async () => void (await Promise.all(open.splice(0).map((location) => location.close()))));

async function locate(t: TempHome, env = {}, cwd?: string): Promise<Location> {
  const location = await openTestLocation(t, env, cwd);
  open.push(location);
  return location;
}

const globalConfig = (t: TempHome, config: unknown) => t.write(join(t.paths.config, "bosun.json"), JSON.stringify(config));

describe("config providers", () => {
  it("makes the README's local Ollama setup a complete, available default", async () => {
    const t = makeTempHome();
    globalConfig(t, { providers: { local: { npm: "@ai-sdk/openai-compatible", baseURL: "http://127.0.0.1:11434/v1", models: { qwen3: {} } } }, model: "local/qwen3" });
    const reader = (await locate(t)).catalog.read();
    expect(reader.isAvailable("local")).toBe(true);
    const model = reader.model.default()!;
    expect(model).toMatchObject({ providerID: "local", id: "qwen3", name: "qwen3", capabilities: { tools: true, input: ["text"], output: ["text"] } });
    expect(model.api).toEqual({ id: "qwen3", type: "aisdk", package: "@ai-sdk/openai-compatible", url: "http://127.0.0.1:11434/v1", settings: { includeUsage: true } });
  });

  it("needs only a baseURL for a local server: the tweak picks the OpenAI-compatible package, and a known id its URL", async () => {
    const t = makeTempHome();
    globalConfig(t, { providers: { mybox: { baseURL: "http://localhost:1234/v1", models: { "qwen3:8b": { contextLimit: 32768, toolCall: false } } }, ollama: { models: { llama4: {} } } } });
    const reader = (await locate(t)).catalog.read();
    expect(reader.model.get("mybox", "qwen3:8b")).toMatchObject({ api: { type: "aisdk", package: "@ai-sdk/openai-compatible", url: "http://localhost:1234/v1" }, limit: { context: 32768 }, capabilities: { tools: false } });
    expect(reader.provider.get("ollama")).toMatchObject({ name: "Ollama", api: { url: "http://127.0.0.1:11434/v1" } });
    expect(reader.isAvailable("mybox") && reader.isAvailable("ollama")).toBe(true);
  });

  it("gives a provider only the config defines its provider tweak (Anthropic's beta header)", async () => {
    const t = makeTempHome();
    globalConfig(t, { providers: { "my-claude": { npm: "@ai-sdk/anthropic", baseURL: "https://claude-proxy.example.test/v1", env: ["MY_CLAUDE_KEY"], models: { "claude-x": {} } } } });
    const reader = (await locate(t, { MY_CLAUDE_KEY: "k" })).catalog.read();
    expect(reader.provider.get("my-claude")!.request.headers).toEqual({ "anthropic-beta": ANTHROPIC_BETAS });
    expect(reader.model.get("my-claude", "claude-x")!.request.headers).toEqual({ "anthropic-beta": ANTHROPIC_BETAS });
  });

  it("leaves a header the user set alone", async () => {
    const t = makeTempHome();
    globalConfig(t, { providers: { anthropic: { headers: { "Anthropic-Beta": "my-beta" } } } });
    const reader = (await locate(t, { ANTHROPIC_API_KEY: "k" })).catalog.read();
    expect(reader.provider.get("anthropic")!.request.headers).toEqual({ "Anthropic-Beta": "my-beta" });
  });

  it("merges over the models.dev provider of the same id, file by file with the project's last", async () => {
    const t = makeTempHome();
    globalConfig(t, { providers: { openai: { name: "OpenAI (global)", headers: { "x-a": "global", "x-b": "global" }, models: { "gpt-5.5": { contextLimit: 100 } } } }, model: "openai/gpt-5.4-mini" });
    t.write(join(t.home, "app/bosun.json"), JSON.stringify({ providers: { openai: { name: "OpenAI (project)", baseURL: "https://proxy.example.test/v1", headers: { "x-b": "project" }, models: { "gpt-5.5": { outputLimit: 75 } } } }, model: "openai/gpt-5.5" }));
    const reader = (await locate(t, { OPENAI_API_KEY: "k" }, join(t.home, "app"))).catalog.read();
    const provider = reader.provider.get("openai")!;
    expect(provider).toMatchObject({ name: "OpenAI (project)", env: ["OPENAI_API_KEY"], api: { type: "aisdk", package: "@ai-sdk/openai", url: "https://proxy.example.test/v1" }, request: { headers: { "x-a": "global", "x-b": "project" } } });
    const model = reader.model.default()!;
    expect(model).toMatchObject({ id: "gpt-5.5", name: "GPT-5.5", limit: { context: 100, output: 75 }, capabilities: { tools: true, reasoning: true } });
    expect(model.api.url).toBe("https://proxy.example.test/v1");
  });

  it("takes a key from the config, the auth store or the environment, and lists disabled providers as unavailable", async () => {
    const t = makeTempHome();
    globalConfig(t, { providers: { deepseek: { apiKey: "sk-in-config" } }, disabled_providers: ["google"] });
    const location = await locate(t, { GEMINI_API_KEY: "g", OPENAI_API_KEY: "o" });
    const reader = location.catalog.read();
    expect(reader.credential("deepseek")).toEqual({ source: "config" });
    expect(reader.credential("openai")).toEqual({ source: "env", variable: "OPENAI_API_KEY" });
    expect(reader.provider.get("google")!.disabled).toBe(true);
    expect(reader.isAvailable("google")).toBe(false);
    expect(reader.isAvailable("anthropic")).toBe(false);
    await location.authStore.set("anthropic", "sk-ant-stored");
    await location.catalog.reload();
    expect(location.catalog.read().credential("anthropic")).toEqual({ source: "auth" });
  });

  it("keeps local servers models.dev lists unavailable until the config names them", async () => {
    const t = makeTempHome();
    const lmstudio = { lmstudio: { id: "lmstudio", name: "LMStudio", env: ["LMSTUDIO_API_KEY"], npm: "@ai-sdk/openai-compatible", api: "http://127.0.0.1:1234/v1", models: { "qwen/qwen3-coder-30b": { id: "qwen/qwen3-coder-30b" } } } };
    t.write(join(t.paths.cache, "models-dev/api.json"), JSON.stringify(lmstudio));
    expect((await locate(t)).catalog.read().isAvailable("lmstudio")).toBe(false);
    globalConfig(t, { providers: { lmstudio: {} } });
    expect((await locate(t)).catalog.read().isAvailable("lmstudio")).toBe(true);
  });

  it("reaches OpenRouter through the OpenAI-compatible package and switches off its chat-only model", async () => {
    const t = makeTempHome();
    const openrouter = {
      openrouter: { id: "openrouter", name: "OpenRouter", env: ["OPENROUTER_API_KEY"], npm: "@openrouter/ai-sdk-provider", api: "https://openrouter.ai/api/v1", models: { "openai/gpt-5-chat": { id: "openai/gpt-5-chat" }, "anthropic/claude-sonnet-5": { id: "anthropic/claude-sonnet-5" } } },
    };
    t.write(join(t.paths.cache, "models-dev/api.json"), JSON.stringify(openrouter));
    const reader = (await locate(t, { OPENROUTER_API_KEY: "k" })).catalog.read();
    expect(reader.provider.get("openrouter")).toMatchObject({ api: { type: "aisdk", package: "@ai-sdk/openai-compatible", url: "https://openrouter.ai/api/v1" }, request: { headers: { "X-Title": "bosun" } } });
    expect(reader.model.available().map((model) => model.id)).toEqual(["anthropic/claude-sonnet-5"]);
  });

  it("lets the user's global policy beat a project's, whatever any plugin does", async () => {
    const t = makeTempHome();
    globalConfig(t, { policy: [{ action: "provider.use", effect: "deny", resource: "openai" }] });
    t.write(join(t.home, "app/bosun.json"), JSON.stringify({ policy: [{ action: "provider.use", effect: "allow", resource: "*" }], providers: { openai: { name: "Mine" } } }));
    const location = await locate(t, { OPENAI_API_KEY: "k" }, join(t.home, "app"));
    await location.plugins.add({
      name: "sneaky",
      activate: async (ctx) => {
        await ctx.catalog.transform((editor) => editor.model.update("openai", "resurrected", () => undefined));
      },
    }, "user");
    const reader = location.catalog.read();
    expect(reader.provider.get("openai")).toBeUndefined();
    expect(reader.model.all().some((model) => model.providerID === "openai")).toBe(false);
    expect(reader.provider.get("anthropic")).toBeDefined();
  });

  it("isolates policy per location: the same provider denied in one directory and present in another", async () => {
    const t = makeTempHome();
    t.write(join(t.home, "strict/bosun.json"), JSON.stringify({ policy: [{ action: "provider.use", effect: "deny", resource: "anthropic" }] }));
    t.write(join(t.home, "open/bosun.json"), "{}");
    const strict = await locate(t, {}, join(t.home, "strict"));
    const relaxed = await locate(t, {}, join(t.home, "open"));
    expect(strict.catalog.read().provider.get("anthropic")).toBeUndefined();
    expect(relaxed.catalog.read().provider.get("anthropic")).toBeDefined();
  });

  it("switches a built-in plugin off by name: its effects are gone", async () => {
    const t = makeTempHome();
    globalConfig(t, { plugins: { "models-dev": { enabled: false } }, providers: { local: { baseURL: "http://127.0.0.1:8080/v1", models: { m: {} } } } });
    const location = await locate(t);
    expect(location.catalog.read().provider.all().map((provider) => provider.id)).toEqual(["local"]);
    expect(location.pluginReports().map((report) => report.name)).not.toContain("models-dev");
  });
});
