// A secret's value never appears anywhere bosun writes: planted everywhere an adapter looks, for
// all eight agents at once, under several seeds.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_SECRET_ENV_KEYS } from "../../src/runtimes/claude.js";
import { CURSOR_ENV_KEYS } from "../../src/runtimes/cursor.js";
import { GEMINI_ENV_KEYS } from "../../src/runtimes/gemini.js";
import { GROK_ENV_KEYS } from "../../src/runtimes/grok.js";
import { NPM_GROK_ENV_KEY } from "../../src/runtimes/grok-npm.js";
import { HERMES_ENV_KEYS } from "../../src/runtimes/hermes.js";
import { OPENCODE_ENV_KEYS } from "../../src/runtimes/opencode.js";
import { runCli, runCliAnswering, type CliResult } from "../fixtures/cli.js";
import { CREDENTIAL_STORES, storePath, type StoreFormat } from "../fixtures/credential-stores.js";
import { startOAuthServer } from "../fixtures/oauth-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { seededRandom as random } from "../fixtures/random.js";

/** Every variable any adapter reads a secret from. */
const SECRET_VARS = [...new Set([...CLAUDE_SECRET_ENV_KEYS, ...CURSOR_ENV_KEYS, ...GEMINI_ENV_KEYS, ...GROK_ENV_KEYS, ...HERMES_ENV_KEYS, ...OPENCODE_ENV_KEYS, NPM_GROK_ENV_KEY, "CODEX_API_KEY"])];
const SEEDS = [1, 7, 42, 1337, 90210];
/** Leaks this long or longer are caught, so a CLI that prints a masked key's first 8 characters is too. */
const WINDOW = 8;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

class Secrets {
  readonly all: string[] = [];
  constructor(private readonly next: () => number) {}
  make(): string {
    let value = "";
    const length = 24 + Math.floor(this.next() * 24);
    for (let i = 0; i < length; i++) value += ALPHABET[Math.floor(this.next() * ALPHABET.length)];
    this.all.push(value);
    return value;
  }
  coin(): boolean {
    return this.next() < 0.5;
  }
}

/** File content for a store: a secret where the rule looks (or, by coin, next to it), always a secret inside. */
function plantedContent(format: StoreFormat, s: Secrets): string {
  const found = s.coin();
  switch (format) {
    case "codex":
      return JSON.stringify({ auth_mode: "chatgpt", OPENAI_API_KEY: s.make(), tokens: { id_token: s.make(), access_token: found ? s.make() : "", refresh_token: s.make(), account_id: s.make() } });
    case "codex-config":
      // Either a config.toml Codex cannot parse (bosun names its line) or a valid one; a secret in both.
      return found ? `model = "gpt-5"\nexperimental_bearer_token = ${s.make()}\n` : `[model_providers.x]\nexperimental_bearer_token = "${s.make()}"\n`;
    case "json":
      return JSON.stringify({ provider: { [found ? "api_key" : "note"]: s.make(), type: "oauth" }, refresh_token: found ? s.make() : "", other: [s.make()] });
    case "json-or-text":
      return found ? `broken { "token": "${s.make()}"` : JSON.stringify({ meta: { token: "", secret: s.make() } });
    case "toml":
      return found ? `[auth]\napi_key = "${s.make()}"\n` : `# api_key = "${s.make()}"\nenv_key = "PLANTED_ENV_KEY_TARGET"\n`;
    case "dotenv":
      return `${found ? "GEMINI_API_KEY" : "UNRELATED_KEY"}="${s.make()}"\nOPENAI_API_KEY=${found ? s.make() : ""}\n# ${s.make()}\n`;
    case "opencode":
      return JSON.stringify({ anthropic: found ? { type: "api", key: s.make() } : { type: "bearer", key: s.make() }, junk: { type: "oauth", refresh: s.make(), access: s.make() } });
    case "grok-settings":
      return JSON.stringify({ baseURL: "https://api.x.ai/v1", [found ? "apiKey" : "note"]: s.make(), settingsVersion: 2 });
    case "grok-dotenv":
      return `${found ? "GROK_API_KEY" : "# GROK_API_KEY"}="${s.make()}"\nOTHER=${s.make()}\n`;
    case "opaque":
      return JSON.stringify({ claudeAiOauth: { accessToken: s.make(), refreshToken: s.make(), scopes: found ? ["user:inference"] : [] }, private_key: s.make() });
    case "claude-config":
      return JSON.stringify({ numStartups: 1, [found ? "primaryApiKey" : "customApiKeyResponses"]: s.make(), oauthAccount: { accountUuid: s.make() } });
    case "claude-settings":
      return found ? `{"apiKeyHelper": "printf ${s.make()}", "env": {"ANTHROPIC_AUTH_TOKEN": "${s.make()}"}}` : `// ${s.make()}\n{"apiKeyHelper": "printf ${s.make()}"}`;
    case "ant-profile":
      return JSON.stringify({ authentication: { type: found ? "oidc_federation" : "api_key", credentials_path: s.make(), token: s.make() } });
  }
}

function leaksIn(text: string, secrets: string[]): string[] {
  const leaks: string[] = [];
  for (const secret of secrets) {
    for (let i = 0; i + WINDOW <= secret.length; i++) {
      if (text.includes(secret.slice(i, i + WINDOW))) {
        leaks.push(secret);
        break;
      }
    }
  }
  return leaks;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("secrets never leave the check that read them", () => {
  for (const seed of SEEDS) {
    for (const withEnv of [true, false]) {
      it(`seed ${seed}, ${withEnv ? "secrets in the environment and every file" : "secrets in every file only"}`, async () => {
        const s = new Secrets(random(seed * 2 + (withEnv ? 1 : 0)));
        const t = makeTempHome();
        const bin = join(t.root, "bin");
        mkdirSync(bin);
        // A `codex` whose logout fails shouting everything it knows, masked key first (as Codex does).
        const access = s.make();
        writeFileSync(
          join(bin, "codex"),
          `#!/bin/sh\necho "Error: API key configured - ${access.slice(0, 8)}***${access.slice(-5)}" >&2\n/bin/cat "$HOME/.codex/auth.json" >&2\n/usr/bin/env >&2\nexit 1\n`,
        );
        chmodSync(join(bin, "codex"), 0o755);
        // An `opencode` whose logout fails shouting its credentials and environment.
        writeFileSync(join(bin, "opencode"), `#!/bin/sh\n/bin/cat "$HOME/.local/share/opencode/auth.json" >&2\n/usr/bin/env >&2\nexit 1\n`);
        chmodSync(join(bin, "opencode"), 0o755);
        // The npm grok (so its rules are the ones checked): a symlink into its package, never run.
        const grokPackage = join(t.root, "lib", "node_modules", "@vibe-kit", "grok-cli");
        mkdirSync(join(grokPackage, "dist"), { recursive: true });
        writeFileSync(join(grokPackage, "package.json"), JSON.stringify({ name: "@vibe-kit/grok-cli", version: "0.0.34" }));
        writeFileSync(join(grokPackage, "dist", "index.js"), "#!/bin/sh\nexit 97\n");
        chmodSync(join(grokPackage, "dist", "index.js"), 0o755);
        symlinkSync(join(grokPackage, "dist", "index.js"), join(bin, "grok"));
        const server = await startOAuthServer({ usercode: { status: 400, body: { error: "invalid_request", error_description: "rejected" } } });
        servers.push(server);

        const env: Record<string, string | undefined> = {
          ...t.env,
          PATH: bin,
          GOOGLE_APPLICATION_CREDENTIALS: join(t.home, "service-account.json"),
          PLANTED_ENV_KEY_TARGET: s.make(),
          AGENT_ZERO_HOST: `http://agent:${s.make()}@127.0.0.1:1`,
          BOSUN_CODEX_AUTH_BASE: server.base,
        };
        if (withEnv) for (const name of SECRET_VARS) env[name] = s.make();
        if (withEnv) env.OPENCODE_AUTH_CONTENT = JSON.stringify({ anthropic: { type: "api", key: s.make() } });
        for (const store of CREDENTIAL_STORES) {
          const path = storePath(store, t.home, t.paths.data);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, plantedContent(store.format, s));
        }
        // bosun's own Codex login is valid (its disconnect is logged), with secrets in its id token's claims too; Codex's
        // holds the key the fake CLI prints a part of, as `codex login --with-api-key` writes it.
        const idToken = [{ alg: "none" }, { email: s.make(), "https://api.openai.com/auth": { chatgpt_account_id: s.make() } }].map((part) => Buffer.from(JSON.stringify(part)).toString("base64url")).join(".") + `.${s.make()}`;
        writeFileSync(join(t.paths.data, "runtimes/codex/auth.json"), JSON.stringify({ tokens: { access_token: s.make(), refresh_token: s.make(), id_token: idToken } }));
        writeFileSync(join(t.home, ".codex/auth.json"), JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: access }));

        const outputs: CliResult[] = [];
        const run = async (argv: string[]) => outputs.push(await runCli(argv, env, t.home));
        await run(["agents", "--json"]);
        await run(["agents"]);
        await run(["status"]);
        await run(["status", "--json"]);
        await run(["agents", "disconnect", "cursor", "--yes"]);
        await run(["agents", "disconnect", "claude"]);
        await run(["agents", "disconnect", "opencode", "--yes"]);
        await run(["agents", "disconnect", "grok", "--yes"]);
        await run(["agents", "login", "codex", "--json"]);
        // Refused while CODEX_API_KEY is set (or config.toml stops Codex); then Codex's own login and bosun's, without running the fake `codex`.
        await run(["agents", "disconnect", "codex", "--yes"]);
        for (let i = 0; i < 2; i++) outputs.push(await runCli(["agents", "disconnect", "codex", "--yes"], { ...env, CODEX_API_KEY: undefined }, t.home));
        outputs.push(await runCliAnswering(["agents", "disconnect", "claude"], env, "y", t.home));

        const logFile = join(t.paths.state, "logs", "bosun.log");
        expect(existsSync(logFile)).toBe(true);
        const everything = [...outputs.flatMap((o) => [o.stdout, o.stderr]), readFileSync(logFile, "utf8")].join("\n");
        expect(everything).toContain("Disconnected OpenAI Codex CLI");
        if (withEnv) expect(everything).toMatch(/uses the key in CODEX_API_KEY|config\.toml:2:\d+: /);
        expect(everything).toContain("agent disconnected");
        expect(leaksIn(everything, s.all)).toEqual([]);
        const json = JSON.parse(outputs[0]!.stdout) as { agents: { auth: { connected: boolean } }[] };
        expect(json.agents.filter((agent) => agent.auth.connected).length).toBeGreaterThan(withEnv ? 5 : 2);
      });
    }
  }
});
