import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError } from "../../src/agent/model-errors.js";
import { classifyNetworkFailure } from "../../src/net/network-failure.js";
import { languageModelFor, makeWorkspace, recordingUi, runScripted, scriptedTarget } from "../fixtures/agent-harness.js";
import { runBinAsync } from "../fixtures/cli.js";
import { startLlmServer, type LlmServer } from "../fixtures/llm-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

/** A key and a self-signed certificate for `names` (openssl, made here, for one day). */
function selfSigned(dir: string, label: string, names: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, `${label}.key`);
  const certFile = join(dir, `${label}.pem`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", `/CN=${label}`, "-addext", `subjectAltName=${names}`], { stdio: "ignore" });
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
}

const plain = useLlmServer();
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

/** A config whose `local` provider points at `baseURL` (line 3 of the file). */
function configPointingAt(t: TempHome, baseURL: string): string {
  return t.write(join(t.paths.config, "bosun.json"), `{\n  "providers": {\n    "local": { "baseURL": "${baseURL}", "models": { "qwen3": {} } }\n  },\n  "model": "local/qwen3"\n}\n`);
}

describe("a model server whose TLS bosun cannot use", () => {
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

    const noTls = plain.openaiURL.replace("http://", "https://");
    const target = scriptedTarget(plain, "@ai-sdk/openai-compatible", { baseURL: noTls });
    const ws = makeWorkspace();
    const ui = recordingUi();
    const error = await runScripted("hello", { model: await languageModelFor(target), target, workdir: ws.workdir, sessions: ws.sessions, ui }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe(
      `the model call failed: cannot connect securely to provider scripted at ${noTls}: the server does not speak TLS there (ERR_SSL_WRONG_VERSION_NUMBER): for a plain http server, use an http:// URL`,
    );
    expect(ui.events.filter((event) => event.type === "retry")).toEqual([]);
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
