import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError } from "../../src/agent/model/errors.js";
import { parseJsonc } from "../../src/kernel/jsonc.js";
import { logFilePath } from "../../src/kernel/log.js";
import { baseURLOrigin } from "../../src/llm/base-url-origin.js";
import type { ModelTarget } from "../../src/llm/model-target.js";
import { classifyNetworkFailure } from "../../src/kernel/net/network-failure.js";
import { runBin, runBinAsync, runCli } from "../fixtures/cli.js";
import { languageModelFor, makeWorkspace, recordingUi, runScripted, scriptedTarget } from "../fixtures/agent-harness.js";
import { startLlmServer, type LlmServer } from "../fixtures/llm-server.js";
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

  it("refuses a base URL with a user name and password in bosun.json, and never shows them: not on stderr nor in the log", async () => {
    const t = makeTempHome();
    const config = configPointingAt(t, "http://bob:hunter2@127.0.0.1:9/v1?token=tok-5678");
    const result = await runCli(["run", "--yes", "--verbose", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${config}:3: providers.local.baseURL: put no user or password in the URL; use apiKey, headers, or bosun auth set`);
    expect(existsSync(join(t.paths.data, "sessions"))).toBe(false);
    const log = logFilePath(t.paths.state);
    for (const text of [result.stderr, existsSync(log) ? readFileSync(log, "utf8") : ""]) {
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

/** A key and a self-signed certificate for `names` (openssl, made here, for one day). */
function selfSigned(dir: string, label: string, names: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, `${label}.key`);
  const certFile = join(dir, `${label}.pem`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", `/CN=${label}`, "-addext", `subjectAltName=${names}`], { stdio: "ignore" });
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
}

describe("a model server whose TLS bosun cannot use", () => {
  let dir: string;
  let local: ReturnType<typeof selfSigned>;
  let secure: LlmServer;
  let otherName: Server;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bosun-tls-"));
    local = selfSigned(dir, "local", "DNS:localhost,IP:127.0.0.1");
    secure = await startLlmServer({ tls: local });
    // A certificate for another host name, trusted below: only the name is wrong.
    otherName = createServer(selfSigned(dir, "other", "DNS:other.example"), (_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => otherName.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await secure.close();
    await new Promise((resolve) => otherName.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("stops at once on a self-signed certificate, naming the provider, the URL, the config and NODE_EXTRA_CA_CERTS; trusted that way, the run works", async () => {
    const t = makeTempHome();
    const config = configPointingAt(t, `${secure.url}/v1`);
    const env = { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" };
    const refused = await runBinAsync(["run", "--yes", "hello"], env, { cwd: t.home });
    expect(refused.code, refused.stderr).toBe(1);
    const lines = refused.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    const session = /session (\S+)/.exec(lines[0]!)![1];
    expect(lines[1]).toBe(
      `bosun: the model call failed: cannot connect securely to provider local at ${secure.url}/v1 (set in ${config}:3): the server's certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); ` +
        `to trust it, run bosun with NODE_EXTRA_CA_CERTS set to that certificate's PEM file (session ${session} is saved)`,
    );
    expect(secure.requests).toHaveLength(0);

    secure.reply().text("Hello over TLS.");
    const trusted = await runBinAsync(["run", "--yes", "hello"], { ...env, NODE_EXTRA_CA_CERTS: local.certFile }, { cwd: t.home });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toBe("Hello over TLS.\n");
    expect(secure.requests).toHaveLength(1);
  });

  it("names a certificate issued for another host, and an https URL for a server without TLS, without retrying either", async () => {
    const t = makeTempHome();
    const url = `https://localhost:${(otherName.address() as AddressInfo).port}/v1`;
    configPointingAt(t, url);
    const wrongName = await runBinAsync(["run", "--yes", "hello"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1", NODE_EXTRA_CA_CERTS: join(dir, "other.pem") }, { cwd: t.home });
    expect(wrongName.code).toBe(1);
    expect(wrongName.stderr).toContain(
      `cannot connect securely to provider local at ${url} (set in ${join(t.paths.config, "bosun.json")}:3): the server's certificate is for another name ` +
        "(ERR_TLS_CERT_ALTNAME_INVALID: Host: localhost. is not in the cert's altnames: DNS:other.example); use a host name it was issued for",
    );
    expect(wrongName.stderr).not.toContain("retrying");

    const noTls = llm.openaiURL.replace("http://", "https://");
    const { error, retries } = await run(scriptedTarget(llm, "@ai-sdk/openai-compatible", { baseURL: noTls }));
    expect(retries).toEqual([]);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe(
      `the model call failed: cannot connect securely to provider scripted at ${noTls}: the server does not speak TLS there (ERR_SSL_WRONG_VERSION_NUMBER): for a plain http server, use an http:// URL`,
    );
  });

  it("sorts every certificate verdict and TLS error as permanent", () => {
    const tlsError = (code: string, message = "x") => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(message), { code }) });
    const cases: [string, RegExp][] = [
      ["SELF_SIGNED_CERT_IN_CHAIN", /signed by an authority this machine does not trust \(SELF_SIGNED_CERT_IN_CHAIN\); to trust it, run bosun with NODE_EXTRA_CA_CERTS/],
      ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", /does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/],
      ["UNABLE_TO_GET_ISSUER_CERT_LOCALLY", /does not trust \(UNABLE_TO_GET_ISSUER_CERT_LOCALLY\)/],
      ["CERT_HAS_EXPIRED", /^the server's certificate has expired \(CERT_HAS_EXPIRED\)$/],
      ["CERT_NOT_YET_VALID", /not valid yet \(CERT_NOT_YET_VALID\): is this machine's clock right\?$/],
      ["CERT_REVOKED", /^the secure connection failed \(CERT_REVOKED\)$/],
      ["EPROTO", /^the secure connection failed \(EPROTO\)$/],
      ["ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE", /^the secure connection failed \(ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE\)$/],
    ];
    for (const [code, reason] of cases) {
      const failure = classifyNetworkFailure(tlsError(code));
      expect(failure, code).toMatchObject({ kind: "tls", permanent: true });
      expect(failure!.reason, code).toMatch(reason);
    }
  });
});
